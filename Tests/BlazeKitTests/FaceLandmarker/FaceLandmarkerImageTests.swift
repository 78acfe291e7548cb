import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// Image mode against MediaPipe 0.10.21's Tasks FaceLandmarker (IMAGE mode, num_faces 5,
/// blendshapes and matrices on) on every test photo: the reference JSONs of
/// Tests/Fixtures/testdata/reference (`*.face_landmarker.json`, made by MediaPipe itself; see
/// Tests/Fixtures/testdata/SOURCES.md).
@Suite("FaceLandmarker image mode")
struct FaceLandmarkerImageTests {
    static let landmarker = Result {
        try FaceLandmarkerTestData.landmarker {
            $0.numFaces = 5
            $0.outputFaceBlendshapes = true
            $0.outputFacialTransformationMatrixes = true
        }
    }

    @Test(arguments: FaceTestData.photoNames)
    func matchesMediaPipe(photo: String) throws {
        let landmarker = try Self.landmarker.get()
        let stem = FaceTestData.stem(photo)
        let reference = try FaceTestData.reference(FaceReferenceLandmarker.self, stem, "face_landmarker")
        let w = reference.width, h = reference.height
        let result = try landmarker.detect(image: try FaceTestData.image(photo))
        #expect(result.faceLandmarks.count == reference.faces.count, "\(stem): \(result.faceLandmarks.count) faces, reference \(reference.faces.count)")
        #expect(result.faceBlendshapes.count == result.faceLandmarks.count)
        #expect(result.facialTransformationMatrixes.count == result.faceLandmarks.count)
        #expect(result.trackingIDs.isEmpty && result.timestampInMilliseconds == 0)
        let pairs = greedyMatch(result.faceLandmarks.count, reference.faces.count, minimum: -.infinity) { i, j in
            -FaceLandmarkerTestData.meanDistance(result.faceLandmarks[i], reference.faces[j].landmarks_xyz, width: w, height: h)
        }
        #expect(pairs.count == reference.faces.count)
        for (i, j) in pairs {
            let ref = reference.faces[j]
            #expect(result.faceLandmarks[i].count == 478)
            let meshError = FaceLandmarkerTestData.meanDistance(result.faceLandmarks[i], ref.landmarks_xyz, width: w, height: h) / Double(w)
            let categories = result.faceBlendshapes[i].categories
            #expect(categories.map(\.categoryName) == faceBlendshapeNames.map { Optional($0) })
            #expect(categories.map(\.index) == Array(0..<52))
            var blendshapeError = 0.0
            for c in categories {
                let expected = try #require(ref.blendshapes[c.categoryName ?? ""], "reference lacks \(c.categoryName ?? "?")")
                blendshapeError = worse(blendshapeError, abs(Double(c.score) - expected))
            }
            let matrix = result.facialTransformationMatrixes[i]
            #expect(matrix.rows == 4 && matrix.columns == 4)
            let pose = FaceLandmarkerTestData.poseDifference(matrix.data, ref.transformation_matrix)
            print(
                "[FaceLandmarker] \(stem) face \(j): mesh mean \(meshError * 100) %, blendshapes max \(blendshapeError), rotation \(pose.degrees)°, translation \(pose.centimetres) cm"
            )
            let limits = FaceLandmarkerTestData.imageTolerances
            #expect(meshError <= limits.mesh, "\(stem): mesh error \(meshError * 100) % of width")
            #expect(blendshapeError <= limits.blendshape, "\(stem): blendshape error \(blendshapeError)")
            #expect(pose.degrees <= limits.degrees && pose.centimetres <= limits.centimetres, "\(stem): matrix off by \(pose.degrees)° and \(pose.centimetres) cm")
        }
    }

    /// Without the optional outputs the result has no blendshapes or matrices, and the
    /// blendshape net is not even loaded or run.
    @Test func optionalOutputsAreOffByDefault() throws {
        let landmarker = try FaceLandmarkerTestData.landmarker { $0.numFaces = 3 }
        let result = try landmarker.detect(image: try FaceTestData.image("three_people.jpg"))
        #expect(result.faceLandmarks.count == 3)
        #expect(result.faceBlendshapes.isEmpty && result.facialTransformationMatrixes.isEmpty)
        let stats = landmarker.statistics
        #expect(stats.framesProcessed == 1 && stats.faceDetectionRuns == 1 && stats.meshRuns == 3 && stats.blendshapeRuns == 0)
    }

    /// `numFaces` caps the faces (the detector's first N by score, as MediaPipe's graph).
    @Test func numFacesCapsTheResult() throws {
        let one = try FaceLandmarkerTestData.landmarker().detect(image: try FaceTestData.image("three_people.jpg"))
        #expect(one.faceLandmarks.count == 1)
    }

    /// Image-mode calls from many threads at once give the single-threaded results.
    @Test func concurrentCallsAgree() async throws {
        let landmarker = try FaceLandmarkerTestData.landmarker {
            $0.numFaces = 3; $0.outputFaceBlendshapes = true
        }
        let image = try FaceTestData.image("three_people.jpg")
        let expected = try landmarker.detect(image: image)
        try await withThrowingTaskGroup(of: FaceLandmarkerResult.self) { group in
            for _ in 0..<4 { group.addTask { try landmarker.detect(image: image) } }
            for try await result in group { #expect(result == expected) }
        }
    }
}
