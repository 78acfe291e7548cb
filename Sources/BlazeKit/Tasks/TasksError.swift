import Foundation

/// Everything BlazeKit's MediaPipe Tasks-style APIs throw, or hand to a live-stream delegate:
/// `HandLandmarker`, `FaceLandmarker` and `TasksFaceDetector` (as MediaPipe's tasks share one
/// error domain). Each error condition of MediaPipe's tasks is its own case. Engine errors behind
/// a failure are kept (`underlyingError`), not turned into text. `HandLandmarkerError`,
/// `FaceLandmarkerError` and `TasksFaceDetectorError` are this type under the task's name.
public enum TasksError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// `numHands` outside `1...HandLandmarkerOptions.maximumNumHands`.
    case invalidNumHands(Int)
    /// `numFaces` outside `1...FaceLandmarkerOptions.maximumNumFaces`.
    case invalidNumFaces(Int)
    /// A confidence or threshold option outside [0, 1] (or NaN); `name` is the option's name.
    case invalidConfidence(name: String, value: Float)
    /// Another option is invalid (message says which and why).
    case invalidOption(String)
    /// A `detect…` method called on a task made for another running mode.
    case runningModeMismatch(method: String, runningMode: RunningMode)
    /// `.liveStream` without a live-stream delegate; `option` names the options' delegate property.
    case missingLiveStreamDelegate(option: String)
    /// A live-stream delegate (`option`) given for `.image` or `.video` mode.
    case unexpectedLiveStreamDelegate(option: String, runningMode: RunningMode)
    /// Video / live-stream timestamps must strictly increase.
    case nonIncreasingTimestamp(previous: Int, received: Int)
    /// `modelAssetPath` names a MediaPipe `.task` or `.tflite` file: it must be converted with
    /// `blaze-model convert` first.
    case unconvertedModel(path: String)
    /// A model file or folder does not exist or cannot be read.
    case modelNotFound(String, underlying: BlazeError? = nil)
    /// A model file is corrupt or is not the net expected (wrong inputs or outputs).
    case invalidModel(String, underlying: BlazeError? = nil)
    /// The region of interest is empty, not finite, or has a non-positive size.
    case invalidRegionOfInterest(String)
    /// The image cannot be processed (e.g. its pixels cannot be sampled).
    case invalidImage(String, underlying: BlazeError? = nil)
    /// `method` was called after `close()`.
    case closed(method: String)

    public var description: String {
        switch self {
        case .invalidNumHands(let n):
            "numHands must be in 1…\(HandLandmarkerOptions.maximumNumHands), got \(n)"
        case .invalidNumFaces(let n):
            "numFaces must be in 1…\(FaceLandmarkerOptions.maximumNumFaces), got \(n)"
        case .invalidConfidence(let name, let value):
            "\(name) must be in [0, 1], got \(value)"
        case .invalidOption(let message):
            message
        case .runningModeMismatch(let method, let mode):
            "\(method) is not allowed in running mode \(mode.rawValue); "
                + "use \(TasksError.method(for: mode)) or create the task with another runningMode"
        case .missingLiveStreamDelegate(let option):
            "running mode liveStream needs a \(option) (or use liveStream(options:), an AsyncStream of the results); "
                + "the options hold the delegate weakly, so keep your own strong reference to it: a delegate created inline "
                + "in the assignment is already gone"
        case .unexpectedLiveStreamDelegate(let option, let mode):
            "a \(option) is only allowed in running mode liveStream, not \(mode.rawValue)"
        case .nonIncreasingTimestamp(let previous, let received):
            "timestamps must strictly increase: got \(received) ms after \(previous) ms"
        case .unconvertedModel(let path):
            "\(path) is a MediaPipe model file; convert it first with `blaze-model convert IN.task --output-dir DIR` "
                + "(or `blaze-model convert IN.tflite -o OUT.bkm`) and set modelAssetPath to the folder holding the .bkm files"
        case .modelNotFound(let message, _):
            message
        case .invalidModel(let message, _):
            message
        case .invalidRegionOfInterest(let message):
            "invalid region of interest: \(message)"
        case .invalidImage(let message, _):
            "invalid image: \(message)"
        case .closed(let method):
            "\(method) called after close(); create a new one"
        }
    }

    /// The message (`localizedDescription` shows it instead of Foundation's generic text).
    public var errorDescription: String? { description }

    /// The engine's error behind `.modelNotFound`, `.invalidModel` or `.invalidImage`, when the
    /// engine reported one: its `kind` (`.io`, `.corruptModel`, `.invalidInput`, …) says what
    /// failed, the message says where.
    public var underlyingError: BlazeError? {
        switch self {
        case .modelNotFound(_, let error), .invalidModel(_, let error), .invalidImage(_, let error): error
        default: nil
        }
    }

    static func method(for mode: RunningMode) -> String {
        switch mode {
        case .image: "detect(image:)"
        case .video: "detect(videoFrame:timestampInMilliseconds:)"
        case .liveStream: "detectAsync(image:timestampInMilliseconds:)"
        }
    }
}

/// What a `HandLandmarker` throws: `TasksError`.
public typealias HandLandmarkerError = TasksError
/// What a `FaceLandmarker` throws: `TasksError`.
public typealias FaceLandmarkerError = TasksError
/// What a `TasksFaceDetector` throws: `TasksError`.
public typealias TasksFaceDetectorError = TasksError
