// Per-format readers of one stored pixel as RGB(A), used by the crop and the conversions.
// Each is a small struct specialised into the generic loops (no per-pixel dispatch).

/// Reads stored pixel `(x, y)` (inside the image) as `(r, g, b, a)` in 0…255.
protocol PixelSource {
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32>
}

/// One pixel's 0…255 channels, as the crop combines them.
typealias RGB = (r: Int32, g: Int32, b: Int32)

extension PixelSource {
    /// `rgba` without alpha.
    @inline(__always)
    func rgb(_ x: Int, _ y: Int) -> RGB {
        let p = rgba(x, y)
        return (p.x, p.y, p.z)
    }
}

/// Where a packed 8-bit format keeps its channels: bytes per pixel and the byte offsets of R, G,
/// B (and A, or −1). Static, so the crop's loop addresses the bytes with constant displacements
/// instead of keeping five offsets in registers it lacks.
protocol PackedLayout {
    static var bytesPerPixel: Int { get }
    static var r: Int { get }
    static var g: Int { get }
    static var b: Int { get }
    static var a: Int { get }
}

enum RGBA8Layout: PackedLayout { static let bytesPerPixel = 4, r = 0, g = 1, b = 2, a = 3 }
enum BGRA8Layout: PackedLayout { static let bytesPerPixel = 4, r = 2, g = 1, b = 0, a = 3 }
enum ARGB8Layout: PackedLayout { static let bytesPerPixel = 4, r = 1, g = 2, b = 3, a = 0 }
enum RGB8Layout: PackedLayout { static let bytesPerPixel = 3, r = 0, g = 1, b = 2, a = -1 }
enum BGR8Layout: PackedLayout { static let bytesPerPixel = 3, r = 2, g = 1, b = 0, a = -1 }

/// Packed 8-bit formats.
struct PackedSource<Layout: PackedLayout>: PixelSource {
    let base: UnsafePointer<UInt8>
    let stride: Int

