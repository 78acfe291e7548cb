/// The option checks every Tasks-style API makes (MediaPipe's rules), each throwing the
/// `TasksError` case MediaPipe's tasks report.
enum TaskOptionChecks {
    /// Each named confidence or threshold must be in [0, 1] (NaN is not).
    static func confidences(_ values: KeyValuePairs<String, Float>) throws {
        for (name, value) in values where !(value >= 0 && value <= 1) {
            throw TasksError.invalidConfidence(name: name, value: value)
        }
    }

    /// `numThreads`, when set, must be at least 1.
    static func threads(_ numThreads: Int?) throws {
        if let threads = numThreads, threads < 1 {
            throw TasksError.invalidOption("numThreads must be at least 1, got \(threads)")
        }
    }

    /// A live-stream delegate (the options' property `option`) exactly in live stream; without one
    /// only where the caller takes results another way (`allowsMissing`: `liveStream(options:)`).
    static func delegate(present: Bool, option: String, runningMode: RunningMode, allowsMissing: Bool) throws {
        switch runningMode {
        case .liveStream:
            if !present && !allowsMissing { throw TasksError.missingLiveStreamDelegate(option: option) }
        case .image, .video:
            if present { throw TasksError.unexpectedLiveStreamDelegate(option: option, runningMode: runningMode) }
        }
    }
}
