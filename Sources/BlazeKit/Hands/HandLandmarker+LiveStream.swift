import Dispatch

extension HandLandmarker {
    /// A live-stream landmarker whose results arrive as an `AsyncStream` (for structured
    /// concurrency) instead of, or in addition to, a delegate. `options.runningMode` is set to
    /// `.liveStream`; a delegate in `options` also gets every result. The stream finishes after
    /// `close()` (once the frames accepted before it are delivered) or when the landmarker is
    /// released.
    ///
    /// ```swift
    /// let (landmarker, results) = try HandLandmarker.liveStream(options: options)
    /// Task { for await frame in results { … frame.result … } }
    /// try landmarker.detectAsync(image: frame, timestampInMilliseconds: t)
    /// ```
    public static func liveStream(options: HandLandmarkerOptions) throws
        -> (landmarker: HandLandmarker, results: AsyncStream<HandLandmarkerLiveStreamResult>)
    {
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
    ///   `.nonIncreasingTimestamp` (checked for dropped frames too), `.closed` after `close()`, or
    ///   a region error. Errors while processing an accepted frame go to the delegate instead.
    @discardableResult
    public func detectAsync(
        image: VisionImage, timestampInMilliseconds timestamp: Int,
        regionOfInterest: NormalizedRect? = nil
    ) throws -> Bool {
        try checkMode(.liveStream, method: "detectAsync(image:timestampInMilliseconds:)")
        try Self.validate(regionOfInterest)
        // Queued under `lock`, so a concurrent `close()` queues the end of the stream after it.
        return try lock.withLock {
            if closed { throw HandLandmarkerError.closed(method: "detectAsync(image:timestampInMilliseconds:)") }
            try acceptTimestamp(timestamp)
            if busy {
                stats.droppedFrames += 1
                return false
            }
            busy = true
            enqueueLiveStreamFrame(image, region: regionOfInterest, timestamp: timestamp)
            return true
        }
    }

    /// Processes one accepted live-stream frame on `processingQueue` and delivers its result.
    private func enqueueLiveStreamFrame(_ image: VisionImage, region regionOfInterest: NormalizedRect?, timestamp: Int) {
        processingQueue.async { [self] in
            beforeLiveStreamFrame?(timestamp)
            let outcome: Result<HandLandmarkerResult, HandLandmarkerError>
            do {
                outcome = .success(
                    try frameLock.withLock {
                        try processTracked(image, region: regionOfInterest, timestamp: timestamp)
                    })
            } catch let error as HandLandmarkerError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(.invalidImage("\(error)", underlying: error as? BlazeError))
            }
            // Free for the next frame before delivering, so a slow delegate does not drop frames;
            // the serial callback queue keeps the deliveries in order.
            lock.withLock { busy = false }
            callbackQueue.async { [self] in deliver(outcome, timestamp: timestamp) }
        }
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
