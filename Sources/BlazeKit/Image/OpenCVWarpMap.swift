import Foundation

/// The sample positions of MediaPipe's crop exactly as OpenCV computes them (docs/pipelines.md
/// §S1 steps 4–5): `cv::boxPoints` of the ROI in Float32, `cv::getPerspectiveTransform` onto the
/// tensor corners (an 8×8 LU solve in Double), `cv::warpPerspective`'s 3×3 inverse (cofactors
/// over the determinant), then its per-pixel map `lrint(32·(X0 + M0·x1) / (W0 + M6·x1))` with
/// X0, Y0, W0 taken at the first column of each block.
///
/// The analytic positions `cx + a·cosθ − b·sinθ` differ from these by ~1e-15 px, which matters
/// at exact half-1/32 ties: OpenCV's matrix noise decides those, not round-half-to-even, and
/// letterboxed whole images hit them often (the measured effect on scores: docs/pipelines.md §S1).
struct OpenCVWarpMap: Sendable {
    /// Row-major 3×3 from tensor pixels to upright image pixels (warpPerspective's inverse).
    let m: [Double]
    /// warpPerspective's block width: BLOCK_SZ 32, `min(1024 / min(16, TH), TW)`.
    let blockWidth: Int
    let width: Int

    init(centerX cx: Float, centerY cy: Float, width w: Float, height h: Float, rotation: Float, tensorWidth tw: Int, tensorHeight th: Int) {
        width = tw
        blockWidth = min(1024 / min(16, th), tw)
        // ImageToTensorConverterOpenCV: RotatedRect(centre, size, rotation·180.f / M_PI), then
        // RotatedRect::points, all in Float32 (the angle via Double, as in the C++).
        let degrees = Float(Double(rotation * 180) / Double.pi)
        let radians = Double(degrees) * Double.pi / 180
        let b = Float(cos(radians)) * 0.5, a = Float(sin(radians)) * 0.5
        let x0 = cx - a * h - b * w, y0 = cy + b * h - a * w
        let x1 = cx + a * h - b * w, y1 = cy - b * h - a * w
        let px: [Float] = [x0, x1, 2 * cx - x0, 2 * cx - x1]
        let py: [Float] = [y0, y1, 2 * cy - y0, 2 * cy - y1]
        let fw = Float(tw), fh = Float(th)
        let dx: [Float] = [0, 0, fw, fw], dy: [Float] = [fh, 0, 0, fh]
        // getPerspectiveTransform: the products are Float32 (Point2f members), the system Double.
        var a8 = [Double](repeating: 0, count: 64), rhs = [Double](repeating: 0, count: 8)
        for i in 0..<4 {
            a8[i * 8 + 0] = Double(px[i])
            a8[i * 8 + 1] = Double(py[i])
            a8[i * 8 + 2] = 1
            a8[(i + 4) * 8 + 3] = Double(px[i])
            a8[(i + 4) * 8 + 4] = Double(py[i])
            a8[(i + 4) * 8 + 5] = 1
            a8[i * 8 + 6] = Double(-px[i] * dx[i])
            a8[i * 8 + 7] = Double(-py[i] * dx[i])
            a8[(i + 4) * 8 + 6] = Double(-px[i] * dy[i])
            a8[(i + 4) * 8 + 7] = Double(-py[i] * dy[i])
            rhs[i] = Double(dx[i])
            rhs[i + 4] = Double(dy[i])
        }
        var s = [Double](repeating: 0, count: 9)
        if Self.luSolve(&a8, &rhs, n: 8) {  // cv::solve zeroes the result when LU fails
            for i in 0..<8 { s[i] = rhs[i] }
        }
        s[8] = 1
        m = Self.invert3(s)
    }

