import Foundation

/// Which keypoints define a rect's rotation and the angle they should have (docs/pipelines.md S6):
/// `rotation = normalizeRadians(targetAngle − atan2(−(y1 − y0), x1 − x0))` with the keypoints in
/// pixels.
struct RotationVector: Sendable, Hashable {
    var startKeypoint: Int
    var endKeypoint: Int
    /// Radians (Float32, as MediaPipe stores `M_PI·degrees/180`: rounded to nearest).
    var targetAngle: Float

    /// BlazeFace: subject's right eye (0) → left eye (1), target 0.
    static let faceDetection = RotationVector(startKeypoint: 0, endKeypoint: 1, targetAngle: 0)
    /// Palm: wrist centre (0) → middle-finger MCP (2), target π/2 — rounded to *nearest*
    /// (1.57079637) like the C++ `M_PI·90/180`, not Swift's `Float.pi/2` (rounded toward zero,
    /// one ulp less).
    static let palm = RotationVector(startKeypoint: 0, endKeypoint: 2, targetAngle: Float(Double.pi / 2))
    /// Palm as MediaPipe Tasks computes it: `set_rotation_vector_target_angle(90)` on a field that
    /// takes radians (hand_detector_graph.cc), so the region turns 90 − 28.5π ≈ 0.4646 rad (26.6°)
    /// further than `palm` (docs/pipelines.md §6.2).
    static let palmTasks = RotationVector(startKeypoint: 0, endKeypoint: 2, targetAngle: 90)
    /// Face mesh landmarks (through `landmarksToDetection`): 33 → 263, target 0.
    static let faceLandmarks = RotationVector(startKeypoint: 33, endKeypoint: 263, targetAngle: 0)

    /// The rotation for keypoints `start`/`end` (normalized) on a W×H image.
    func rotation(start: Detection.Keypoint, end: Detection.Keypoint, imageSize: ImageSize) -> Float {
        let w = Float(imageSize.width), h = Float(imageSize.height)
        let x0 = start.x * w, y0 = start.y * h
        let x1 = end.x * w, y1 = end.y * h
        return normalizeRadians(targetAngle - atan2(-(y1 - y0), x1 - x0))
    }
}

extension NormalizedRect {
    /// docs/pipelines.md S6 (`DetectionsToRectsCalculator`): the detection's box as a rect
    /// (`xc = xmin + width/2`, …), rotated per `rotation` (nil: rotation 0). The image size is
    /// needed because the angle is measured in pixels.
    ///
    /// - Precondition: the detection has the keypoints `rotation` names.
    init(detection: Detection, imageSize: ImageSize, rotation: RotationVector?) {
        let box = detection.box
        var angle: Float = 0
        if let rotation {
            precondition(
                max(rotation.startKeypoint, rotation.endKeypoint) < detection.keypoints.count,
                "rotation keypoints \(rotation.startKeypoint)→\(rotation.endKeypoint) missing (\(detection.keypoints.count) keypoints)")
            angle = rotation.rotation(
                start: detection.keypoints[rotation.startKeypoint],
                end: detection.keypoints[rotation.endKeypoint],
                imageSize: imageSize)
        }
        self.init(
            xCenter: box.xmin + box.width / 2, yCenter: box.ymin + box.height / 2,
            width: box.width, height: box.height, rotation: angle)
    }

    /// The all-zero rect the Tasks palm graph emits for "no palms" (docs/pipelines.md §6.3); equal
    /// to MediaPipe's no-tensor sentinel.
    static let allZero = NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0, rotation: 0)
}
