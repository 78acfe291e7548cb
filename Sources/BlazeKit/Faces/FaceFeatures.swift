/// ML Kit's face landmark types. "Left"/"right" are the subject's: `.leftEye` is on the image
/// right of a non-mirrored photo. Raw values are the `blaze faces --json` names.
public enum FaceLandmarkType: String, Sendable, Hashable, CaseIterable {
    case leftEye, rightEye, leftEar, rightEar, leftCheek, rightCheek, noseBase, mouthLeft, mouthRight, mouthBottom
}

/// One ML Kit landmark: its type and position in upright-image pixels.
public struct FaceLandmark: Sendable, Hashable {
    public var type: FaceLandmarkType
    public var position: VisionPoint

    public init(type: FaceLandmarkType, position: VisionPoint) {
        self.type = type
        self.position = position
    }
}

/// ML Kit's 15 face contour types (133 points in all), in the order of docs/pipelines.md §5.2.
/// "Left"/"right" are the subject's. Raw values are the `blaze faces --json` names.
public enum FaceContourType: String, Sendable, Hashable, CaseIterable {
    case face, leftEyebrowTop, leftEyebrowBottom, rightEyebrowTop, rightEyebrowBottom, leftEye, rightEye,
        upperLipTop, upperLipBottom, lowerLipTop, lowerLipBottom, noseBridge, noseBottom, leftCheek, rightCheek
}

/// One ML Kit contour: its type and points in upright-image pixels, in §5.2 order.
public struct FaceContour: Sendable, Hashable {
    public var type: FaceContourType
    public var points: [VisionPoint]

    public init(type: FaceContourType, points: [VisionPoint]) {
        self.type = type
        self.points = points
    }
}

/// One of the 6 BlazeFace keypoints of a face, in upright-image pixels.
public struct FaceKeypointPosition: Sendable, Hashable {
    public var type: FaceKeypoint
    public var position: VisionPoint

    public init(type: FaceKeypoint, position: VisionPoint) {
        self.type = type
        self.position = position
    }
}

extension FaceKeypoint {
    /// The `blaze faces --json` name: `rightEye`, `leftEye`, `noseTip`, `mouthCenter`,
    /// `rightEarTragion`, `leftEarTragion`.
    public var name: String {
        switch self {
        case .rightEye: "rightEye"
        case .leftEye: "leftEye"
        case .noseTip: "noseTip"
        case .mouthCenter: "mouthCenter"
        case .rightEarTragion: "rightEarTragion"
        case .leftEarTragion: "leftEarTragion"
        }
    }
}

/// BlazeFace keypoint indices (docs/pipelines.md §3). "Right"/"left" are the *subject's* sides: the
/// right eye is on the image left of a non-mirrored photo.
public enum FaceKeypoint: Int, Sendable, CaseIterable {
    case rightEye = 0, leftEye, noseTip, mouthCenter, rightEarTragion, leftEarTragion
}
