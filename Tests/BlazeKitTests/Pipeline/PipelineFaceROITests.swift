import BlazeTestSupport
import BlazeModels
import Foundation
import Testing
@testable import BlazeKit

/// Face ROI math (S6, S7, S9 face, §4.1) against docs/pipelines.md §9, and head pose (§5.3) against
/// the Tasks FaceLandmarker's transformation matrices.
@Suite struct PipelineFaceROITests {
    static func sergeyDetection() throws -> Detection {
        let (_, d) = try PipelineDetectorTests.detect(
            "sergey_portrait", model: .faceDetectionShortRange,
            anchors: .faceShortRange, decoder: .faceShortRange)
        return try #require(d.first)
    }

    /// §9 gives 5 decimals; the detector adds ≤ 1e-6.
    static let specTolerance: Float = 1e-5

    @Test func sergeyFaceRectAndMeshROI() throws {
        let d = try Self.sergeyDetection()
        let rect = faceRect(fromDetection: d, imageSize: ImageSize(width: 600, height: 600))
        #expect(maxAbsDiff(rect.values, [0.49350, 0.57437, 0.56577, 0.56573, 0.01563]) < Self.specTolerance)
        let mesh = faceMeshROI(fromDetection: d, imageSize: ImageSize(width: 600, height: 600), flavor: .legacy)
        #expect(maxAbsDiff(mesh.values, [0.49350, 0.57437, 0.84866, 0.84866, 0.01563]) < Self.specTolerance)
        // Tasks: no square_long — the box is square to 4e-5 here, so only the size differs.
        let tasks = faceMeshROI(fromDetection: d, imageSize: ImageSize(width: 600, height: 600), flavor: .tasks)
        #expect(tasks.width == rect.width * 1.5 && tasks.height == rect.height * 1.5)
        #expect(abs(tasks.width - mesh.width) < 1e-4)
        print("[Pipeline] sergey face rect \(rect.values), mesh ROI \(mesh.values)")
    }

    /// The next-frame ROI from MediaPipe's own 468 landmarks (rounded to 6 decimals in the JSON).
    @Test func sergeyNextFrameROI() throws {
        let reference = try PipelineFixtures.reference(ReferenceFaces.self, "sergey_portrait.face_mesh")
        let landmarks = try #require(reference.faces.first).landmarks
        #expect(landmarks.count == 468)
        let roi = faceMeshROI(fromLandmarks: landmarks, imageSize: ImageSize(width: 600, height: 600))
        let diff = maxAbsDiff(roi.values, [0.49248, 0.54355, 0.93613, 0.93613, 0.00291])
        print("[Pipeline] sergey next-frame ROI \(roi.values), diff to §9 \(diff)")
        #expect(diff < Self.specTolerance)
        // Landmark bounding box of the JSON: (0.225208, 0.231509) – (0.759752, 0.8556).
        let box = landmarksToDetection(landmarks).box
        #expect(maxAbsDiff([box.xmin, box.ymin, box.xmax, box.ymax], [0.225208, 0.231509, 0.759752, 0.8556]) < 1e-6)
    }

    /// LandmarksToDetection's FLT_MIN quirk: with all x negative, xmax stays at FLT_MIN.
    @Test func landmarkBoxMaximaStartAtFLTMin() {
        let box = landmarksToDetection([NormalizedLandmark(x: -0.5, y: -0.25), NormalizedLandmark(x: -0.1, y: -0.2)]).box
        #expect(box.xmin == -0.5 && box.ymin == -0.25)
        #expect(box.xmax == -0.5 + (Float.leastNormalMagnitude + 0.5))
        #expect(box.width == Float.leastNormalMagnitude + 0.5)
    }

    static let poseImages = ["sergey_portrait", "three_people", "grace_hopper"]

    @Test(arguments: poseImages)
    func transformationMatrixMatchesMediaPipe(stem: String) throws {
        let reference = try PipelineFixtures.reference(ReferenceFaces.self, "\(stem).face_landmarker")
        var worstRotation: Float = 0, worstTranslation: Float = 0
        for face in reference.faces {
            let expected = try #require(face.transformation_matrix).flatMap { $0 }
            let pose = try #require(facePose(landmarks: face.landmarks, imageSize: ImageSize(width: reference.width, height: reference.height)))
            for i in [0, 1, 2, 4, 5, 6, 8, 9, 10] { worstRotation = worse(worstRotation, abs(pose.matrix[i] - expected[i])) }
            for i in [3, 7, 11] { worstTranslation = worse(worstTranslation, abs(pose.matrix[i] - expected[i])) }
            #expect(Array(pose.matrix[12...]) == [0, 0, 0, 1])
        }
        print("[Pipeline] \(stem) pose matrix vs MediaPipe (\(reference.faces.count) faces): rotation \(worstRotation), translation \(worstTranslation) cm")
        #expect(worstRotation < 1e-4)
        #expect(worstTranslation < 5e-3)
    }

