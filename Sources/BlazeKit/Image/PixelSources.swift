// Per-format readers of one stored pixel as RGB(A), used by the crop and the conversions.
// Each is a small struct specialised into the generic loops (no per-pixel dispatch).

/// Reads stored pixel `(x, y)` (inside the image) as `(r, g, b, a)` in 0…255.
protocol PixelSource {
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32>
}

/// Packed 8-bit formats: byte offsets of R, G, B (and A, or −1) inside a pixel.
struct PackedSource: PixelSource {
    let base: UnsafePointer<UInt8>
    let stride: Int, bpp: Int
    let r: Int, g: Int, b: Int, a: Int

    @inline(__always)
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32> {
        let p = base + (y &* stride &+ x &* bpp)
        return SIMD4(Int32(p[r]), Int32(p[g]), Int32(p[b]), a >= 0 ? Int32(p[a]) : 255)
    }
}

struct GraySource: PixelSource {
    let base: UnsafePointer<UInt8>
    let stride: Int

    @inline(__always)
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32> {
        let v = Int32(base[y &* stride &+ x])
        return SIMD4(v, v, v, 255)
    }
}

/// The YUV → RGB formula of one range.
protocol YUVMatrix {
    static func rgb(_ y: Int32, _ u: Int32, _ v: Int32) -> SIMD4<Int32>
}

/// OpenCV's integer BT.601 video-range formula (`COLOR_YUV2RGB_NV12`, `color_yuv.simd.hpp`):
/// `C = (max(0, Y − 16)·1220542 + k·(U|V − 128) + 2¹⁹) >> 20`, saturated to 0…255, with
/// R: +1673527·V; G: −852492·V − 409993·U; B: +2116026·U.
enum VideoRangeYUV: YUVMatrix {
    @inline(__always)
    static func rgb(_ y: Int32, _ u: Int32, _ v: Int32) -> SIMD4<Int32> {
        let yy = max(0, y &- 16) &* 1_220_542 &+ (1 << 19)
        let uu = u &- 128, vv = v &- 128
        let r = (yy &+ 1_673_527 &* vv) >> 20
        let g = (yy &- 852_492 &* vv &- 409_993 &* uu) >> 20
        let b = (yy &+ 2_116_026 &* uu) >> 20
        return SIMD4(saturate(r), saturate(g), saturate(b), 255)
    }
}

/// OpenCV's integer full-range formula (`COLOR_YCrCb2RGB`): `C = Y + ((k·(U|V − 128) + 2¹³) >> 14)`,
/// saturated, with R: 22987·V; G: −5636·U − 11698·V; B: 29049·U.
enum FullRangeYUV: YUVMatrix {
    @inline(__always)
    static func rgb(_ y: Int32, _ u: Int32, _ v: Int32) -> SIMD4<Int32> {
        let uu = u &- 128, vv = v &- 128
        let r = y &+ ((22987 &* vv &+ 8192) >> 14)
        let g = y &+ ((-5636 &* uu &- 11698 &* vv &+ 8192) >> 14)
        let b = y &+ ((29049 &* uu &+ 8192) >> 14)
        return SIMD4(saturate(r), saturate(g), saturate(b), 255)
    }
}

/// Clamps to 0…255 (OpenCV's `saturate_cast<uchar>`).
@inline(__always)
func saturate(_ v: Int32) -> Int32 { min(max(v, 0), 255) }

/// NV12 / NV21: chroma pairs interleaved; `uOffset`/`vOffset` are 0/1 or 1/0.
struct BiPlanarSource<M: YUVMatrix>: PixelSource {
    let luma: UnsafePointer<UInt8>, lumaStride: Int
    let chroma: UnsafePointer<UInt8>, chromaStride: Int
    let uOffset: Int, vOffset: Int

    @inline(__always)
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32> {
        let c = chroma + ((y >> 1) &* chromaStride &+ (x >> 1) &* 2)
        return M.rgb(Int32(luma[y &* lumaStride &+ x]), Int32(c[uOffset]), Int32(c[vOffset]))
    }
}

/// I420: separate U and V planes.
struct PlanarSource<M: YUVMatrix>: PixelSource {
    let luma: UnsafePointer<UInt8>, lumaStride: Int
    let u: UnsafePointer<UInt8>, uStride: Int
    let v: UnsafePointer<UInt8>, vStride: Int

    @inline(__always)
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32> {
        let cx = x >> 1, cy = y >> 1
        return M.rgb(Int32(luma[y &* lumaStride &+ x]), Int32(u[cy &* uStride &+ cx]), Int32(v[cy &* vStride &+ cx]))
    }
}

/// Calls `body` with the reader of `image`'s format (statically specialised per format).
protocol PixelSourceVisitor {
    associatedtype Result
    func visit<S: PixelSource>(_ source: S) -> Result
}

extension VisionImage {
    func withPixelSource<V: PixelSourceVisitor>(_ visitor: V) -> V.Result {
        let planes = storage.planes
        let p0 = UnsafePointer(planes[0].base.assumingMemoryBound(to: UInt8.self))
        let s0 = planes[0].bytesPerRow
        func packed(_ bpp: Int, _ r: Int, _ g: Int, _ b: Int, _ a: Int) -> PackedSource {
            PackedSource(base: p0, stride: s0, bpp: bpp, r: r, g: g, b: b, a: a)
        }
        switch format {
        case .rgba8: return visitor.visit(packed(4, 0, 1, 2, 3))
        case .bgra8: return visitor.visit(packed(4, 2, 1, 0, 3))
        case .argb8: return visitor.visit(packed(4, 1, 2, 3, 0))
        case .rgb8: return visitor.visit(packed(3, 0, 1, 2, -1))
        case .bgr8: return visitor.visit(packed(3, 2, 1, 0, -1))
        case .gray8: return visitor.visit(GraySource(base: p0, stride: s0))
        case .nv12(let range), .nv21(let range):
            let c = UnsafePointer(planes[1].base.assumingMemoryBound(to: UInt8.self))
            let (uo, vo) = if case .nv12 = format { (0, 1) } else { (1, 0) }
            switch range {
            case .video: return visitor.visit(BiPlanarSource<VideoRangeYUV>(luma: p0, lumaStride: s0, chroma: c, chromaStride: planes[1].bytesPerRow, uOffset: uo, vOffset: vo))
            case .full: return visitor.visit(BiPlanarSource<FullRangeYUV>(luma: p0, lumaStride: s0, chroma: c, chromaStride: planes[1].bytesPerRow, uOffset: uo, vOffset: vo))
            }
        case .i420(let range):
            let u = UnsafePointer(planes[1].base.assumingMemoryBound(to: UInt8.self))
            let v = UnsafePointer(planes[2].base.assumingMemoryBound(to: UInt8.self))
            let us = planes[1].bytesPerRow, vs = planes[2].bytesPerRow
            switch range {
            case .video: return visitor.visit(PlanarSource<VideoRangeYUV>(luma: p0, lumaStride: s0, u: u, uStride: us, v: v, vStride: vs))
            case .full: return visitor.visit(PlanarSource<FullRangeYUV>(luma: p0, lumaStride: s0, u: u, uStride: us, v: v, vStride: vs))
            }
        }
    }
}
