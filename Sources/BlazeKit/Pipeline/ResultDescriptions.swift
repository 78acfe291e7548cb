import Foundation

// One-line summaries for `print(result)`: counts and the few numbers worth a glance, never every
// landmark (the synthesised dump of a 3-face FaceLandmarkerResult is about 40,000 characters).

private func threeDecimals(_ value: Float) -> String { String(format: "%.3f", value) }

extension ResultCategory: CustomStringConvertible {
    /// `Left 0.982` (the name, or `#index` when the category has none, and the score).
    public var description: String { (categoryName ?? displayName ?? "#\(index)") + " " + threeDecimals(score) }
}

extension NormalizedLandmark: CustomStringConvertible {
    public var description: String {
        var text = String(format: "(%.4f, %.4f, %.4f)", x, y, z)
        if let visibility { text += " visibility " + threeDecimals(visibility) }
        if let presence { text += " presence " + threeDecimals(presence) }
        return text
    }
}

extension HandLandmarkerResult: CustomStringConvertible {
    /// `HandLandmarkerResult(t 40 ms, 2 hands: Left 0.982, Right 0.967)`.
    public var description: String {
        let hands = handedness.map { $0.first.map(\.description) ?? "?" }
        let what = landmarks.count == 1 ? "1 hand" : "\(landmarks.count) hands"
        return "HandLandmarkerResult(t \(timestampInMilliseconds) ms, \(what)" + (hands.isEmpty ? "" : ": " + hands.joined(separator: ", ")) + ")"
    }
}

extension Classifications: CustomStringConvertible {
    /// `Classifications(52 categories, top: jawOpen 0.613)`.
    public var description: String {
        guard let top = categories.max(by: { $0.score < $1.score }) else { return "Classifications(empty)" }
        return "Classifications(\(categories.count) categories, top: \(top))"
    }
}

extension FaceLandmarkerResult: CustomStringConvertible {
    /// `FaceLandmarkerResult(t 0 ms, 3 faces, 478 landmarks each, blendshapes, matrices, tracking IDs [1, 2, 3])`.
    public var description: String {
        var parts = ["t \(timestampInMilliseconds) ms", faceLandmarks.count == 1 ? "1 face" : "\(faceLandmarks.count) faces"]
        if let first = faceLandmarks.first { parts.append("\(first.count) landmarks each") }
        if !faceBlendshapes.isEmpty { parts.append("blendshapes") }
        if !facialTransformationMatrixes.isEmpty { parts.append("matrices") }
        if !trackingIDs.isEmpty { parts.append("tracking IDs \(trackingIDs)") }
        return "FaceLandmarkerResult(" + parts.joined(separator: ", ") + ")"
    }
}

extension FaceDetection: CustomStringConvertible {
    /// `FaceDetection(box …, score 0.951, 6 keypoints)`.
    public var description: String {
        let best = categories.map(\.score).max().map { ", score " + threeDecimals($0) } ?? ""
        return "FaceDetection(box \(boundingBox)\(best), \(keypoints.count) keypoints)"
    }
}

extension FaceDetectorResult: CustomStringConvertible {
    /// `FaceDetectorResult(t 0 ms, 2 detections)`.
    public var description: String {
        "FaceDetectorResult(t \(timestampInMilliseconds) ms, " + (detections.count == 1 ? "1 detection" : "\(detections.count) detections") + ")"
    }
}
