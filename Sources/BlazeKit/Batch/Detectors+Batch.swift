extension FaceDetector {
    /// Detects faces in every input of `inputs` on `batch.jobs` threads and calls `body` with each
    /// input and its faces (or its error) in input order. `image` makes an input's picture (a
    /// file decoder, say) and runs in the workers too. Create the detector with
    /// `threadCount = 1` so that each worker's inference stays on its own core.
    ///
    /// A detector with `isTrackingEnabled` runs the inputs one by one on the calling thread:
    /// tracking IDs depend on the order of the frames.
    public func forEachResult<Inputs: Sequence>(
        in inputs: Inputs,
        batch: ParallelBatch? = nil,
        image: @escaping @Sendable (Inputs.Element) throws -> VisionImage,
        body: (Inputs.Element, Result<[Face], any Error>) throws -> Void
    ) throws where Inputs.Element: Sendable {
        let runner = options.isTrackingEnabled ? try ParallelBatch(jobs: 1) : try batch ?? ParallelBatch()
        try runner.forEach(inputs, transform: { input in try self.results(in: image(input)) }, deliver: body)
    }
}

extension HandLandmarker {
    /// Runs `detect(image:)` on every input of `inputs` on `batch.jobs` threads and calls `body`
    /// with each input and its result (or its error) in input order; `image` runs in the workers.
    /// For `.image` running mode (each video or live-stream call needs the previous one's
    /// timestamp). Create the landmarker with `numThreads = 1` for one image per core.
    public func forEachResult<Inputs: Sequence>(
        in inputs: Inputs,
        batch: ParallelBatch? = nil,
        image: @escaping @Sendable (Inputs.Element) throws -> VisionImage,
        body: (Inputs.Element, Result<HandLandmarkerResult, any Error>) throws -> Void
    ) throws where Inputs.Element: Sendable {
        try (batch ?? ParallelBatch()).forEach(inputs, transform: { input in try self.detect(image: image(input)) }, deliver: body)
    }
}
