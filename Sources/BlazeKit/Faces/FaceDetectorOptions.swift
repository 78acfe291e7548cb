import BlazeEngine

/// Speed/accuracy trade-off of the face detector (ML Kit's `FaceDetectorPerformanceMode`).
public enum FaceDetectorPerformanceMode: String, Sendable, Hashable, CaseIterable {
    /// BlazeFace short range (128² input), score ≥ 0.5 — faces within ~2 m of the camera.
    case fast
    /// BlazeFace full range, sparse (192² input), score ≥ 0.6 — also small, distant faces.
    case accurate
}

/// Whether faces carry ML Kit's 10 landmarks (ML Kit's `FaceDetectorLandmarkMode`).
public enum FaceDetectorLandmarkMode: String, Sendable, Hashable, CaseIterable {
    case none
    case all
}

/// Whether faces carry ML Kit's 15 contours and the 478-point mesh (ML Kit's
/// `FaceDetectorContourMode`).
public enum FaceDetectorContourMode: String, Sendable, Hashable, CaseIterable {
    case none
    case all
}

/// Whether faces carry the smiling / eyes-open probabilities (ML Kit's
/// `FaceDetectorClassificationMode`).
public enum FaceDetectorClassificationMode: String, Sendable, Hashable, CaseIterable {
    case none
    case all
}

/// Options of a `FaceDetector`, in the shape of ML Kit's `FaceDetectorOptions` but as a value type
/// (`var options = FaceDetectorOptions()`); the detector keeps its own copy.
///
/// Which nets a detector runs follows from the options: the BlazeFace net of `performanceMode`
/// always; the 478-point mesh net when landmarks, contours or classification are on; the
/// blendshape net only for classification.
public struct FaceDetectorOptions: Sendable, Hashable {
    /// `.fast` (default) or `.accurate`.
    public var performanceMode: FaceDetectorPerformanceMode = .fast
    /// `.none` (default) or `.all`.
    public var landmarkMode: FaceDetectorLandmarkMode = .none
    /// `.none` (default) or `.all`. Unlike ML Kit, *every* returned face gets contours.
    public var contourMode: FaceDetectorContourMode = .none
    /// `.none` (default) or `.all`.
    public var classificationMode: FaceDetectorClassificationMode = .none
    /// Smallest face to return, as the face box width divided by the image width, in [0, 1];
    /// 0 returns every face. Default 0.1, as ML Kit.
    public var minFaceSize: Double = 0.1
    /// Give faces `trackingID`s that persist across consecutive calls (a video stream).
    public var isTrackingEnabled: Bool = false
    /// Threads one inference may use, the calling thread included; nil (default) = every core.
    /// Results do not depend on it.
    public var threadCount: Int?

    public init() {}

    /// True when the options need the 478-point mesh (landmarks, contours or classification).
    public var needsMesh: Bool { landmarkMode == .all || contourMode == .all || classificationMode == .all }

    /// True when the options need the blendshape net (classification).
    public var needsBlendshapes: Bool { classificationMode == .all }

    /// Throws `BlazeError(.invalidInput)` for a `minFaceSize` outside [0, 1] or NaN, or a
    /// `threadCount` below 1.
    public func validate() throws {
        guard minFaceSize >= 0, minFaceSize <= 1 else {  // also false for NaN
            throw BlazeError(.invalidInput, "minFaceSize must be in [0, 1], got \(minFaceSize)", context: "FaceDetectorOptions")
        }
        if let threadCount, threadCount < 1 {
            throw BlazeError(.invalidInput, "threadCount must be at least 1, got \(threadCount)", context: "FaceDetectorOptions")
        }
    }
}
