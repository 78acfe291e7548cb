import BlazeTestSupport
import BlazeEngine
import BlazeModels
import Dispatch
import Foundation
import Testing
@testable import BlazeKit

/// Options, validation, the nets each option set loads, threads and the three calling forms.
@Suite struct FaceDetectorAPITests {
    @Test func defaultsAreMLKits() {
        let options = FaceDetectorOptions()
        #expect(options.performanceMode == .fast)
        #expect(options.landmarkMode == .none && options.contourMode == .none && options.classificationMode == .none)
        #expect(options.minFaceSize == 0.1)
        #expect(!options.isTrackingEnabled)
        #expect(options.threadCount == nil)
    }

    @Test(arguments: [Double.nan, -0.01, 1.01, -Double.infinity, Double.infinity])
    func invalidMinFaceSizeIsATypedError(value: Double) {
        var options = FaceDetectorOptions()
        options.minFaceSize = value
        #expect(throws: BlazeError.self) { try FaceDetector.faceDetector(options: options) }
        do {
            _ = try FaceDetector.faceDetector(options: options)
        } catch let error as BlazeError {
            #expect(error.kind == .invalidInput)
            #expect(error.message.contains("minFaceSize"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func boundaryOptionsAreValid() throws {
        for value in [0.0, 1.0] {
            var options = FaceDetectorOptions()
            options.minFaceSize = value
            #expect(throws: Never.self) { try options.validate() }
        }
        var options = FaceDetectorOptions()
        options.threadCount = 0
        #expect(throws: BlazeError.self) { try options.validate() }
        _ = try FaceDetector.faceDetector()
    }

    @Test func onlyTheNeededNetsAreLoaded() throws {
        let plain = try FaceDetector.faceDetector()
        #expect(plain.nets.mesh == nil && plain.nets.blendshapes == nil)
        #expect(plain.nets.detector.inputs[0].shape == [1, 128, 128, 3])

        var options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.contourMode = .all
        let contours = try FaceDetector.faceDetector(options: options)
        #expect(contours.nets.mesh != nil && contours.nets.blendshapes == nil)
        #expect(contours.nets.detector.inputs[0].shape == [1, 192, 192, 3])

        options.contourMode = .none
        options.landmarkMode = .all
        #expect(try FaceDetector.faceDetector(options: options).nets.mesh != nil)
        options.landmarkMode = .none
        options.classificationMode = .all
        let classification = try FaceDetector.faceDetector(options: options)
        #expect(classification.nets.mesh != nil && classification.nets.blendshapes != nil)
    }

    /// Each mode fills exactly its own fields.
    @Test func optionsSelectTheFields() throws {
        let image = try FaceTestData.image("sergey_portrait.png")
        for (landmarks, contours, classification) in [(true, false, false), (false, true, false), (false, false, true)] {
            var options = FaceDetectorOptions()
            options.landmarkMode = landmarks ? .all : .none
            options.contourMode = contours ? .all : .none
            options.classificationMode = classification ? .all : .none
            let face = try #require(try FaceDetector.faceDetector(options: options).results(in: image).first)
            #expect(face.mesh?.count == 478, "the mesh ran")
            #expect(face.meshStatus == .computed && !face.isHeadEulerAngleYEstimated)
            #expect(face.hasHeadEulerAngleX && face.hasHeadEulerAngleY && face.hasHeadEulerAngleZ)
            #expect(face.landmarks.count == (landmarks ? 10 : 0))
            #expect(face.contours.count == (contours ? 15 : 0))
            #expect(face.hasSmilingProbability == classification)
            #expect(face.hasLeftEyeOpenProbability == classification && face.hasRightEyeOpenProbability == classification)
            #expect(!face.hasTrackingID)
        }
        let plain = try #require(try FaceDetector.faceDetector().results(in: image).first)
        #expect(plain.mesh == nil && !plain.hasHeadEulerAngleX && plain.hasHeadEulerAngleY && plain.hasHeadEulerAngleZ)
        #expect(plain.meshStatus == .notRequested && plain.isHeadEulerAngleYEstimated)
        #expect(plain.keypoint(ofType: .noseTip) != nil && plain.landmark(ofType: .leftEye) == nil)
    }

    @Test func minFaceSizeFiltersByRelativeWidth() throws {
        let image = try FaceTestData.image("three_people.jpg")
        let all = try FaceTestData.detector().results(in: image)
        #expect(all.count == 3)
        let widths = all.map { $0.frame.width / Double(image.uprightWidth) }.sorted()
        var options = FaceDetectorOptions()
        options.minFaceSize = (widths[0] + widths[1]) / 2
        let filtered = try FaceDetector.faceDetector(options: options).results(in: image)
        #expect(filtered.count == 2)
        options.minFaceSize = 1
        #expect(try FaceDetector.faceDetector(options: options).results(in: image).isEmpty)
    }

    /// A model directory is used alone: one that does not exist, is a file, or lacks a net the
    /// options need is a typed error naming it (it used to fall back to the bundled models).
    @Test func modelDirectoryIsNeverASilentFallback() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("blazekit-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let missing = scratch.appendingPathComponent("no-such-folder")
        let file = scratch.appendingPathComponent("a-file")
        try Data([1]).write(to: file)
        let detectorOnly = scratch.appendingPathComponent("detector-only")
        try FileManager.default.createDirectory(at: detectorOnly, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try BundledModel.faceDetectionShortRange.url(),
            to: detectorOnly.appendingPathComponent(BundledModel.faceDetectionShortRange.fileName))
        func failure(_ folder: URL, _ options: FaceDetectorOptions = FaceDetectorOptions()) -> BlazeError? {
            do {
                _ = try FaceDetector.faceDetector(options: options, modelDirectory: folder)
                return nil
            } catch let error as BlazeError {
                return error
            } catch {
                return BlazeError(.invalidInput, "unexpected error type: \(error)")
            }
        }
        #expect(failure(missing)?.kind == .io)
        #expect(failure(missing)?.message.contains("does not exist") == true)
        #expect(failure(file)?.message.contains("must be a folder") == true)
        // The detector alone is there: fast mode loads; the mesh that contours need is not.
        #expect(failure(detectorOnly) == nil)
        var contours = FaceDetectorOptions()
        contours.contourMode = .all
        let noMesh = failure(detectorOnly, contours)
        #expect(noMesh?.kind == .io)
        #expect(noMesh?.message.contains(BundledModel.faceLandmarksDetector.fileName) == true)
    }

    /// `print(face)` is one readable line (it printed ~43,000 characters of mesh), and
    /// `frame.size` exists as in ML Kit code (`face.frame.size.width`).
    @Test func faceDescriptionIsOneShortLineAndFrameHasASize() throws {
        let detector = try FaceDetector.faceDetector(options: FaceTestData.allOptions(.fast))
        let face = try #require(try detector.results(in: FaceTestData.image("grace_hopper.jpg")).first)
        let text = "\(face)"
        #expect(text.hasPrefix("Face(frame "), "\(text)")
        #expect(text.count < 300 && !text.contains("\n"), "\(text.count) characters")
        #expect(text.contains("10 landmarks") && text.contains("15 contours") && text.contains("mesh 478 points") && text.contains("smiling"))
        #expect(face.frame.size == VisionSize(width: face.frame.width, height: face.frame.height))
    }

    @Test func noFaceGivesAnEmptyArray() throws {
        let image = try FaceTestData.image("neg_coffee.png")
        #expect(try FaceDetector.faceDetector(options: FaceTestData.allOptions()).results(in: image).isEmpty)
    }

    /// One detector from 8 threads at once gives the serial results, for every call.
    @Test func eightThreadsAtOnce() throws {
        let detector = try FaceDetector.faceDetector(options: FaceTestData.allOptions(.fast))
        let photos = ["three_people.jpg", "two_children.jpg", "grace_hopper.jpg", "woman_sitting_street.jpg"]
        let images = try photos.map(FaceTestData.image)
        let expected = try images.map { try detector.results(in: $0) }
        let results = Locked<[Int: [Face]]>([:])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<2 {
                let index = (thread + round) % images.count
                do {
                    let faces = try detector.results(in: images[index])
                    if faces != expected[index] { failures.withLock { $0.append("thread \(thread) round \(round): \(photos[index]) differs") } }
                    results.withLock { $0[thread * 2 + round] = faces }
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(results.withLock { $0.count } == 16)
    }

    @Test func asyncAndCompletionFormsMatchTheSynchronousOne() async throws {
        let detector = try FaceDetector.faceDetector(options: FaceTestData.allOptions(.fast))
        let image = try FaceTestData.image("two_children.jpg")
        let expected = try detector.results(in: image)
        let viaAsync = try await detector.process(image)
        #expect(viaAsync == expected)
        let viaCompletion: [Face] = try await withCheckedThrowingContinuation { continuation in
            detector.process(image) { faces, error in
                if let faces { continuation.resume(returning: faces) } else { continuation.resume(throwing: error!) }
            }
        }
        #expect(viaCompletion == expected)

        // Concurrent async calls.
        let many = try await withThrowingTaskGroup(of: [Face].self) { group in
            for _ in 0..<4 { group.addTask { try await detector.process(image) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(many.count == 4 && many.allSatisfy { $0 == expected })
    }

    /// A face the mesh was asked for but could not get says so: woman_sitting_street.jpg's face is
    /// found by the short-range detector, but MediaPipe's FaceLandmarker finds no mesh for it (its
    /// reference JSON has no face) and neither does BlazeKit: the mesh's presence test rejects it.
    @Test func aFaceWithoutItsRequestedMeshSaysWhy() throws {
        let detector = try FaceDetector.faceDetector(options: FaceTestData.allOptions(.fast))
        let faces = try detector.results(in: try FaceTestData.image("woman_sitting_street.jpg"))
        #expect(!faces.isEmpty)
        for face in faces {
            if face.mesh == nil {
                #expect(face.meshStatus == .rejected || face.meshStatus == .unmatched)
                #expect(face.isHeadEulerAngleYEstimated && !face.hasHeadEulerAngleX && !face.hasSmilingProbability)
                #expect(face.landmarks.isEmpty && face.contours.isEmpty)
                #expect(face.description.contains("mesh \(face.meshStatus.rawValue)") && face.description.contains("estimated"))
            } else {
                #expect(face.meshStatus == .computed && !face.isHeadEulerAngleYEstimated)
            }
        }
        #expect(faces.contains { $0.meshStatus == .rejected }, "\(faces.map(\.meshStatus))")
    }

    /// Detector-only Euler angles: Z from the eye line, Y from eyes and nose (documented
    /// estimate), compared with the mesh-based angles on the reference photos.
    @Test func keypointEulerEstimateIsRoughlyTheMeshAngle() throws {
        let plain = try FaceTestData.detector()
        let mesh = try FaceDetector.faceDetector(options: FaceTestData.allOptions(.fast))
        var worstY = 0.0, worstZ = 0.0
        for photo in ["sergey_portrait.png", "grace_hopper.jpg", "hagrid_call_1f5fb137.jpg", "two_children.jpg", "business_person.png"] {
            let image = try FaceTestData.image(photo)
            let estimated = try plain.results(in: image), measured = try mesh.results(in: image)
            #expect(estimated.count == measured.count)
            for (e, m) in zip(estimated, measured) where m.hasHeadEulerAngleX {
                #expect(!e.hasHeadEulerAngleX)
                worstY = worse(worstY, abs(e.headEulerAngleY - m.headEulerAngleY))
                worstZ = worse(worstZ, abs(e.headEulerAngleZ - m.headEulerAngleZ))
            }
        }
        print("[FaceEuler] keypoint estimate vs mesh: Y max diff \(worstY)°, Z max diff \(worstZ)°")
        #expect(worstY < 15 && worstZ < 15)

        // Rolling the face rolls Z: the 90°-rotated astronaut.
        let rotated = try #require(try plain.results(in: FaceTestData.image("derived_astronaut_rot90cw.png")).first)
        #expect(rotated.headEulerAngleZ < -40)
    }

    @Test func jsonNames() {
        #expect(FaceKeypoint.allCases.map(\.name) == ["rightEye", "leftEye", "noseTip", "mouthCenter", "rightEarTragion", "leftEarTragion"])
        #expect(
            FaceContourType.allCases.map(\.rawValue) == [
                "face", "leftEyebrowTop", "leftEyebrowBottom", "rightEyebrowTop",
                "rightEyebrowBottom", "leftEye", "rightEye", "upperLipTop",
                "upperLipBottom", "lowerLipTop", "lowerLipBottom", "noseBridge",
                "noseBottom", "leftCheek", "rightCheek"
            ])
        #expect(FaceContourType.allCases.reduce(0) { $0 + $1.meshIndices.count } == 133)
        #expect(
            Set(FaceLandmarkType.allCases.map(\.rawValue)) == [
                "leftEye", "rightEye", "leftEar", "rightEar", "leftCheek", "rightCheek",
                "noseBase", "mouthLeft", "mouthRight", "mouthBottom"
            ])
        #expect(faceBlendshapeNames.count == 52 && blendshapeLandmarkIndices.count == 146)
    }
}
