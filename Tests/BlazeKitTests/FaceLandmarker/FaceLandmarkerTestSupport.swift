import Foundation
@testable import BlazeKit

enum FaceLandmarkerTestData {
    /// How far results may be from MediaPipe's: 3× the worst measured (docs/testing.md). Mesh:
    /// mean landmark distance as a fraction of the width; blendshape scores; matrix rotation and
    /// translation.
    struct Tolerances { let mesh: Double, blendshape: Double, degrees: Double, centimetres: Double }
    static let imageTolerances = Tolerances(mesh: 3.3e-5, blendshape: 3.8e-3, degrees: 0.037, centimetres: 0.023)
    /// VIDEO mode follows MediaPipe's tracked ROIs frame by frame, so small differences carry over.
    static let videoTolerances = (mesh: 3.3e-4, blendshape: 0.04)

    static func landmarker(_ configure: (inout FaceLandmarkerOptions) -> Void = { _ in }) throws -> FaceLandmarker {
        var options = FaceLandmarkerOptions()
        configure(&options)
        return try FaceLandmarker(options: options)
    }

    /// Mean 2-D distance in pixels between two 478-point faces (normalized coordinates).
    static func meanDistance(_ a: [NormalizedLandmark], _ b: [[Double]], width: Int, height: Int) -> Double {
        var total = 0.0
        for (p, q) in zip(a, b) {
            let dx = (Double(p.x) - q[0]) * Double(width), dy = (Double(p.y) - q[1]) * Double(height)
            total += (dx * dx + dy * dy).squareRoot()
        }
        return total / Double(max(1, min(a.count, b.count)))
    }

    /// Rotation angle (degrees) between the rotation parts of two row-major 4×4 pose matrices
    /// (each `s·R`, the scale divided out), and the distance of their translations (cm).
    static func poseDifference(_ a: [Float], _ b: [[Float]]) -> (degrees: Double, centimetres: Double) {
        func rotation(_ m: (Int, Int) -> Double) -> [[Double]] {
            let r = (0..<3).map { i in (0..<3).map { j in m(i, j) } }
            let det =
                r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
                + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0])
            let s = cbrt(det)
            return r.map { $0.map { $0 / s } }
        }
        let ra = rotation { Double(a[$0 * 4 + $1]) }, rb = rotation { Double(b[$0][$1]) }
        var trace = 0.0  // trace(Ra · Rbᵀ)
        for i in 0..<3 { for k in 0..<3 { trace += ra[i][k] * rb[i][k] } }
        let angle = acos(max(-1, min(1, (trace - 1) / 2))) * 180 / .pi
        let dt = (0..<3).map { Double(a[$0 * 4 + 3]) - Double(b[$0][3]) }
        return (angle, (dt[0] * dt[0] + dt[1] * dt[1] + dt[2] * dt[2]).squareRoot())
    }
}
