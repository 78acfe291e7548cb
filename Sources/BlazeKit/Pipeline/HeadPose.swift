import Foundation

/// MediaPipe's facial transformation matrix and ML Kit-style Euler angles (docs/pipelines.md §5.3).
struct FacePose: Sendable, Hashable {
    /// The 4×4 pose matrix, row-major: `[s·R | t]` mapping the canonical face model (cm,
    /// right-handed, y up) into the camera space (camera looks along −z), bottom row 0 0 0 1.
    /// MediaPipe's `facial_transformation_matrixes` entry.
    var matrix: [Float]
    /// Head Euler angles in degrees (BlazeKit's convention, see `HeadEulerAngles`).
    var eulerAngles: HeadEulerAngles
}

/// ML Kit's head Euler angles in degrees (docs/pipelines.md §5.3, BlazeKit's choice), from
/// `R = Rz(roll)·Ry(yaw)·Rx(pitch)` of the pose rotation.
struct HeadEulerAngles: Sendable, Hashable {
    /// −pitch: positive = the face looks up.
    var x: Float
    /// +yaw: positive = nose turned towards image +x (the camera's right).
    var y: Float
    /// +roll: positive = counter-clockwise on screen.
    var z: Float

    /// Decomposes the rotation part of a 4×4 row-major pose matrix (its scale removed by the
    /// length of column 0): `yaw = asin(−R20)`, `pitch = atan2(R21, R22)`, `roll = atan2(R10, R00)`.
    init(poseMatrix m: [Float]) {
        precondition(m.count == 16, "a pose matrix has 16 elements, got \(m.count)")
        let scale = (Double(m[0]) * Double(m[0]) + Double(m[4]) * Double(m[4]) + Double(m[8]) * Double(m[8])).squareRoot()
        func r(_ i: Int, _ j: Int) -> Double { Double(m[i * 4 + j]) / scale }
        let yaw = asin(max(-1, min(1, -r(2, 0))))
        let pitch = atan2(r(2, 1), r(2, 2))
        let roll = atan2(r(1, 0), r(0, 0))
        let degrees = 180 / Double.pi
        x = Float(-pitch * degrees)
        y = Float(yaw * degrees)
        z = Float(roll * degrees)
    }
}

/// The perspective camera of MediaPipe's geometry pipeline: vertical FOV 63°, near 1 (cm),
/// origin at the top-left corner.
private let verticalFieldOfViewDegrees = 63.0
private let nearPlane = 1.0

/// docs/pipelines.md §5.3: the facial transformation matrix from face mesh landmarks (MediaPipe's
/// `geometry_pipeline.cc`, screen-to-metric conversion with two Procrustes scale iterations),
/// computed in Double.
///
/// - Parameter landmarks: the projected mesh landmarks normalized to the W×H image (z as in S8);
///   only the first 468 are used, so both mesh versions work.
/// - Returns: nil for fewer than 468 landmarks, for a face whose landmarks lie within 1e-3 of
///   their mean (MediaPipe skips such faces), or where the solver fails.
func facePose(landmarks: [NormalizedLandmark], imageSize: ImageSize) -> FacePose? {
    guard landmarks.count >= 468, imageSize.width > 0, imageSize.height > 0 else { return nil }
    let mesh = landmarks.prefix(468)
    if isTooCompact(mesh) { return nil }

    let heightAtNear = 2 * nearPlane * tan(0.5 * verticalFieldOfViewDegrees * Double.pi / 180)
    let widthAtNear = Double(imageSize.width) * heightAtNear / Double(imageSize.height)
    let left = -0.5 * widthAtNear, bottom = -0.5 * heightAtNear
    // Screen coordinates at the near plane (y flipped: origin top-left).
    let screen = mesh.map { lm in
        SIMD3(Double(lm.x) * widthAtNear + left, (1 - Double(lm.y)) * heightAtNear + bottom, Double(lm.z) * widthAtNear)
    }
    let depthOffset = screen.reduce(0) { $0 + $1.z } / Double(screen.count)

    let source = canonicalFaceLandmarks.map { SIMD3($0.x, $0.y, $0.z) }
    let weights = canonicalFaceLandmarks.map(\.weight)
    func subset(_ points: [SIMD3<Double>]) -> [SIMD3<Double>] { canonicalFaceLandmarks.map { points[$0.index] } }
    func scale(of target: [SIMD3<Double>]) -> Double? {
        guard let solution = weightedOrthogonalProcrustes(source: source, target: subset(target), weights: weights) else { return nil }
        let c = solution.rotationAndScale.column(0)
        return (c * c).sum().squareRoot()
    }
    func unproject(_ scale: Double) -> [SIMD3<Double>] {
        screen.map { p in
            let z = (p.z - depthOffset + nearPlane) / scale
            return SIMD3(p.x * z / nearPlane, p.y * z / nearPlane, -z)
        }
    }

    guard let firstScale = scale(of: screen.map { SIMD3($0.x, $0.y, -$0.z) }),
        let secondScale = scale(of: unproject(firstScale)),
        let pose = weightedOrthogonalProcrustes(
            source: source, target: subset(unproject(firstScale * secondScale)),
            weights: weights)
    else { return nil }
    let sr = pose.rotationAndScale, t = pose.translation
    let matrix: [Float] = [
        sr[0, 0], sr[0, 1], sr[0, 2], t.x,
        sr[1, 0], sr[1, 1], sr[1, 2], t.y,
        sr[2, 0], sr[2, 1], sr[2, 2], t.z,
        0, 0, 0, 1
    ].map { Float($0) }
    return FacePose(matrix: matrix, eulerAngles: HeadEulerAngles(poseMatrix: matrix))
}

/// MediaPipe's `IsScreenLandmarkListTooCompact`: max distance of (x, y) from their mean ≤ 1e-3.
private func isTooCompact(_ landmarks: ArraySlice<NormalizedLandmark>) -> Bool {
    var meanX: Float = 0, meanY: Float = 0
    for lm in landmarks {
        meanX += lm.x
        meanY += lm.y
    }
    meanX /= Float(landmarks.count)
    meanY /= Float(landmarks.count)
    var maxSquared: Float = 0
    for lm in landmarks {
        let dx = lm.x - meanX, dy = lm.y - meanY
        maxSquared = max(maxSquared, dx * dx + dy * dy)
    }
    return maxSquared.squareRoot() <= 1e-3
}
