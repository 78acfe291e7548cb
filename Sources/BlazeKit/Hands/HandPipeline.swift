import BlazeEngine
import Foundation

/// The per-frame stages of MediaPipe Tasks' HandLandmarker graph (docs/pipelines.md §6), stateless:
/// palm detection → hand ROIs, and the landmark net on one ROI. Tracking lives in `HandTracker`.
struct HandPipeline: Sendable {
    let models: HandModels
    let numHands: Int
    let minDetectionConfidence: Float
    let minPresenceConfidence: Float
    let mirrored: Bool
    let palmRegionRotation: PalmRegionRotation
    let anchors: [SSDAnchor]

    /// §6.1: 192², keep aspect, BORDER_ZERO, [0, 1].
    static let palmCrop = ImageToTensorOptions(width: 192, height: 192, keepAspectRatio: true, borderMode: .zero, outputRange: 0...1)
    /// §6.4: 224², no letterbox (Tasks; the ROI is square in pixels anyway), BORDER_REPLICATE, [0, 1].
    static let landmarkCrop = ImageToTensorOptions(width: 224, height: 224, keepAspectRatio: false, borderMode: .replicate, outputRange: 0...1)
    /// Weighted NMS IoU threshold of the palm detector (§6.1).
    static let palmNMSThreshold: Float = 0.3

    init(models: HandModels, options: HandLandmarkerOptions) {
        self.models = models
        numHands = options.numHands
        minDetectionConfidence = options.minHandDetectionConfidence
        minPresenceConfidence = options.minHandPresenceConfidence
        mirrored = options.mirrored
        palmRegionRotation = options.palmRegionRotation
        anchors = SSDAnchorOptions.palm.anchors()
    }

    /// Palm detection (§6.1) on `region` (nil = the whole image) → hand ROIs (§6.2), the first
    /// `numHands` by descending palm score, in normalized upright image coordinates.
    func detectHandROIs(in image: VisionImage, region: NormalizedRect?, session: Session) throws -> [NormalizedRect] {
        let transform: ImageToTensorTransform
        do {
            transform = try image.toTensor(roi: region, options: Self.palmCrop, into: session.inputBuffers[0], workers: session.workers)
        } catch {
            throw HandLandmarkerError.invalidImage("\(error)", underlying: error as? BlazeError)
        }
        session.runInPlace()
        let decoder = DetectionDecoderOptions.palm.withMinScore(minDetectionConfidence)
        let raw: [Detection]
        do {
            raw = try decodeDetections(
                boxes: session.outputBuffers[models.palmBoxesOutput],
                scores: session.outputBuffers[models.palmScoresOutput],
                anchors: anchors, options: decoder)
        } catch {
            throw HandLandmarkerError.invalidModel("palm detector output: \(error)", underlying: error as? BlazeError)
        }
        let palms = nonMaxSuppression(raw, iouThreshold: Self.palmNMSThreshold, algorithm: .weighted)
            .prefix(numHands)
            .map { $0.projected(by: transform.projection) }
        let size = image.uprightSize
        return palms.map { handROI(fromPalm: $0, imageSize: size, rotation: palmRegionRotation) }
            .filter { !$0.isEmptySentinel && $0.width > 0 && $0.height > 0 && $0.xCenter.isFinite && $0.yCenter.isFinite }
    }

    /// The hands in `rois`, in order (nil where the presence test failed). Several hands with
    /// several threads run side by side, each on its own single-threaded session: in the pipeline that
    /// scales with the threads where one net over all of them did not (docs/tuning.md, "Hands
    /// side by side"). Either way the values are the same (the kernels give the same results at
    /// every thread count).
    func landmarks(in image: VisionImage, rois: [NormalizedRect], sessions: HandSessions) throws -> [DecodedHand?] {
        guard rois.count > 1, !sessions.handLandmarks.isEmpty else {
            return try rois.map { try landmarks(in: image, roi: $0, session: sessions.landmark) }
        }
        let job = HandLandmarksJob(pipeline: self, image: image, rois: rois, sessions: sessions.handLandmarks)
        sessions.workers.run(job, taskCount: sessions.handLandmarks.count)
        return try job.results()
    }

