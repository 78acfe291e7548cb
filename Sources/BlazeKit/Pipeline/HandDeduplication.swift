import Foundation

/// docs/pipelines.md S11, Tasks `HandLandmarksDeduplicationCalculator`: indices of the hands to keep,
/// in their original order.
///
/// Hand `i` is dropped when an already *retained* hand `j` has at least 10 of the 21 landmarks
/// within `0.2·max(baseline_i, baseline_j)` pixels of hand `i`'s, **and** the landmark bounding
/// boxes overlap with IoU > 0.2. The baseline is the largest side of the triangle wrist – index
/// MCP – pinky MCP, in pixels.
///
/// - Precondition: every hand has 21 landmarks.
func deduplicatedHandIndices(_ hands: [[NormalizedLandmark]], imageSize: ImageSize) -> [Int] {
    let w = imageSize.width, h = imageSize.height
    func distance(_ a: NormalizedLandmark, _ b: NormalizedLandmark) -> Float {
        // std::pow on floats promotes to double; sqrt in double, stored as float.
        let dx = Double((a.x - b.x) * Float(w)), dy = Double((a.y - b.y) * Float(h))
        return Float((dx * dx + dy * dy).squareRoot())
    }
    let baselines: [Float] = hands.map { lm in
        precondition(lm.count == 21, "hand landmarks: expected 21, got \(lm.count)")
        return max(max(distance(lm[0], lm[5]), distance(lm[5], lm[17])), distance(lm[17], lm[0]))
    }
    let bounds = hands.map(landmarkBounds)
    var retained: [Int] = []
    for i in hands.indices {
        let suppressed = retained.contains { j in
            let threshold = max(baselines[i], baselines[j]) * 0.2
            let matched = zip(hands[i], hands[j]).filter { distance($0, $1) < threshold }.count
            return matched >= 10 && boundsIoU(bounds[i], bounds[j]) > 0.2
        }
        if !suppressed { retained.append(i) }
    }
    return retained
}

private typealias Bounds = (left: Float, top: Float, right: Float, bottom: Float)

private func landmarkBounds(_ landmarks: [NormalizedLandmark]) -> Bounds {
    var b: Bounds = (.greatestFiniteMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, -.greatestFiniteMagnitude)
    for lm in landmarks {
        b.left = min(b.left, lm.x)
        b.top = min(b.top, lm.y)
        b.right = max(b.right, lm.x)
        b.bottom = max(b.bottom, lm.y)
    }
    return b
}

/// Tasks `CalculateIOU` (landmarks_utils): 0 if either area ≤ 0, intersection clamped at 0.
private func boundsIoU(_ a: Bounds, _ b: Bounds) -> Float {
    let areaA = (a.right - a.left) * (a.bottom - a.top)
    let areaB = (b.right - b.left) * (b.bottom - b.top)
    if areaA <= 0 || areaB <= 0 { return 0 }
    let iw = max(min(a.right, b.right) - max(a.left, b.left), 0)
    let ih = max(min(a.bottom, b.bottom) - max(a.top, b.top), 0)
    let intersection = ih * iw
    return intersection / (areaA + areaB - intersection)
}