    /// Euler conventions (BlazeKit's choice): frontal portrait ≈ 0; mirroring the landmarks flips the
    /// signs of Y (yaw) and Z (roll) and keeps X (pitch); EulerZ ≈ −degrees(S9 rotation).
    @Test func eulerAngleSigns() throws {
        let reference = try PipelineFixtures.reference(ReferenceFaces.self, "sergey_portrait.face_landmarker")
        let landmarks = try #require(reference.faces.first).landmarks
        let pose = try #require(facePose(landmarks: landmarks, imageSize: ImageSize(width: 600, height: 600)))
        let e = pose.eulerAngles
        #expect(abs(e.x) < 10 && abs(e.y) < 10 && abs(e.z) < 10)
        let mirrored = landmarks.map { NormalizedLandmark(x: 1 - $0.x, y: $0.y, z: $0.z) }
        // Mirroring also swaps the subject's sides: remap through the mesh's left/right pairs is
        // not needed for the sign check, the weighted landmarks are symmetric in pairs.
        let m = try #require(facePose(landmarks: mirroredMesh(mirrored), imageSize: ImageSize(width: 600, height: 600))).eulerAngles
        print("[Pipeline] sergey Euler \(e), mirrored \(m)")
        #expect(abs(m.y + e.y) < 1.0 && abs(m.z + e.z) < 1.0 && abs(m.x - e.x) < 1.0)
        let roll = -faceRect(fromLandmarks: landmarks, imageSize: ImageSize(width: 600, height: 600)).rotation * 180 / Float.pi
        #expect(abs(e.z - roll) < 2)
    }

    /// Synthetic rotation: rotating the landmarks in the image plane by +10° counter-clockwise
    /// (on screen) about the face centre raises EulerZ by ≈ 10.
    @Test func rollFollowsInPlaneRotation() throws {
        let reference = try PipelineFixtures.reference(ReferenceFaces.self, "sergey_portrait.face_landmarker")
        let landmarks = try #require(reference.faces.first).landmarks
        let base = try #require(facePose(landmarks: landmarks, imageSize: ImageSize(width: 600, height: 600))).eulerAngles
        let a = Float(10 * Double.pi / 180), c = cos(a), s = sin(a)
        let rotated = landmarks.map { lm -> NormalizedLandmark in
            let dx = lm.x - 0.5, dy = lm.y - 0.55
            // Counter-clockwise on screen (y down): (dx, dy) → (c·dx + s·dy, −s·dx + c·dy).
            return NormalizedLandmark(x: 0.5 + c * dx + s * dy, y: 0.55 - s * dx + c * dy, z: lm.z)
        }
        let turned = try #require(facePose(landmarks: rotated, imageSize: ImageSize(width: 600, height: 600))).eulerAngles
        #expect(abs(turned.z - base.z - 10) < 1)
    }

    @Test func compactOrShortLandmarkListsHaveNoPose() {
        #expect(facePose(landmarks: Array(repeating: NormalizedLandmark(x: 0.5, y: 0.5), count: 468), imageSize: ImageSize(width: 10, height: 10)) == nil)
        #expect(facePose(landmarks: Array(repeating: NormalizedLandmark(x: 0.5, y: 0.5), count: 100), imageSize: ImageSize(width: 10, height: 10)) == nil)
    }

    @Test func eulerDecomposition() {
        // R = Rz(30°)·Ry(20°)·Rx(−10°), scaled by 2: pitch −10 → X = +10, yaw 20, roll 30.
        func rad(_ d: Double) -> Double { d * Double.pi / 180 }
        let (p, y, r) = (rad(-10), rad(20), rad(30))
        let rx = Matrix3([1, 0, 0, 0, cos(p), -sin(p), 0, sin(p), cos(p)])
        let ry = Matrix3([cos(y), 0, sin(y), 0, 1, 0, -sin(y), 0, cos(y)])
        let rz = Matrix3([cos(r), -sin(r), 0, sin(r), cos(r), 0, 0, 0, 1])
        let rot = rz * ry * rx
        var m = [Float](repeating: 0, count: 16)
        for i in 0..<3 { for j in 0..<3 { m[i * 4 + j] = Float(2 * rot[i, j]) } }
        m[15] = 1
        let e = HeadEulerAngles(poseMatrix: m)
        #expect(abs(e.x - 10) < 1e-4 && abs(e.y - 20) < 1e-4 && abs(e.z - 30) < 1e-4)
    }

    @Test func procrustesRecoversASimilarity() throws {
        let rot = Matrix3([0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6])  // a proper rotation
        let scale = 1.7, t = SIMD3<Double>(3, -2, 40)
        let source = canonicalFaceLandmarks.map { SIMD3($0.x, $0.y, $0.z) }
        let target = source.map { rot.apply($0) * scale + t }
        let solution = try #require(
            weightedOrthogonalProcrustes(
                source: source, target: target,
                weights: canonicalFaceLandmarks.map(\.weight)))
        for i in 0..<9 { #expect(abs(solution.rotationAndScale.m[i] - scale * rot.m[i]) < 1e-9) }
        #expect(abs(solution.translation.x - 3) < 1e-9 && abs(solution.translation.z - 40) < 1e-9)
        // A reflected target still yields a proper rotation.
        let mirrored = target.map { SIMD3(-$0.x, $0.y, $0.z) }
        let proper = try #require(
            weightedOrthogonalProcrustes(
                source: source, target: mirrored,
                weights: canonicalFaceLandmarks.map(\.weight)))
        #expect(proper.rotationAndScale.determinant > 0)
    }
}

/// Swaps left/right mesh points of the 33 weighted landmarks (the canonical pairs mirror in x),
/// so that a mirrored image's mesh is indexed like a real face again.
private func mirroredMesh(_ landmarks: [NormalizedLandmark]) -> [NormalizedLandmark] {
    var out = landmarks
    let weighted = canonicalFaceLandmarks
    for a in weighted where a.x < 0 {
        if let b = weighted.first(where: { $0.x == -a.x && $0.y == a.y && $0.z == a.z }) {
            out[a.index] = landmarks[b.index]
            out[b.index] = landmarks[a.index]
        }
    }
    return out
}
