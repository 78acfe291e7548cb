/// One detector result (MediaPipe `Detection` with a `RELATIVE_BOUNDING_BOX`, docs/pipelines.md §1.1).
///
/// Coordinates are normalized: by the tensor size straight out of S3 and S4, by the image size
/// after S5. They are never clamped and may fall slightly outside [0, 1]. The label is always 0
/// for the detectors used here and is not stored.
public struct Detection: Sendable, Hashable {
    /// A normalized keypoint `(x, y)`.
    public struct Keypoint: Sendable, Hashable {
        public var x: Float
        public var y: Float

        public init(x: Float, y: Float) {
            self.x = x
            self.y = y
        }
    }

    /// An axis-aligned normalized box: corner `(xmin, ymin)` and size. MediaPipe stores the box
    /// this way, so `xmax` is the Float32 sum `xmin + width`.
    public struct BoundingBox: Sendable, Hashable {
        public var xmin: Float
        public var ymin: Float
        public var width: Float
        public var height: Float

        public init(xmin: Float, ymin: Float, width: Float, height: Float) {
            self.xmin = xmin
            self.ymin = ymin
            self.width = width
            self.height = height
        }

        public var xmax: Float { xmin + width }
        public var ymax: Float { ymin + height }
    }

    /// Probability in [0, 1] (sigmoid of the net's logit).
    public var score: Float
    public var box: BoundingBox
    /// Model-specific keypoints in a fixed order (BlazeFace: 6, palm: 7; see `FaceKeypoint`,
    /// `PalmKeypoint`).
    public var keypoints: [Keypoint]

    public init(score: Float, box: BoundingBox, keypoints: [Keypoint]) {
        self.score = score
        self.box = box
        self.keypoints = keypoints
    }
}

/// BlazeFace keypoint indices (docs/pipelines.md §3). "Right"/"left" are the *subject's* sides: the
/// right eye is on the image left of a non-mirrored photo.
public enum FaceKeypoint: Int, Sendable, CaseIterable {
    case rightEye = 0, leftEye, noseTip, mouthCenter, rightEarTragion, leftEarTragion
}

/// Palm detector keypoint indices (docs/pipelines.md §6.1).
public enum PalmKeypoint: Int, Sendable, CaseIterable {
    case wristCenter = 0, indexMCP, middleMCP, ringMCP, pinkyMCP, thumbCMC, thumbMCP
}