    /// The landmark net on `roi` (§6.4): the decoded hand, or nil when presence fails
    /// (`presence > minHandPresenceConfidence` keeps it).
    func landmarks(in image: VisionImage, roi: NormalizedRect, session: Session) throws -> DecodedHand? {
        do {
            try image.toTensor(roi: roi, options: Self.landmarkCrop, into: session.inputBuffers[0], workers: session.workers)
        } catch {
            throw HandLandmarkerError.invalidImage("\(error)", underlying: error as? BlazeError)
        }
        session.runInPlace()
        let outputs = session.outputBuffers.map { Array($0) }
        let hand: DecodedHand
        do {
            hand = try decodeHandLandmarks(outputs: outputs, roi: roi, convention: .tasks)
        } catch {
            throw HandLandmarkerError.invalidModel("hand landmark output: \(error)", underlying: error as? BlazeError)
        }
        return passesPresenceThreshold(hand.presence, threshold: minPresenceConfidence) ? hand : nil
    }

    /// The result category of a hand: Tasks naming (§6.5), swapped in name and index (not score)
    /// for `mirrored` selfie buffers.
    func category(_ hand: DecodedHand) -> ResultCategory {
        var c = hand.handedness
        if mirrored {
            c.index = 1 - c.index
            c.categoryName =
                HandednessConvention.tasks.labels.0 == c.categoryName
                ? HandednessConvention.tasks.labels.1 : HandednessConvention.tasks.labels.0
        }
        return ResultCategory(index: c.index, score: c.score, categoryName: c.categoryName, displayName: c.categoryName)
    }
}

/// Hands side by side: task `t` runs the hands `t`, `t + sessions.count`, … on `sessions[t]`, so
/// which hand uses which session does not depend on which thread runs the task.
private final class HandLandmarksJob: ParallelJob {
    let pipeline: HandPipeline
    let image: VisionImage
    let rois: [NormalizedRect]
    let sessions: [Session]
    /// One slot per ROI, each written by one task.
    private let outcomes: UnsafeMutableBufferPointer<Result<DecodedHand?, any Error>?>

    init(pipeline: HandPipeline, image: VisionImage, rois: [NormalizedRect], sessions: [Session]) {
        self.pipeline = pipeline
        self.image = image
        self.rois = rois
        self.sessions = sessions
        outcomes = .allocate(capacity: rois.count)
        outcomes.initialize(repeating: nil)
    }

    deinit {
        outcomes.deinitialize()
        outcomes.deallocate()
    }

    func runTask(_ t: Int) {
        for i in stride(from: t, to: rois.count, by: sessions.count) {
            outcomes[i] = Result { try pipeline.landmarks(in: image, roi: rois[i], session: sessions[t]) }
        }
    }

    /// The hands in ROI order; the first ROI's error if any failed.
    func results() throws -> [DecodedHand?] {
        try outcomes.map { try $0!.get() }
    }
}

/// One hand found in a frame, before it becomes part of a result.
struct FoundHand {
    var hand: DecodedHand
    var trackingID: Int?
}

extension NormalizedRect {
    /// True when the point (normalized upright coordinates) lies inside this (rotated) rect.
    func contains(x: Float, y: Float, imageSize: ImageSize) -> Bool {
        let w = Float(imageSize.width), h = Float(imageSize.height)
        let dx = (x - xCenter) * w, dy = (y - yCenter) * h
        let c = cos(rotation), s = sin(rotation)
        let u = c * dx + s * dy, v = -s * dx + c * dy
        return abs(u) <= width * w / 2 && abs(v) <= height * h / 2
    }
}
