/// One detector result (MediaPipe `Detection` with a `RELATIVE_BOUNDING_BOX`, docs/pipelines.md §1.1).
///
/// Coordinates are normalized: by the tensor size straight out of S3 and S4, by the image size
/// after S5. They are never clamped and may fall slightly outside [0, 1]. The label is always 0
/// for the detectors used here and is not stored.
struct Detection: Sendable, Hashable {
    /// A normalized keypoint `(x, y)`.
    struct Keypoint: Sendable, Hashable {
        var x: Float
        var y: Float
    }

    /// An axis-aligned normalized box: corner `(xmin, ymin)` and size. MediaPipe stores the box
    /// this way, so `xmax` is the Float32 sum `xmin + width`.
    struct BoundingBox: Sendable, Hashable {
        var xmin: Float
        var ymin: Float
        var width: Float
        var height: Float

        var xmax: Float { xmin + width }
        var ymax: Float { ymin + height }
    }

    /// Probability in [0, 1] (sigmoid of the net's logit).
    var score: Float
    var box: BoundingBox
    /// Model-specific keypoints in a fixed order (BlazeFace: 6, palm: 7; see `FaceKeypoint`,
    /// `PalmKeypoint`).
    var keypoints: [Keypoint]
}

/// Palm detector keypoint indices (docs/pipelines.md §6.1).
enum PalmKeypoint: Int, Sendable, CaseIterable {
    case wristCenter = 0, indexMCP, middleMCP, ringMCP, pinkyMCP, thumbCMC, thumbMCP
}