    /// OpenCV's `LUImpl` (partial pivoting, eps = 100·DBL_EPSILON) in the C++ operation order.
    static func luSolve(_ a: inout [Double], _ b: inout [Double], n: Int) -> Bool {
        for i in 0..<n {
            var k = i
            for j in (i + 1)..<n where abs(a[j * n + i]) > abs(a[k * n + i]) { k = j }
            if abs(a[k * n + i]) < 100 * Double.ulpOfOne { return false }
            if k != i {
                for j in i..<n { a.swapAt(i * n + j, k * n + j) }
                b.swapAt(i, k)
            }
            let d = -1 / a[i * n + i]
            for j in (i + 1)..<n {
                let alpha = a[j * n + i] * d
                for c in (i + 1)..<n { a[j * n + c] += alpha * a[i * n + c] }
                b[j] += alpha * b[i]
            }
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            var s = b[i]
            for c in (i + 1)..<n { s -= a[i * n + c] * b[c] }
            b[i] = s / a[i * n + i]
        }
        return true
    }

    /// `cv::invert` of a 3×3 Double matrix (DECOMP_LU: cofactors times 1/det; zeros if det = 0).
    static func invert3(_ s: [Double]) -> [Double] {
        let det = s[0] * (s[4] * s[8] - s[5] * s[7]) - s[1] * (s[3] * s[8] - s[5] * s[6]) + s[2] * (s[3] * s[7] - s[4] * s[6])
        guard det != 0 else { return [Double](repeating: 0, count: 9) }
        let d = 1 / det
        return [
            (s[4] * s[8] - s[5] * s[7]) * d, (s[2] * s[7] - s[1] * s[8]) * d, (s[1] * s[5] - s[2] * s[4]) * d,
            (s[5] * s[6] - s[3] * s[8]) * d, (s[0] * s[8] - s[2] * s[6]) * d, (s[2] * s[3] - s[0] * s[5]) * d,
            (s[3] * s[7] - s[4] * s[6]) * d, (s[1] * s[6] - s[0] * s[7]) * d, (s[0] * s[4] - s[1] * s[3]) * d
        ]
    }

    /// Row `v`'s upright sample positions in 1/32 pixels, as warpPerspective's INTER_LINEAR map.
    func row(_ v: Int, xs: UnsafeMutablePointer<Int>, ys: UnsafeMutablePointer<Int>) {
        let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
        let y = Double(v)
        var x = 0
        while x < width {
            let xd = Double(x)
            let x0 = m0 * xd + m1 * y + m2, y0 = m3 * xd + m4 * y + m5, w0 = m6 * xd + m7 * y + m8
            let count = min(blockWidth, width - x)
            // Two pixels per step, one per lane: the same operations as OpenCV's scalar loop. The
            // Float32 box corners make M6 nonzero, so W, and the division, vary along the row.
            var x1 = 0
            while x1 < count {
                let t = SIMD2(Double(x1), Double(min(x1 + 1, count - 1)))
                let w = SIMD2(repeating: w0) + m6 * t
                let scale = (32 / w).replacing(with: 0, where: w .== 0)
                let px = Self.round((SIMD2(repeating: x0) + m0 * t) * scale)
                let py = Self.round((SIMD2(repeating: y0) + m3 * t) * scale)
                xs[x + x1] = px.0
                ys[x + x1] = py.0
                if x1 + 1 < count {
                    xs[x + x1 + 1] = px.1
                    ys[x + x1 + 1] = py.1
                }
                x1 += 2
            }
            x += blockWidth
        }
    }

    /// `saturate_cast<int>` after OpenCV's clamp `max(INT_MIN, min(INT_MAX, v))` (NaN becomes
    /// INT_MAX, as that order makes it), per lane: round half to even. Adding 1.5·2⁵² rounds to
    /// nearest even in the default rounding mode and leaves the result in the low 32 bits, read
    /// by reinterpreting the bits (a vector Double-to-Int conversion is a per-lane call).
    @inline(__always)
    static func round(_ v: SIMD2<Double>) -> (Int, Int) {
        let upper = v.replacing(with: 2_147_483_647, where: .!(v .< 2_147_483_647))
        let s = upper.replacing(with: -2_147_483_648, where: .!(-2_147_483_648 .< upper))
        let bits = unsafeBitCast(s + 6_755_399_441_055_744.0, to: SIMD2<Int64>.self)
        return (Int(Int32(truncatingIfNeeded: bits.x)), Int(Int32(truncatingIfNeeded: bits.y)))
    }
}
