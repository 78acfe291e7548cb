import Dispatch

extension FaceLandmarker {
    /// A live-stream landmarker whose results arrive as an `AsyncStream` instead of, or in
    /// addition to, a delegate. `options.runningMode` is set to `.liveStream`; a delegate in
    /// `options` also gets every result. The stream finishes after `close()` (once the frames
    /// accepted before it are delivered) or when the landmarker is released.
    ///
    /// ```swift
    /// let (landmarker, results) = try FaceLandmarker.liveStream(options: options)
    /// Task { for await frame in results { … frame.result … } }
    /// try landmarker.detectAsync(image: frame, timestampInMilliseconds: t)
    /// ```
    public static func liveStream(options: FaceLandmarkerOptions) throws
        -> (landmarker: FaceLandmarker, results: AsyncStream<FaceLandmarkerLiveStreamResult>)
    {
        try TaskCore.liveStream(options, FaceLandmarker.init(options:continuation:))
    }

    /// Live-stream mode: hands `image` to the landmarker and returns at once. The result goes to
    /// the delegate (and the `AsyncStream` of `liveStream(options:)`) on a private serial queue, in
    /// timestamp order. While a frame is being processed, a new frame is ignored and gets no
    /// callback.
    ///
    /// - Returns: true if the frame was accepted, false if it was dropped because the landmarker
    ///   was busy.
    /// - Throws: `FaceLandmarkerError.runningModeMismatch` outside `.liveStream` mode,
    ///   `.nonIncreasingTimestamp` (checked for dropped frames too) or `.closed`. Errors while
    ///   processing an accepted frame go to the delegate instead.
    @discardableResult
    public func detectAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> Bool {
        try core.submit(
            method: "detectAsync(image:timestampInMilliseconds:)", timestamp: timestamp,
            process: { [self] in try process(image, timestamp: timestamp, tracked: true) },
            notify: { [self] result, error in
                options.faceLandmarkerLiveStreamDelegate?.faceLandmarker(
                    self, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
    }
}
