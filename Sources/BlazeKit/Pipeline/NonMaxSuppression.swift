/// The two algorithms of MediaPipe's `NonMaxSuppressionCalculator` (docs/pipelines.md S4).
enum NonMaxSuppressionAlgorithm: Sendable, Hashable {
    /// "Blending": every kept detection is the score-weighted mean of the detections that
    /// overlap it (`IoU > threshold`, itself included). Used by all pipelines here.
    case weighted
    /// MediaPipe `DEFAULT`: greedy; keep a detection unless its IoU with an already kept one
    /// is `> threshold`.
    case plain
}

/// docs/pipelines.md S4: non-max suppression with IoU overlap, "overlapping" meaning `IoU > threshold`.
///
/// Detections are ordered by descending score first (a stable sort: exactly equal scores keep
/// their input order, which MediaPipe's `std::sort` leaves unspecified). The output is in
/// descending order of the seed scores; a weighted result keeps the seed's score.
/// `maxDetections` only applies to `.plain` (MediaPipe ignores it for WEIGHTED).
func nonMaxSuppression(
    _ detections: [Detection], iouThreshold: Float,
    algorithm: NonMaxSuppressionAlgorithm = .weighted,
    maxDetections: Int? = nil
) -> [Detection] {
    let sorted = detections.sorted { $0.score > $1.score }
    switch algorithm {
    case .weighted: return weightedNonMaxSuppression(sorted, iouThreshold: iouThreshold)
    case .plain: return plainNonMaxSuppression(sorted, iouThreshold: iouThreshold, maxDetections: maxDetections)
    }
}

private func plainNonMaxSuppression(_ sorted: [Detection], iouThreshold: Float, maxDetections: Int?) -> [Detection] {
    var kept: [Detection] = []
    let limit = maxDetections ?? sorted.count
    for detection in sorted {
        if kept.count >= limit { break }
        if !kept.contains(where: { $0.box.intersectionOverUnion(with: detection.box) > iouThreshold }) {
            kept.append(detection)
        }
    }
    return kept
}

private func weightedNonMaxSuppression(_ sorted: [Detection], iouThreshold: Float) -> [Detection] {
    var remaining = sorted
    var output: [Detection] = []
    while let top = remaining.first {
        var candidates: [Detection] = [], rest: [Detection] = []
        for d in remaining {
            if d.box.intersectionOverUnion(with: top.box) > iouThreshold { candidates.append(d) } else { rest.append(d) }
        }
        var merged = top
        if !candidates.isEmpty {
            // Float32 sums in candidate order, as the C++.
            var total: Float = 0, wxmin: Float = 0, wymin: Float = 0, wxmax: Float = 0, wymax: Float = 0
            var kx = [Float](repeating: 0, count: top.keypoints.count), ky = kx
            for c in candidates {
                let w = c.score
                total += w
                wxmin += c.box.xmin * w
                wymin += c.box.ymin * w
                wxmax += (c.box.xmin + c.box.width) * w
                wymax += (c.box.ymin + c.box.height) * w
                for k in 0..<min(kx.count, c.keypoints.count) {
                    kx[k] += c.keypoints[k].x * w
                    ky[k] += c.keypoints[k].y * w
                }
            }
            let xmin = wxmin / total, ymin = wymin / total
            merged.box = .init(xmin: xmin, ymin: ymin, width: wxmax / total - xmin, height: wymax / total - ymin)
            merged.keypoints = (0..<kx.count).map { Detection.Keypoint(x: kx[$0] / total, y: ky[$0] / total) }
        }
        output.append(merged)
        // A degenerate top (IoU with itself ≤ threshold) removes nothing: MediaPipe stops here.
        if rest.count == remaining.count { break }
        remaining = rest
    }
    return output
}
