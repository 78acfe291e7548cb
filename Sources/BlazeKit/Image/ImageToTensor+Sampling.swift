import Foundation
// The crop's hot loop: OpenCV's warpPerspective(INTER_LINEAR) fixed-point bilinear (§S1 step 5)
// with the orientation folded into the integer map.

/// Round-half-to-even of `v·32` as an integer (1/32-pixel units), clamped far outside any image so
/// that huge coordinates neither trap nor wrap. Adding and subtracting 1.5·2⁵² rounds to nearest
/// even in the default rounding mode without a libm call.
@inline(__always)
func fixedPoint32(_ v: Double) -> Int {
    let magic = 6_755_399_441_055_744.0
    let s = min(max(v * 32, -1e12), 1e12)
    return Int((s + magic) - magic)
}

struct CropSampler: PixelSourceVisitor {
    typealias Result = Void
    let storedWidth: Int, storedHeight: Int
    let map: OrientationTransform  // upright → stored, scaled to 1/32 px
    let tw: Int, th: Int
    let cx: Double, cy: Double, rw: Double, rh: Double, cosT: Double, sinT: Double
    let rotated: Bool
    let replicate: Bool
    let scale: Float, lo: Float
    let output: UnsafeMutablePointer<Float>

    init(
        image: VisionImage, transform t: ImageToTensorTransform, options: ImageToTensorOptions,
        output: UnsafeMutablePointer<Float>
    ) {
        storedWidth = image.width
        storedHeight = image.height
        var m = image.orientation.uprightToStored(width: image.width, height: image.height)
        m.tx = m.tx &* 32
        m.ty = m.ty &* 32
        map = m
        tw = options.width
        th = options.height
        cx = Double(t.centerX)
        cy = Double(t.centerY)
        rw = Double(t.width)
        rh = Double(t.height)
        rotated = t.rotation != 0
        cosT = rotated ? cos(Double(t.rotation)) : 1
        sinT = rotated ? sin(Double(t.rotation)) : 0
        replicate = options.borderMode == .replicate
        lo = options.outputRange.lowerBound
        scale = (options.outputRange.upperBound - lo) / 255
        self.output = output
    }

    func visit<S: PixelSource>(_ source: S) {
        var lut = [Float](repeating: 0, count: 256)
        for p in 0..<256 { lut[p] = Float(p) * scale + lo }
        // Per-column offsets a·cosθ, a·sinθ with a = (u/TW − 0.5)·rw; per-row ones from b.
        var colA = [Double](repeating: 0, count: tw)
        for u in 0..<tw { colA[u] = (Double(u) / Double(tw) - 0.5) * rw }
        var xs = [Int](repeating: 0, count: tw), ys = [Int](repeating: 0, count: tw)
        var fixedX = [Int](repeating: 0, count: tw)
        if !rotated { for u in 0..<tw { fixedX[u] = fixedPoint32(cx + colA[u]) } }
        lut.withUnsafeBufferPointer { lut in
            colA.withUnsafeBufferPointer { colA in
                xs.withUnsafeMutableBufferPointer { xs in
                    ys.withUnsafeMutableBufferPointer { ys in
                        fixedX.withUnsafeBufferPointer { fixedX in
                            for v in 0..<th {
                                let b = (Double(v) / Double(th) - 0.5) * rh
                                if rotated {
                                    let bx = cx - b * sinT, by = cy + b * cosT
                                    for u in 0..<tw {
                                        let a = colA[u]
                                        xs[u] = fixedPoint32(bx + a * cosT)
                                        ys[u] = fixedPoint32(by + a * sinT)
                                    }
                                } else {
                                    let y = fixedPoint32(cy + b)
                                    for u in 0..<tw {
                                        xs[u] = fixedX[u]
                                        ys[u] = y
                                    }
                                }
                                sampleRow(
                                    source, xs: xs.baseAddress!, ys: ys.baseAddress!, lut: lut.baseAddress!,
                                    out: output + v &* tw &* 3)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Samples one tensor row from upright 1/32-pixel coordinates.
    @inline(__always)
    func sampleRow<S: PixelSource>(
        _ s: S, xs: UnsafePointer<Int>, ys: UnsafePointer<Int>,
        lut: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        let w = storedWidth, h = storedHeight, w1 = w &- 1, h1 = h &- 1
        let m = map
        var o = out
        for u in 0..<tw {
            let xu = xs[u], yu = ys[u]
            let X = m.a &* xu &+ m.b &* yu &+ m.tx
            let Y = m.c &* xu &+ m.d &* yu &+ m.ty
            let ix = X >> 5, iy = Y >> 5
            let fx = Int32(truncatingIfNeeded: X & 31), fy = Int32(truncatingIfNeeded: Y & 31)
            let w00 = (32 &- fx) &* (32 &- fy) &* 32, w01 = fx &* (32 &- fy) &* 32
            let w10 = (32 &- fx) &* fy &* 32, w11 = fx &* fy &* 32
            var p00: SIMD4<Int32>, p01: SIMD4<Int32>, p10: SIMD4<Int32>, p11: SIMD4<Int32>
            if ix >= 0, iy >= 0, ix < w1, iy < h1 {
                p00 = s.rgba(ix, iy)
                p01 = s.rgba(ix &+ 1, iy)
                p10 = s.rgba(ix, iy &+ 1)
                p11 = s.rgba(ix &+ 1, iy &+ 1)
            } else if replicate {
                let x0 = min(max(ix, 0), w1), x1 = min(max(ix &+ 1, 0), w1)
                let y0 = min(max(iy, 0), h1), y1 = min(max(iy &+ 1, 0), h1)
                p00 = s.rgba(x0, y0)
                p01 = s.rgba(x1, y0)
                p10 = s.rgba(x0, y1)
                p11 = s.rgba(x1, y1)
            } else {
                let in0 = ix >= 0 && ix < w, in1 = ix >= -1 && ix < w1
                let jn0 = iy >= 0 && iy < h, jn1 = iy >= -1 && iy < h1
                p00 = in0 && jn0 ? s.rgba(ix, iy) : .zero
                p01 = in1 && jn0 ? s.rgba(ix &+ 1, iy) : .zero
                p10 = in0 && jn1 ? s.rgba(ix, iy &+ 1) : .zero
                p11 = in1 && jn1 ? s.rgba(ix &+ 1, iy &+ 1) : .zero
            }
            var acc = p00 &* SIMD4(repeating: w00)
            acc &+= p01 &* SIMD4(repeating: w01)
            acc &+= p10 &* SIMD4(repeating: w10)
            acc &+= p11 &* SIMD4(repeating: w11)
            acc = (acc &+ 16384) &>> 15
            o[0] = lut[Int(acc.x)]
            o[1] = lut[Int(acc.y)]
            o[2] = lut[Int(acc.z)]
            o += 3
        }
    }
}
