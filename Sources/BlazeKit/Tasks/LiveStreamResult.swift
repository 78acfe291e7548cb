/// One live-stream frame's outcome, as the `AsyncStream` of a task's `liveStream(options:)` yields
/// it (its delegate gets the same in its arguments). Each task names its own:
/// `HandLandmarkerLiveStreamResult`, `FaceLandmarkerLiveStreamResult`,
/// `GestureRecognizerLiveStreamResult`.
public struct LiveStreamResult<Value: Sendable, Failure: Error>: Sendable {
    public var timestampInMilliseconds: Int
    public var result: Result<Value, Failure>

    public init(timestampInMilliseconds: Int, result: Result<Value, Failure>) {
        self.timestampInMilliseconds = timestampInMilliseconds
        self.result = result
    }
}

/// What a task's live stream yields: one frame's outcome (`TaskCore`).
protocol LiveStreamOutput: Sendable {
    associatedtype Value: Sendable
    init(timestamp: Int, outcome: Result<Value, TasksError>)
    var outcome: Result<Value, TasksError> { get }
}

extension LiveStreamResult: LiveStreamOutput where Failure == TasksError {
    init(timestamp: Int, outcome: Result<Value, TasksError>) {
        self.init(timestampInMilliseconds: timestamp, result: outcome)
    }
    var outcome: Result<Value, TasksError> { result }
}

/// The Tasks face detector's stream yields its results as they are.
extension Result: LiveStreamOutput where Success == FaceDetectorResult, Failure == TasksError {
    init(timestamp: Int, outcome: Result<FaceDetectorResult, TasksError>) { self = outcome }
    var outcome: Result<FaceDetectorResult, TasksError> { self }
}
