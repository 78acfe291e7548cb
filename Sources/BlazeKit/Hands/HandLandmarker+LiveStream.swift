import Dispatch

extension HandLandmarker {
    /// A live-stream landmarker whose results arrive as an `AsyncStream` (for structured
    /// concurrency) instead of, or in addition to, a delegate. `options.runningMode` is set to
    /// `.liveStream`; a delegate in `options` also gets every result. The stream finishes when the
    /// landmarker is released.
    ///
    /// ```swift
    /// let (landmarker, results) = try HandLandmarker.liveStream(options: options)
    /// Task { for await frame in results { … frame.result … } }
    /// try landmarker.detectAsync(image: frame, timestampInMilliseconds: t)
    /// ```
    public static func liveStream(options: HandLandmarkerOptions) throws
        -> (landmarker: HandLandmarker, results: AsyncStream<HandLandmarkerLiveStreamResult>) {
        var options = options
        options.runningMode = .liveStream
        let (stream, continuation) = AsyncStream<HandLandmarkerLiveStreamResult>.makeStream()
        do {
            return (try HandLandmarker(options: options, continuation: continuation), stream)
        } catch {
            continuation.finish()
            throw error
        }
    }

    /// Live-stream mode: hands `image` to the landmarker and returns at once. The result goes to
    /// the delegate (and the `AsyncStream` of `liveStream(options:)`) on a private serial queue, in
    /// timestamp order. While a frame is being processed, a new frame is ignored and gets no
    /// callback.
    ///
    /// - Returns: true if the frame was accepted, false if it was dropped because the landmarker
    ///   was busy.
    /// - Throws: `HandLandmarkerError.runningModeMismatch` outside `.liveStream` mode,
    ///   `.nonIncreasingTimestamp` (checked for dropped frames too), or a region error. Errors
    ///   while processing an accepted frame go to the delegate instead.
    @discardableResult
    public func detectAsync(image: VisionImage, timestampInMilliseconds timestamp: Int,
                            regionOfInterest: NormalizedRect? = nil) throws -> Bool {
        try checkMode(.liveStream, method: "detectAsync(image:timestampInMilliseconds:)")
        try Self.validate(regionOfInterest)
        let accepted: Bool = try lock.withLock {
            try acceptTimestamp(timestamp)
            if busy {
                stats.droppedFrames += 1
                return false
            }
            busy = true
            return true
        }
        guard accepted else { return false }
        processingQueue.async { [self] in
            beforeLiveStreamFrame?(timestamp)
            let outcome: Result<HandLandmarkerResult, HandLandmarkerError>
            do {
                outcome = .success(try frameLock.withLock {
                    try processTracked(image, region: regionOfInterest, timestamp: timestamp)
                })
            } catch let error as HandLandmarkerError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(.invalidImage("\(error)"))
            }
            // Free for the next frame before delivering, so a slow delegate does not drop frames;
            // the serial callback queue keeps the deliveries in order.
            lock.withLock { busy = false }
            callbackQueue.async { [self] in deliver(outcome, timestamp: timestamp) }
        }
        return true
    }

    func deliver(_ outcome: Result<HandLandmarkerResult, HandLandmarkerError>, timestamp: Int) {
        continuation?.yield(HandLandmarkerLiveStreamResult(timestampInMilliseconds: timestamp, result: outcome))
        guard let delegate = options.handLandmarkerLiveStreamDelegate else { return }
        switch outcome {
        case .success(let result):
            delegate.handLandmarker(self, didFinishDetection: result, timestampInMilliseconds: timestamp, error: nil)
        case .failure(let error):
            delegate.handLandmarker(self, didFinishDetection: nil, timestampInMilliseconds: timestamp, error: error)
        }
    }
}
