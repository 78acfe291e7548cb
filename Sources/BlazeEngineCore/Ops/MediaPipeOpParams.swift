/// MediaPipe's `Landmarks2TransformMatrix` (version 2): from `[1, N, 3]` landmarks, the `[1, 4, 4]`
/// matrix that maps an `outputHeight × outputWidth` crop back to landmark space. The crop is
/// centred on the bounding box of the `subset` landmarks after rotating them so the line from
/// landmark `leftRotationIndex` to `rightRotationIndex` lies at `targetRotationRadians`; its size
/// is that box scaled by `scaleX`, `scaleY`.
public struct LandmarksToTransformMatrixParams: Sendable, Equatable {
    public var leftRotationIndex: Int, rightRotationIndex: Int
    public var targetRotationRadians: Float
    public var outputHeight: Int, outputWidth: Int
    public var scaleX: Float, scaleY: Float
    /// Landmark indices whose rotated bounding box sets the crop (MediaPipe stores them as pairs).
    public var subset: [Int]

    public init(
        leftRotationIndex: Int, rightRotationIndex: Int, targetRotationRadians: Float,
        outputHeight: Int, outputWidth: Int, scaleX: Float, scaleY: Float, subset: [Int]
    ) {
        self.leftRotationIndex = leftRotationIndex; self.rightRotationIndex = rightRotationIndex
        self.targetRotationRadians = targetRotationRadians
        self.outputHeight = outputHeight; self.outputWidth = outputWidth
        self.scaleX = scaleX; self.scaleY = scaleY
        self.subset = subset
    }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        guard input.count == 3, input[0] == 1, input[2] == 3, input[1] >= 1 else {
            throw BlazeError(.shapeMismatch, "LANDMARKS_TO_TRANSFORM_MATRIX expects [1, N, 3] landmarks, got \(ShapeMath.describe(input))")
        }
        let n = input[1]
        for (what, i) in [("left rotation index", leftRotationIndex), ("right rotation index", rightRotationIndex)]
            + subset.map({ ("subset index", $0) }) where !(0..<n).contains(i)
        {
            throw BlazeError(.shapeMismatch, "LANDMARKS_TO_TRANSFORM_MATRIX \(what) \(i) is outside the \(n) landmarks")
        }
        guard !subset.isEmpty, outputHeight >= 1, outputWidth >= 1, scaleX > 0, scaleY > 0, scaleX.isFinite, scaleY.isFinite,
            targetRotationRadians.isFinite
        else {
            throw BlazeError(.shapeMismatch, "LANDMARKS_TO_TRANSFORM_MATRIX needs a subset, an output size ≥ 1 and positive finite scales")
        }
        return [1, 4, 4]
    }
}

/// MediaPipe's `TransformTensorBilinear` (version 2): samples `[1, H, W, C]` at the points a
/// `[1, 4, 4]` matrix maps each output pixel to (pixel centres, bilinear, 0 outside the input).
public struct TransformTensorBilinearParams: Sendable, Equatable {
    public var outputHeight: Int, outputWidth: Int

    public init(outputHeight: Int, outputWidth: Int) { self.outputHeight = outputHeight; self.outputWidth = outputWidth }

    public func outputShape(_ input: [Int], matrix: [Int]) throws -> [Int] {
        guard input.count == 4, input[0] == 1, matrix == [1, 4, 4] else {
            throw BlazeError(
                .shapeMismatch, "TRANSFORM_TENSOR_BILINEAR expects [1, H, W, C] and a [1, 4, 4] matrix, got \(ShapeMath.describe(input)) and \(ShapeMath.describe(matrix))")
        }
        guard (1...65536).contains(outputHeight), (1...65536).contains(outputWidth) else {
            throw BlazeError(.shapeMismatch, "TRANSFORM_TENSOR_BILINEAR output \(outputHeight)×\(outputWidth) is out of range")
        }
        return [1, outputHeight, outputWidth, input[3]]
    }
}

/// MediaPipe's `TransformLandmarks` (version 2): `[1, N, D]` landmarks (D 2 or 3) through the
/// first two rows of a `[1, 4, 4]` matrix; z, if present, is kept.
public enum TransformLandmarksShape {
    public static func outputShape(_ landmarks: [Int], matrix: [Int]) throws -> [Int] {
        guard landmarks.count == 3, landmarks[0] == 1, landmarks[2] == 2 || landmarks[2] == 3, matrix == [1, 4, 4] else {
            throw BlazeError(
                .shapeMismatch,
                "TRANSFORM_LANDMARKS expects [1, N, 2 or 3] landmarks and a [1, 4, 4] matrix, got \(ShapeMath.describe(landmarks)) and \(ShapeMath.describe(matrix))")
        }
        return landmarks
    }
}
