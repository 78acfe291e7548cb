import Testing
@testable import BlazeEngine

/// MediaPipe's face-attention ops on inputs small enough to work out by hand.
@Suite struct ReferenceMediaPipeTests {
    typealias T = KernelTensor

    static func matrix(_ p: LandmarksToTransformMatrixParams, _ points: [(Float, Float)]) -> [Float] {
        let flat: [Float] = points.flatMap { [$0.0, $0.1, Float(0)] }
        return KernelTestKit.run([T([1, points.count, 3], flat)], out: [1, 4, 4]) { v, out in
            ReferenceKernels.landmarksToTransformMatrix(p, input: v[0], output: out)
        }
    }

    /// Points 0 (0, 0) and 1 (1, 0) set the rotation (already at the target 0); the subset's box
    /// is [0, 4] × [0, 2], centre (2, 1). With a 4×2 output and scale 1 the crop maps onto itself
    /// (identity); scale_x 2 doubles x about the centre: x' = 2(x − 2) + 2 = 2x − 2.
    @Test func landmarksToTransformMatrixAxisAligned() {
        let points: [(Float, Float)] = [(0, 0), (1, 0), (4, 2), (0, 2)]
        var p = LandmarksToTransformMatrixParams(
            leftRotationIndex: 0, rightRotationIndex: 1, targetRotationRadians: 0,
            outputHeight: 2, outputWidth: 4, scaleX: 1, scaleY: 1, subset: [0, 2, 3, 1])
        KernelTestKit.expectClose(Self.matrix(p, points), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], tolerance: 0)
        p.scaleX = 2
        KernelTestKit.expectClose(Self.matrix(p, points), [2, 0, 0, -2, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], tolerance: 0)
    }

    /// The rotation line points along +y (atan2 = π/2), so the subset is turned by −π/2: (2, 4)
    /// becomes (4, −2), a box 4 wide and 2 high. With a 4×2 output (scale 1) the matrix's
    /// upper-left block is the rotation back, [[0, −1], [1, 0]], and it maps the output centre
    /// (2, 1) to the box centre (1, 2) of the original points.
    @Test func landmarksToTransformMatrixRotated() {
        let points: [(Float, Float)] = [(0, 0), (0, 1), (0, 0), (2, 4)]
        let p = LandmarksToTransformMatrixParams(
            leftRotationIndex: 0, rightRotationIndex: 1, targetRotationRadians: 0,
            outputHeight: 2, outputWidth: 4, scaleX: 1, scaleY: 1, subset: [2, 3])
        let m = Self.matrix(p, points)
        KernelTestKit.expectClose([m[0], m[1], m[4], m[5]], [0, -1, 1, 0], tolerance: 1e-6)
        let cx = m[0] * 2 + m[1] * 1 + m[3], cy = m[4] * 2 + m[5] * 1 + m[7]
        KernelTestKit.expectClose([cx, cy], [1, 2], tolerance: 1e-5)
    }

    /// The identity matrix copies the top-left crop (the centre shifts cancel); halving the scale
    /// moves output pixel 0 to −0.25, outside the input, which reads 0.
    @Test func transformTensorBilinear() {
        let x = T.iota([1, 3, 4, 2])
        let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let r = KernelTestKit.run([x, T([1, 4, 4], identity)], out: [1, 2, 3, 2]) { v, out in
            ReferenceKernels.transformTensorBilinear(
                TransformTensorBilinearParams(outputHeight: 2, outputWidth: 3),
                input: v[0], matrix: v[1], output: out)
        }
        KernelTestKit.expectClose(r, [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13], tolerance: 0)
        // Half scale: output (ox, oy) samples (0.5·ox − 0.25, 0.5·oy − 0.25), so only (1, 1) lands inside.
        let half: [Float] = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let h = KernelTestKit.run([x, T([1, 4, 4], half)], out: [1, 2, 2, 2]) { v, out in
            ReferenceKernels.transformTensorBilinear(
                TransformTensorBilinearParams(outputHeight: 2, outputWidth: 2),
                input: v[0], matrix: v[1], output: out)
        }
        // Channel c at (0.25, 0.25): v(y, x) = 8y + 2x + c, bilinear is exact on a linear ramp: 2 + 0.5 + c.
        KernelTestKit.expectClose(h, [0, 0, 0, 0, 0, 0, 2.5, 3.5], tolerance: 1e-6)
    }

    @Test func transformLandmarks() {
        let m: [Float] = [2, 0, 0, 1, 0, -1, 0, 3, 9, 9, 9, 9, 9, 9, 9, 9]
        let r2 = KernelTestKit.run([T([1, 2, 2], [1, 2, 3, 4]), T([1, 4, 4], m)], out: [1, 2, 2]) { v, out in
            ReferenceKernels.transformLandmarks(input: v[0], matrix: v[1], output: out)
        }
        KernelTestKit.expectClose(r2, [3, 1, 7, -1], tolerance: 0)
        let r3 = KernelTestKit.run([T([1, 1, 3], [1, 2, 5]), T([1, 4, 4], m)], out: [1, 1, 3]) { v, out in
            ReferenceKernels.transformLandmarks(input: v[0], matrix: v[1], output: out)
        }
        KernelTestKit.expectClose(r3, [3, 1, 5], tolerance: 0)
    }
}
