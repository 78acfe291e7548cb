import Foundation

/// One detected face (ML Kit's `Face`, plus BlazeFace's score and keypoints and the mesh).
///
/// All positions are in pixels of the **upright** image (after `VisionImage.orientation`);
/// "left"/"right" are the subject's. Optional results follow ML Kit's pattern: a value plus a
/// `has…` flag (the value is 0 when the flag is false); collections are empty (or nil for the
/// mesh) when not computed. Nothing is ever NaN or infinite.
///
/// Which fields are filled:
/// * always: `frame`, `score`, `keypoints` (and `headEulerAngleZ` unless the eye keypoints coincide);
/// * mesh ran for this face (landmarks, contours or classification on, and the mesh net's
///   presence test passed): `mesh`, `facialTransformationMatrix`, all three Euler angles from the
///   mesh, `landmarks` / `contours` when their mode is on;
/// * no mesh for this face: `headEulerAngleZ` from the eye line and `headEulerAngleY` estimated
///   from the keypoints (see `FaceDetector`; `isHeadEulerAngleYEstimated` is true), no
///   `headEulerAngleX`; `meshStatus` says whether the mesh was not requested, rejected or unmatched;
/// * classification on and mesh ran: the three probabilities and `blendshapes`;
/// * tracking on: `trackingID`.
public struct Face: Sendable, Hashable {
    /// Whether the face mesh (and so landmarks, contours, classification and the mesh-based
    /// Euler angles) was computed for this face, and if not, why.
    public enum MeshStatus: String, Sendable, Hashable {
        /// No mode that needs the mesh is on (`landmarkMode`, `contourMode`, `classificationMode`
        /// all `.none`).
        case notRequested
        /// The mesh ran and passed its presence test: the mesh-based fields are set.
        case computed
        /// The mesh ran, but its presence score was below the threshold (a profile, an occluded
        /// or a blurred face): the mesh-based fields are absent.
        case rejected
        /// The mesh's own detection pass found no box matching this face, so it did not run.
        case unmatched
    }

    /// The BlazeFace box in floating-point pixels (square in pixels).
    public internal(set) var frame: VisionRect
    /// The detector's confidence in [0, 1].
    public internal(set) var score: Float
    /// The 6 BlazeFace keypoints, in `FaceKeypoint` order.
    public internal(set) var keypoints: [FaceKeypointPosition]

    var eulerX: Double?
    var eulerY: Double?
    var eulerZ: Double?
    var smiling: Double?
    var leftEyeOpen: Double?
    var rightEyeOpen: Double?
    var tracking: Int?

    /// Whether the mesh-based fields are there (`.computed`) or why not.
    public internal(set) var meshStatus: MeshStatus = .notRequested
    /// True when `headEulerAngleY` is the rough estimate from the 6 keypoints (no mesh for this
    /// face): it follows the turn of the head but can be far off on strong turns (a profile the
    /// mesh puts at 59° was estimated at 1.5°). False when it comes from the mesh.
    public internal(set) var isHeadEulerAngleYEstimated = false

    /// ML Kit landmarks (with `landmarkMode == .all` and a mesh), in `FaceLandmarkType` order.
    public internal(set) var landmarks: [FaceLandmark] = []
    /// ML Kit contours (with `contourMode == .all` and a mesh), in `FaceContourType` order.
    public internal(set) var contours: [FaceContour] = []
    /// The 478 mesh points (MediaPipe FaceLandmarker, indices as in MediaPipe; 468–477 are the
    /// irises) when the mesh ran for this face; `z` in pixels, same scale as `x`.
    public internal(set) var mesh: [Vision3DPoint]?
    /// MediaPipe's facial transformation matrix (4×4 row-major, canonical face model in cm →
    /// camera space) when the mesh ran.
    public internal(set) var facialTransformationMatrix: [Float]?
    /// The 52 blendshape scores (MediaPipe names, index order) when classification ran.
    public internal(set) var blendshapes: [ClassificationCategory]?

    init(frame: VisionRect, score: Float, keypoints: [FaceKeypointPosition]) {
        self.frame = frame
        self.score = score
        self.keypoints = keypoints
    }

    /// Head rotation about the horizontal axis in degrees; positive = the face looks up.
    public var headEulerAngleX: Double { eulerX ?? 0 }
    public var hasHeadEulerAngleX: Bool { eulerX != nil }
    /// Head rotation about the vertical axis in degrees; positive = the nose turns towards the
    /// image's +x side (the camera's right).
    public var headEulerAngleY: Double { eulerY ?? 0 }
    public var hasHeadEulerAngleY: Bool { eulerY != nil }
    /// Head rotation in the image plane in degrees; positive = counter-clockwise on screen.
    public var headEulerAngleZ: Double { eulerZ ?? 0 }
    public var hasHeadEulerAngleZ: Bool { eulerZ != nil }

    /// Probability that the face is smiling, in [0, 1].
    public var smilingProbability: Double { smiling ?? 0 }
    public var hasSmilingProbability: Bool { smiling != nil }
    /// Probability that the subject's left eye (image right) is open, in [0, 1].
    public var leftEyeOpenProbability: Double { leftEyeOpen ?? 0 }
    public var hasLeftEyeOpenProbability: Bool { leftEyeOpen != nil }
    /// Probability that the subject's right eye (image left) is open, in [0, 1].
    public var rightEyeOpenProbability: Double { rightEyeOpen ?? 0 }
    public var hasRightEyeOpenProbability: Bool { rightEyeOpen != nil }

    /// The face's ID across the frames of a tracking detector (0 when tracking is off).
    public var trackingID: Int { tracking ?? 0 }
    public var hasTrackingID: Bool { tracking != nil }

    /// The landmark of `type`, if computed.
    public func landmark(ofType type: FaceLandmarkType) -> FaceLandmark? { landmarks.first { $0.type == type } }
    /// The contour of `type`, if computed.
    public func contour(ofType type: FaceContourType) -> FaceContour? { contours.first { $0.type == type } }
    /// The BlazeFace keypoint of `type`.
    public func keypoint(ofType type: FaceKeypoint) -> FaceKeypointPosition? { keypoints.first { $0.type == type } }
}

extension Face: CustomStringConvertible {
    /// One line: frame, score and what is set (`print(face)` used to dump every mesh point).
    public var description: String {
        var parts = ["frame \(frame)", "score " + String(format: "%.3f", score)]
        if let tracking { parts.append("trackingID \(tracking)") }
        if let eulerX, let eulerY, let eulerZ {
            parts.append("euler x/y/z " + String(format: "%.1f/%.1f/%.1f°", eulerX, eulerY, eulerZ))
        } else if let eulerY {
            parts.append("euler y " + String(format: "%.1f°", eulerY))
        }
        if !landmarks.isEmpty { parts.append("\(landmarks.count) landmarks") }
        if !contours.isEmpty { parts.append("\(contours.count) contours") }
        if let mesh { parts.append("mesh \(mesh.count) points") } else if meshStatus != .notRequested { parts.append("mesh \(meshStatus.rawValue)") }
        if isHeadEulerAngleYEstimated && eulerY != nil { parts.append("yaw estimated from keypoints") }
        if let smiling { parts.append("smiling " + String(format: "%.2f", smiling)) }
        if let leftEyeOpen, let rightEyeOpen { parts.append("eyes open " + String(format: "%.2f/%.2f", leftEyeOpen, rightEyeOpen)) }
        return "Face(" + parts.joined(separator: ", ") + ")"
    }
}
