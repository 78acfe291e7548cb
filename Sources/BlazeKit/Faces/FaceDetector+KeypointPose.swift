import Foundation

extension FaceDetector {
    /// Ratio of the nose tip's forward offset (relative to the eye centres) to half the eye
    /// distance on MediaPipe's canonical face model: eye centres (mean of mesh 33/133 and
    /// 263/362) at x = ±3.151 cm, z = 3.466 cm; nose tip (mesh 4) at z = 7.587 cm →
    /// (7.587 − 3.466) / 3.151.
    static let noseDepthToHalfEyeDistance = 1.308

    /// Head Euler angles from the 6 BlazeFace keypoints (pixels), used when no mesh ran for a
    /// face. ML Kit signs (docs/pipelines.md §5.3); no X (pitch) estimate.
    ///
    /// * Z (roll) = the angle of the eye line, right eye (keypoint 0) → left eye (1), positive
    ///   counter-clockwise on screen: `degrees(atan2(−Δy, Δx))` = −degrees(S6 rotation).
    /// * Y (yaw), orthographic model: with yaw θ the nose tip moves along the eye line by
    ///   `7.587·sin θ` and the eye midpoint by `3.466·sin θ`, while half the eye distance shrinks
    ///   to `3.151·cos θ`. So `t = ((nose − eye midpoint) · eye direction) / (eye distance / 2)`
    ///   = `1.308·tan θ`, and `Y = degrees(atan(t / 1.308))`; positive = nose towards image +x.
    ///
    /// BlazeFace keypoints are coarse: on the reference photos Z differs from the mesh-based
    /// angle by up to ~13° and Y by up to ~30°. Returns nil for coincident eye keypoints.
    static func keypointEulerAngles(_ keypoints: [VisionPoint]) -> (y: Double, z: Double)? {
        guard keypoints.count >= 3 else { return nil }
        let rightEye = keypoints[FaceKeypoint.rightEye.rawValue], leftEye = keypoints[FaceKeypoint.leftEye.rawValue]
        let nose = keypoints[FaceKeypoint.noseTip.rawValue]
        let dx = leftEye.x - rightEye.x, dy = leftEye.y - rightEye.y
        let distance = (dx * dx + dy * dy).squareRoot()
        guard distance > 0, distance.isFinite else { return nil }
        let z = atan2(-dy, dx) * 180 / Double.pi
        let midX = (leftEye.x + rightEye.x) / 2, midY = (leftEye.y + rightEye.y) / 2
        let along = ((nose.x - midX) * dx + (nose.y - midY) * dy) / distance
        let t = along / (distance / 2)
        let y = atan(t / noseDepthToHalfEyeDistance) * 180 / Double.pi
        guard y.isFinite, z.isFinite else { return nil }
        return (y, z)
    }
}