    @inline(__always)
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32> {
        let p = base + (y &* stride &+ x &* Layout.bytesPerPixel)
        return SIMD4(Int32(p[Layout.r]), Int32(p[Layout.g]), Int32(p[Layout.b]), Layout.a >= 0 ? Int32(p[Layout.a]) : 255)
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

/// One of OpenCV's integer YUV → RGB formulas as lookup tables: `C = clamp((L[Y] + Cᵤᵥ) >> shift)`
/// with `Cᵤᵥ` = `R[V]`, `Gu[U] + Gv[V]` or `B[U]`. The same integers as the formulas, with
/// neither multiplications nor compares per pixel: LLVM turned the clamps' selects into
/// branches, which mispredict wherever an image saturates or is noisy.
struct YUVTables: @unchecked Sendable {
    /// 5 × 256 terms: L, R, Gu, Gv, B, then the clamp table (immortal, shared by every image).
    let terms: UnsafePointer<Int32>
    let shift: Int32
    /// `clamp[k]` = k limited to 0…255, for k in −1024…1023 (every `(L + C) >> shift` of both
    /// formulas lies within ±600).
    let clamp: UnsafePointer<Int32>

    private init(shift: Int32, luma: (Int32) -> Int32, r: (Int32) -> Int32, gu: (Int32) -> Int32, gv: (Int32) -> Int32, b: (Int32) -> Int32) {
        let t = UnsafeMutablePointer<Int32>.allocate(capacity: 5 * 256 + 2048)
        for i in 0..<2048 { t[1280 + i] = Int32(min(max(i - 1024, 0), 255)) }
        for i in 0..<256 {
            let c = Int32(i)
            t[i] = luma(c)
            t[256 + i] = r(c &- 128)
            t[512 + i] = gu(c &- 128)
            t[768 + i] = gv(c &- 128)
            t[1024 + i] = b(c &- 128)
        }
        terms = UnsafePointer(t)
        self.shift = shift
        clamp = UnsafePointer(t + 1280 + 1024)
    }

    /// OpenCV's BT.601 video-range formula (`COLOR_YUV2RGB_NV12`, `color_yuv.simd.hpp`):
    /// `C = (max(0, Y − 16)·1220542 + k·(U|V − 128) + 2¹⁹) >> 20`, saturated, with
    /// R: +1673527·V; G: −852492·V − 409993·U; B: +2116026·U.
    static let video = YUVTables(
        shift: 20, luma: { max(0, $0 &- 16) &* 1_220_542 &+ (1 << 19) }, r: { 1_673_527 &* $0 },
        gu: { -409_993 &* $0 }, gv: { -852_492 &* $0 }, b: { 2_116_026 &* $0 })

    /// OpenCV's full-range formula (`COLOR_YCrCb2RGB`): `C = Y + ((k·(U|V − 128) + 2¹³) >> 14)`,
    /// saturated, with R: 22987·V; G: −5636·U − 11698·V; B: 29049·U (`Y` is folded in as `Y·2¹⁴`).
    static let full = YUVTables(
        shift: 14, luma: { $0 << 14 }, r: { 22987 &* $0 &+ 8192 },
        gu: { -5636 &* $0 &+ 8192 }, gv: { -11698 &* $0 }, b: { 29049 &* $0 &+ 8192 })

    static func forRange(_ range: YUVRange) -> YUVTables { range == .video ? video : full }

    @inline(__always)
    func rgb(_ y: UInt8, _ u: UInt8, _ v: UInt8) -> SIMD4<Int32> {
        let l = terms[Int(y)], u = Int(u), v = Int(v)
        let r = (l &+ terms[256 &+ v]) &>> shift
        let g = (l &+ terms[512 &+ u] &+ terms[768 &+ v]) &>> shift
        let b = (l &+ terms[1024 &+ u]) &>> shift
        return SIMD4(clamp[Int(r)], clamp[Int(g)], clamp[Int(b)], 255)
    }
}

/// NV12 / NV21: chroma pairs interleaved; `uOffset`/`vOffset` are 0/1 or 1/0.
struct BiPlanarSource: PixelSource {
    let luma: UnsafePointer<UInt8>, lumaStride: Int
    let chroma: UnsafePointer<UInt8>, chromaStride: Int
    let uOffset: Int, vOffset: Int
    let tables: YUVTables

    @inline(__always)
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32> {
        let c = chroma + ((y >> 1) &* chromaStride &+ (x >> 1) &* 2)
        return tables.rgb(luma[y &* lumaStride &+ x], c[uOffset], c[vOffset])
    }
}

/// I420: separate U and V planes.
struct PlanarSource: PixelSource {
    let luma: UnsafePointer<UInt8>, lumaStride: Int
    let u: UnsafePointer<UInt8>, uStride: Int
    let v: UnsafePointer<UInt8>, vStride: Int
    let tables: YUVTables

    @inline(__always)
    func rgba(_ x: Int, _ y: Int) -> SIMD4<Int32> {
        let cx = x >> 1, cy = y >> 1
        return tables.rgb(luma[y &* lumaStride &+ x], u[cy &* uStride &+ cx], v[cy &* vStride &+ cx])
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
        func packed<L: PackedLayout>(_: L.Type) -> PackedSource<L> { PackedSource(base: p0, stride: s0) }
        switch format {
        case .rgba8: return visitor.visit(packed(RGBA8Layout.self))
        case .bgra8: return visitor.visit(packed(BGRA8Layout.self))
        case .argb8: return visitor.visit(packed(ARGB8Layout.self))
        case .rgb8: return visitor.visit(packed(RGB8Layout.self))
        case .bgr8: return visitor.visit(packed(BGR8Layout.self))
        case .gray8: return visitor.visit(GraySource(base: p0, stride: s0))
        case .nv12(let range), .nv21(let range):
            let c = UnsafePointer(planes[1].base.assumingMemoryBound(to: UInt8.self))
            let (uo, vo) = if case .nv12 = format { (0, 1) } else { (1, 0) }
            return visitor.visit(
                BiPlanarSource(
                    luma: p0, lumaStride: s0, chroma: c, chromaStride: planes[1].bytesPerRow, uOffset: uo, vOffset: vo,
                    tables: .forRange(range)))
        case .i420(let range):
            let u = UnsafePointer(planes[1].base.assumingMemoryBound(to: UInt8.self))
            let v = UnsafePointer(planes[2].base.assumingMemoryBound(to: UInt8.self))
            return visitor.visit(
                PlanarSource(
                    luma: p0, lumaStride: s0, u: u, uStride: planes[1].bytesPerRow, v: v, vStride: planes[2].bytesPerRow,
                    tables: .forRange(range)))
        }
    }
}
