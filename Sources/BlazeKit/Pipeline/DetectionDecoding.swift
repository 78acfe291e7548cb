import BlazeEngine
import Foundation

/// Options of MediaPipe's `TensorsToDetectionsCalculator` for the SSD detectors here
/// (docs/pipelines.md S3). Fixed for all three models and therefore not options: box layout
/// `x, y, w, h` (`reverse_output_order`), box offset 0, keypoints from coordinate 4 as `(x, y)`
/// pairs, sigmoid scores, no exponential on w/h, one class.
struct DetectionDecoderOptions: Sendable, Hashable {
    /// Floats per anchor in the box tensor (16 for BlazeFace, 18 for the palm detector).
    var coordinatesPerAnchor: Int
    var keypointCount: Int
    /// `x_scale = y_scale = w_scale = h_scale`: the tensor size in pixels.
    var scale: Float
    /// Keep a detection iff `score >= minScore` (docs/pipelines.md §1.2).
    var minScore: Float
    /// Logits are clamped to ±this before the sigmoid (`score_clipping_thresh`).
    var scoreClippingThreshold: Float = 100

    /// BlazeFace short range: 16 coordinates, 6 keypoints, S = 128, threshold 0.5.
    static let faceShortRange = DetectionDecoderOptions(
        coordinatesPerAnchor: 16, keypointCount: 6,
        scale: 128, minScore: 0.5)
    /// BlazeFace full range: 16 coordinates, 6 keypoints, S = 192, threshold **0.6** — the value
    /// the legacy graph really uses even when 0.5 is requested (docs/pipelines.md §3 note). Tasks
    /// passes `min_detection_confidence` (default 0.5) instead.
    static let faceFullRange = DetectionDecoderOptions(
        coordinatesPerAnchor: 16, keypointCount: 6,
        scale: 192, minScore: 0.6)
    /// Palm detector: 18 coordinates, 7 keypoints, S = 192, threshold 0.5.
    static let palm = DetectionDecoderOptions(
        coordinatesPerAnchor: 18, keypointCount: 7,
        scale: 192, minScore: 0.5)

    /// A copy with another score threshold (e.g. the user's `min_detection_confidence`).
    func withMinScore(_ minScore: Float) -> DetectionDecoderOptions {
        var copy = self
        copy.minScore = minScore
        return copy
    }
}

/// The sigmoid `1 / (1 + exp(−x))` in Float32 (docs/pipelines.md §1.2).
@inlinable
func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-x)) }

/// docs/pipelines.md S3: raw SSD outputs → detections in normalized *tensor* coordinates, in
/// ascending anchor order, dropping `score < minScore` and boxes with negative or NaN size.
///
/// - Parameters:
///   - boxes: the box tensor, `anchors.count × coordinatesPerAnchor` floats (tensor pixels).
///   - scores: the score tensor, `anchors.count` logits.
/// - Throws: `BlazeError(.shapeMismatch)` when the tensor sizes do not fit the anchors.
func decodeDetections(
    boxes: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>,
    anchors: [SSDAnchor], options: DetectionDecoderOptions
) throws -> [Detection] {
    let n = anchors.count, stride = options.coordinatesPerAnchor
    guard stride >= 4 + 2 * options.keypointCount else {
        throw BlazeError(.invalidInput, "\(options.keypointCount) keypoints need at least \(4 + 2 * options.keypointCount) coordinates per anchor, got \(stride)")
    }
    guard boxes.count == n * stride, scores.count == n else {
        throw BlazeError(.shapeMismatch, "expected \(n)×\(stride) box values and \(n) scores for \(n) anchors, got \(boxes.count) and \(scores.count)")
    }
    let s = options.scale, clip = options.scoreClippingThreshold
    var result: [Detection] = []
    for i in 0..<n {
        var logit = scores[i]
        logit = logit < -clip ? -clip : logit
        logit = logit > clip ? clip : logit
        let score = sigmoid(logit)
        if score < options.minScore { continue }
        let anchor = anchors[i], base = i * stride
        let xCenter = boxes[base] / s * anchor.width + anchor.xCenter
        let yCenter = boxes[base + 1] / s * anchor.height + anchor.yCenter
        let w = boxes[base + 2] / s * anchor.width
        let h = boxes[base + 3] / s * anchor.height
        let ymin = yCenter - h / 2, xmin = xCenter - w / 2
        let ymax = yCenter + h / 2, xmax = xCenter + w / 2
        let width = xmax - xmin, height = ymax - ymin
        guard width >= 0, height >= 0 else { continue }  // also drops NaN
        var keypoints: [Detection.Keypoint] = []
        keypoints.reserveCapacity(options.keypointCount)
        for k in 0..<options.keypointCount {
            let offset = base + 4 + 2 * k
            keypoints.append(
                Detection.Keypoint(
                    x: boxes[offset] / s * anchor.width + anchor.xCenter,
                    y: boxes[offset + 1] / s * anchor.height + anchor.yCenter))
        }
        result.append(
            Detection(
                score: score, box: .init(xmin: xmin, ymin: ymin, width: width, height: height),
                keypoints: keypoints))
    }
    return result
}

/// `decodeDetections(boxes:scores:anchors:options:)` on arrays (e.g. `Session.run` outputs).
func decodeDetections(
    boxes: [Float], scores: [Float], anchors: [SSDAnchor],
    options: DetectionDecoderOptions
) throws -> [Detection] {
    try boxes.withUnsafeBufferPointer { b in
        try scores.withUnsafeBufferPointer { s in
            try decodeDetections(boxes: b, scores: s, anchors: anchors, options: options)
        }
    }
}
