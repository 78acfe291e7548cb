import Foundation

// MediaPipe's face-attention ops (mediapipe/util/tflite/operations, version 2 of each), written
// from their definitions in Float, with Double only where MediaPipe's C++ mixes in a double
// literal (so the roundings agree). They are tiny (a 4×4 matrix, tens of points, a 16×16 crop):
// the optimised plan runs these kernels too.

extension ReferenceKernels {
    /// LANDMARKS_TO_TRANSFORM_MATRIX: `[1, N, 3]` landmarks → `[1, 4, 4]` row-major matrix.
    public static func landmarksToTransformMatrix(
        _ p: LandmarksToTransformMatrixParams, input: TensorView,
        output: MutableTensorView
    ) {
        _ = planned(try p.outputShape(input.shape))
        let x = input.data
        func point(_ i: Int) -> (Float, Float) { (x[3 &* i], x[3 &* i &+ 1]) }
        let (lx, ly) = point(p.leftRotationIndex), (rx, ry) = point(p.rightRotationIndex)
        let rotation = p.targetRotationRadians - atan2f(ry - ly, rx - lx)

        // Bounding box of the subset in the frame rotated by `rotation` (MediaPipe's Mat3 · (x, y, 1)).
        let rotate = Mat.rotation3(rotation), unrotate = Mat.rotation3(-rotation)
        var lo = (Float.greatestFiniteMagnitude, Float.greatestFiniteMagnitude), hi = (-lo.0, -lo.1)
        for (k, i) in p.subset.enumerated() {
            let (px, py) = point(i)
            let r = Mat.apply3(rotate, (px, py, 1))
            if k == 0 { lo = (r.0, r.1); hi = lo; continue }
            if hi.0 < r.0 { hi.0 = r.0 }
            if hi.1 < r.1 { hi.1 = r.1 }
            if lo.0 > r.0 { lo.0 = r.0 }
            if lo.1 > r.1 { lo.1 = r.1 }
        }
        let cropWidth = hi.0 - lo.0, cropHeight = hi.1 - lo.1
        let centre = Mat.apply3(unrotate, ((lo.0 + hi.0) / 2, (lo.1 + hi.1) / 2, 1))

        var t = Mat.identity4
        t = Mat.multiply4(t, [1, 0, 0, centre.0, 0, 1, 0, centre.1, 0, 0, 1, 0, 0, 0, 0, 1])
        let c = cosf(-rotation), s = sinf(-rotation)
        t = Mat.multiply4(t, [c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        let scaleX = p.scaleX * cropWidth / Float(p.outputWidth), scaleY = p.scaleY * cropHeight / Float(p.outputHeight)
        t = Mat.multiply4(t, [scaleX, 0, 0, 0, 0, scaleY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        let shiftX = Float(-1.0 * (Double(p.outputWidth) / 2.0)), shiftY = Float(-1.0 * (Double(p.outputHeight) / 2.0))
        t = Mat.multiply4(t, [1, 0, 0, shiftX, 0, 1, 0, shiftY, 0, 0, 1, 0, 0, 0, 0, 1])
        for i in 0..<16 { output.data[i] = t[i] }
    }

    /// TRANSFORM_TENSOR_BILINEAR: output pixel (ox, oy) reads the input at the first two rows of
    /// the matrix applied to (ox, oy, 0, 1), shifted to pixel centres; bilinear between the four
    /// neighbours (missing ones read 0); a point outside `[0, W−1] × [0, H−1]` gives 0.
    public static func transformTensorBilinear(
        _ p: TransformTensorBilinearParams, input: TensorView, matrix: TensorView,
        output: MutableTensorView
    ) {
        _ = planned(try p.outputShape(input.shape, matrix: matrix.shape))
        let H = input.shape[1], W = input.shape[2], C = input.shape[3]
        let m = matrix.data, x = input.data, y = output.data
        var rowX = (m[0], m[1], m[2], m[3]), rowY = (m[4], m[5], m[6], m[7])
        // Centre correction T → S·T·A (shift by ±0.5), folded into the translation column.
        rowX.3 = Float(Double(rowX.3) + (Double(rowX.0) * 0.5 + Double(rowX.1) * 0.5 - 0.5))
        rowY.3 = Float(Double(rowY.3) + (Double(rowY.0) * 0.5 + Double(rowY.1) * 0.5 - 0.5))
        var out = 0
        for oy in 0..<p.outputHeight {
            for ox in 0..<p.outputWidth {
                let fx = Float(ox), fy = Float(oy)
                let tx = rowX.0 * fx + rowX.1 * fy + rowX.2 * 0 + rowX.3 * 1
                let ty = rowY.0 * fx + rowY.1 * fy + rowY.2 * 0 + rowY.3 * 1
                let outside = tx < 0 || tx > Float(W - 1) || ty < 0 || ty > Float(H - 1)
                if outside {
                    for _ in 0..<C { y[out] = 0; out &+= 1 }
                    continue
                }
                let x0 = Int(tx.rounded(.down)), y0 = Int(ty.rounded(.down))
                let right = tx - tx.rounded(.down), lower = ty - ty.rounded(.down)
                func read(_ h: Int, _ w: Int, _ c: Int) -> Float {
                    h < 0 || w < 0 || h >= H || w >= W ? 0 : x[(h &* W &+ w) &* C &+ c]
                }
                for c in 0..<C {
                    let q11 = read(y0, x0, c), q21 = read(y0, x0 + 1, c)
                    let q12 = read(y0 + 1, x0, c), q22 = read(y0 + 1, x0 + 1, c)
                    let upper = Float((1.0 - Double(right)) * Double(q11) + Double(right * q21))
                    let below = Float((1.0 - Double(right)) * Double(q12) + Double(right * q22))
                    y[out] = Float(Double(lower * below) + (1.0 - Double(lower)) * Double(upper))
                    out &+= 1
                }
            }
        }
    }

    /// TRANSFORM_LANDMARKS: each (x, y) becomes the first two rows of the matrix applied to
    /// (x, y, 0, 1); a third coordinate is copied.
    public static func transformLandmarks(input: TensorView, matrix: TensorView, output: MutableTensorView) {
        _ = planned(try TransformLandmarksShape.outputShape(input.shape, matrix: matrix.shape))
        let n = input.shape[1], d = input.shape[2]
        let m = matrix.data, x = input.data, y = output.data
        for i in 0..<n {
            let o = i &* d
            let px = x[o], py = x[o + 1]
            let tx = m[0] * px + m[1] * py + m[2] * 0 + m[3] * 1
            let ty = m[4] * px + m[5] * py + m[6] * 0 + m[7] * 1
            if d == 3 { y[o + 2] = x[o + 2] }
            y[o] = tx; y[o + 1] = ty
        }
    }
}

/// The small row-major matrix products of LANDMARKS_TO_TRANSFORM_MATRIX, summed from 0 in index
/// order as MediaPipe's Mat3 / Mat4 do.
private enum Mat {
    static let identity4: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    static func rotation3(_ r: Float) -> [Float] { [cosf(r), -sinf(r), 0, sinf(r), cosf(r), 0, 0, 0, 1] }

    static func apply3(_ m: [Float], _ v: (Float, Float, Float)) -> (Float, Float, Float) {
        let vec = [v.0, v.1, v.2]
        var out: [Float] = [0, 0, 0]
        for r in 0..<3 {
            var sum: Float = 0
            for k in 0..<3 { sum += m[r * 3 + k] * vec[k] }
            out[r] = sum
        }
        return (out[0], out[1], out[2])
    }

    static func multiply4(_ a: [Float], _ b: [Float]) -> [Float] {
        var out = [Float](repeating: 0, count: 16)
        for r in 0..<4 {
            for c in 0..<4 {
                var sum: Float = 0
                for k in 0..<4 { sum += a[r * 4 + k] * b[k * 4 + c] }
                out[r * 4 + c] = sum
            }
        }
        return out
    }
}
