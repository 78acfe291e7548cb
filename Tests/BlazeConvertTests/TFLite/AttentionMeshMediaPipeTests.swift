import BlazeTestSupport
import BlazeEngine
import Foundation
import Testing
@testable import BlazeConvert

/// face_landmark_with_attention (converted from the wheel file) against MediaPipe 0.10.21 itself:
/// its legacy FaceMesh (static, refine_landmarks) runs this model with the three custom ops in
/// MediaPipe's C++, so unlike UnbundledModelParityTests (LiteRT plus our NumPy custom ops) the
/// reference here does not come from our reading of those ops.
///
/// Fixtures (Fixtures/wheel/face_mesh_attention, made by Tools/parity/make_attention_mesh_fixture.py,
/// which documents every step): per photo MediaPipe's 478 landmarks and the ROI its graph used
/// (stream `face_rects_from_detections`), the 192×192 crop of that ROI cut with OpenCV as
/// MediaPipe's ImageToTensorCalculator does (uint8; tensor = v / 255), and MediaPipe's refinement
/// tables. This test runs our model on the crop, folds lips, eyes and irises into the mesh as
/// MediaPipe's LandmarksRefinementCalculator does, projects with the ROI and compares.
///
/// Measured by the script: LiteRT's face_landmark (v1) on the same crop is within 1.9e-5 % of the
/// width of MediaPipe's refine=False mesh, and LiteRT + our NumPy custom ops within 2.4e-5 % of
/// these 478 points (max), so crop and projection are MediaPipe's and the only gap left is float
/// rounding. Our converted model measured (mean / max xy distance, % of width; max |Δz|): sergey
/// 6.4e-6 / 2.5e-5, 1.0e-7; grace_hopper 4.3e-6 / 2.1e-5, 4.5e-8 — as close as the NumPy-op
/// reference. Bound: mean ≤ 1e-4 %, max ≤ 1e-3 % of the width (≤ 0.006 px in these ≤ 600-px-wide
/// photos), |Δz| ≤ 1e-5: room for kernel-order rounding across CPUs, yet far below any op error
/// (one crop pixel is 0.30–0.44 % of the width here).
@Suite("face_landmark_with_attention against MediaPipe")
struct AttentionMeshMediaPipeTests {
    struct Refinement: Decodable {
        let lips, left_eye, right_eye, left_iris, right_iris: [Int]
        let left_iris_z_average, right_iris_z_average: [Int]
    }
    struct Reference: Decodable {
        let width: Int
        let height: Int
        let roi: [Float]
        let input: String
        let landmarks: [[Float]]
        let refinement: Refinement
    }

    static let model = Result {
        try Model(
            graph: TFLiteConverter.convert(
                tfliteBytes: TFLiteTestSupport.fixtureBytes("wheel/models/face_landmark_with_attention.tflite"),
                modelName: "face_landmark_with_attention.tflite"))
    }

    @Test(arguments: ["sergey_portrait", "grace_hopper"])
    func matchesMediaPipeFaceMesh(stem: String) throws {
        let dir = "wheel/face_mesh_attention/"
        let ref = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: TFLiteTestSupport.fixtureURL(dir + "\(stem).json")))
        let bytes = try TFLiteTestSupport.fixtureBytes(dir + ref.input)
        try #require(bytes.count == 192 * 192 * 3 && ref.landmarks.count == 478)
        let model = try Self.model.get()
        let names = [
            "output_mesh_identity", "output_lips", "output_left_eye", "output_right_eye", "output_left_iris",
            "output_right_iris"
        ]
        let outputs = try model.makeSession().run([bytes.map { Float($0) / 255 }])
        let byName = Dictionary(uniqueKeysWithValues: zip(model.outputs.map(\.name), outputs))
        let sets = try names.map { try #require(byName[$0], "output \($0)") }
        let ours = Self.project(Self.refine(sets, ref.refinement), roi: ref.roi)

        let w = Double(ref.width), h = Double(ref.height)
        var sum = 0.0, worst = 0.0, worstZ: Float = 0
        for (p, q) in zip(ours, ref.landmarks) {
            let d = hypot(Double(p[0] - q[0]) * w, Double(p[1] - q[1]) * h) / w * 100
            sum += d
            worst = worse(worst, d)
            worstZ = worse(worstZ, abs(p[2] - q[2]))
        }
        let mean = sum / 478
        print("[AttentionMesh] \(stem) vs MediaPipe FaceMesh(refine): mean \(mean) %, max \(worst) % of width, max |Δz| \(worstZ)")
        #expect(mean <= 1e-4 && worst <= 1e-3, "\(stem): mean \(mean) %, max \(worst) %")
        #expect(worstZ <= 1e-5, "\(stem): |Δz| \(worstZ)")
    }

    /// LandmarksRefinementCalculator as in MediaPipe's tensors_to_face_landmarks_with_attention:
    /// outputs in 192-px crop units → 478 crop-normalized points; refined sets replace x, y (z
    /// kept), the irises are appended with z the mean z of their eye contour.
    static func refine(_ sets: [[Float]], _ r: Refinement) -> [[Float]] {
        var points = (0..<468).map { i in (0..<3).map { sets[0][i * 3 + $0] / 192 } } + Array(repeating: [0, 0, 0], count: 10)
        for (values, indices) in zip(sets.dropFirst(), [r.lips, r.left_eye, r.right_eye, r.left_iris, r.right_iris]) {
            precondition(values.count == 2 * indices.count)
            for (k, i) in indices.enumerated() {
                points[i][0] = values[2 * k] / 192
                points[i][1] = values[2 * k + 1] / 192
            }
        }
        for (iris, contour) in [(r.left_iris, r.left_iris_z_average), (r.right_iris, r.right_iris_z_average)] {
            let z = contour.reduce(Float(0)) { $0 + points[$1][2] } / Float(contour.count)
            for i in iris { points[i][2] = z }
        }
        return points
    }

    /// Legacy LandmarkProjectionCalculator (rect path): rotate about the crop centre, scale by the
    /// ROI, shift to its centre; z scales with the ROI width.
    static func project(_ points: [[Float]], roi: [Float]) -> [[Float]] {
        let (xc, yc, w, h, rot) = (roi[0], roi[1], roi[2], roi[3], roi[4])
        let c = cos(rot), s = sin(rot)
        return points.map { p in
            let x = p[0] - 0.5, y = p[1] - 0.5
            return [(c * x - s * y) * w + xc, (s * x + c * y) * h + yc, p[2] * w]
        }
    }
}
