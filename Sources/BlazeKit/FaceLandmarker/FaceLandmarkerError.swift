import Foundation

/// Everything a `FaceLandmarker` throws (or hands to the live-stream delegate). Mirrors the error
/// conditions of MediaPipe Tasks' FaceLandmarker, each as its own case.
public enum FaceLandmarkerError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// `numFaces` outside `1...FaceLandmarkerOptions.maximumNumFaces`.
    case invalidNumFaces(Int)
    /// A confidence option outside [0, 1] (or NaN); `name` is the option's name.
    case invalidConfidence(name: String, value: Float)
    /// Another option is invalid (message says which and why).
    case invalidOption(String)
    /// A `detect…` method called on a landmarker made for another running mode.
    case runningModeMismatch(method: String, runningMode: RunningMode)
    /// `.liveStream` without a `faceLandmarkerLiveStreamDelegate`.
    case missingLiveStreamDelegate
    /// A live-stream delegate given for `.image` or `.video` mode.
    case unexpectedLiveStreamDelegate(runningMode: RunningMode)
    /// Video / live-stream timestamps must strictly increase.
    case nonIncreasingTimestamp(previous: Int, received: Int)
    /// `modelAssetPath` names a MediaPipe `.task` or `.tflite` file: convert it first.
    case unconvertedModel(path: String)
    /// A model file or folder does not exist or cannot be read.
    case modelNotFound(String, underlying: BlazeError? = nil)
    /// A model file is corrupt or is not the net expected (wrong inputs or outputs).
    case invalidModel(String, underlying: BlazeError? = nil)
    /// The image cannot be processed (e.g. its pixels cannot be sampled).
    case invalidImage(String, underlying: BlazeError? = nil)
    /// `method` was called after `close()`.
    case closed(method: String)

    public var description: String {
        switch self {
        case .invalidNumFaces(let n):
            "numFaces must be in 1…\(FaceLandmarkerOptions.maximumNumFaces), got \(n)"
        case .invalidConfidence(let name, let value):
            "\(name) must be in [0, 1], got \(value)"
        case .invalidOption(let message):
            message
        case .runningModeMismatch(let method, let mode):
            "\(method) is not allowed in running mode \(mode.rawValue); "
                + "use \(HandLandmarkerError.method(for: mode)) or create the landmarker with another runningMode"
        case .missingLiveStreamDelegate:
            "running mode liveStream needs a faceLandmarkerLiveStreamDelegate (or use FaceLandmarker.liveStream(options:)); "
                + "the options hold the delegate weakly, so keep your own strong reference to it: a delegate created inline "
                + "in the assignment is already gone"
        case .unexpectedLiveStreamDelegate(let mode):
            "a faceLandmarkerLiveStreamDelegate is only allowed in running mode liveStream, not \(mode.rawValue)"
        case .nonIncreasingTimestamp(let previous, let received):
            "timestamps must strictly increase: got \(received) ms after \(previous) ms"
        case .unconvertedModel(let path):
            "\(path) is a MediaPipe model file; convert it first with `blaze-model convert IN.task --output-dir DIR` "
                + "and set modelAssetPath to the folder holding the .bkm files"
        case .modelNotFound(let message, _):
            message
        case .invalidModel(let message, _):
            message
        case .invalidImage(let message, _):
            "invalid image: \(message)"
        case .closed(let method):
            "\(method) called after close(); create a new landmarker"
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
}
