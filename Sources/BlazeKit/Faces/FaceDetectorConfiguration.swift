import BlazeEngine

/// The fixed numbers of the two BlazeFace variants (docs/pipelines.md §3) and of the mesh chain
/// (§4.1 Tasks, §7.1).
struct FaceDetectorConfiguration: Sendable {
    let mode: FaceDetectorPerformanceMode
    /// Square net input size in pixels.
    let inputSize: Int
    let anchors: [SSDAnchor]
    /// S3 decoding; the score threshold is the legacy graph's (short 0.5, full range 0.6).
    let decoder: DetectionDecoderOptions

    /// S4 IoU threshold of the returned faces (legacy face detection and the Tasks FaceDetector).
    static let resultNMSThreshold: Float = 0.3
    /// S4 IoU threshold inside the Tasks FaceLandmarker (graph default, never overridden).
    static let meshNMSThreshold: Float = 0.5
    /// Tasks `min_face_presence_confidence`: a mesh is kept iff sigmoid(logit) > this.
    static let meshPresenceThreshold: Float = 0.5
    /// Tasks `min_tracking_confidence`: IoU above which a face continues a tracked one (§5.4).
    static let trackingIoUThreshold: Float = 0.5

    init(_ mode: FaceDetectorPerformanceMode) {
        self.mode = mode
        switch mode {
        case .fast:
            inputSize = 128
            anchors = SSDAnchorOptions.faceShortRange.anchors()
            decoder = .faceShortRange
        case .accurate:
            inputSize = 192
            anchors = SSDAnchorOptions.faceFullRange.anchors()
            decoder = .faceFullRange
        }
    }

    var anchorCount: Int { anchors.count }

    /// S1 for the detector: the whole upright image, letterboxed, BORDER_ZERO, [−1, 1].
    var detectorCrop: ImageToTensorOptions {
        ImageToTensorOptions(width: inputSize, height: inputSize, keepAspectRatio: true, borderMode: .zero, outputRange: -1...1)
    }

    /// S1–S3: the detector net on `session` over the whole image; its decoded detections with score
    /// ≥ `minScore` (the decoder's own threshold when nil), in the crop's coordinates, and the crop's
    /// transform to project them back.
    func detect(in image: VisionImage, session: Session, minScore: Float? = nil) throws
        -> (detections: [Detection], transform: ImageToTensorTransform)
    {
        let transform = try image.toTensor(roi: nil, options: detectorCrop, into: session.inputBuffers[0], workers: session.workers)
        session.runInPlace()
        let outputs = session.outputBuffers
        let detections = try decodeDetections(
            boxes: outputs[0], scores: outputs[1], anchors: anchors, options: minScore.map(decoder.withMinScore) ?? decoder)
        return (detections, transform)
    }

    /// S1 for the mesh v2 net: 256², stretched (the ROI is square in pixels), BORDER_REPLICATE, [0, 1].
    static let meshCrop = ImageToTensorOptions(
        width: meshInputSize, height: meshInputSize, keepAspectRatio: false,
        borderMode: .replicate, outputRange: 0...1)
}
