import BlazeTestSupport
import BlazeImageIO
import Foundation
import Testing
@testable import BlazeKit

/// MediaPipe 0.10.21's Tasks FaceLandmarker in VIDEO mode on the committed frame sequence
/// (`Tools/fixtures/faces/make_face_video.py`: three_people.jpg moved by small rotations and
/// shifts, 12 frames, runs with num_faces 3 and 1).
struct FaceVideoReference: Decodable {
    struct Face: Decodable {
        let landmarks: [[Double]]
        let blendshapes: [String: Double]
        let transformation_matrix: [[Float]]
    }
    struct Frame: Decodable {
        let frame: Int
        let timestamp_ms: Int
        let faces: [Face]
    }
    let width: Int
    let height: Int
    let runs_by_num_faces: [String: [Frame]]
}

@Suite("FaceLandmarker video mode")
struct FaceLandmarkerVideoTests {
    static func frames() throws -> [VideoFrame] {
        let reader = try Y4MReader(path: try fixtureURL("faces/three_people_video.y4m").path)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    static func reference() throws -> FaceVideoReference {
        try JSONDecoder().decode(FaceVideoReference.self, from: fixtureData("faces/three_people_video.face_landmarker.json"))
    }

    /// Every frame within 0.5 % of the width of MediaPipe (num_faces 1: with MediaPipe's
    /// smoothing, which also feeds its blendshapes); the detector runs on the first frame only,
    /// because every face stays tracked; tracking IDs stay with their faces. Blendshapes within
    /// 0.04: the blendshape net amplifies sub-pixel landmark differences (measured: a face whose
    /// 478 points are at most 0.084 px from MediaPipe's, mean 0.03 px, gives `mouthRollLower`
    /// 0.029 apart; image mode stays within 0.02).
    @Test(arguments: [3, 1])
    func trackedSequenceMatchesMediaPipe(numFaces: Int) throws {
        let reference = try Self.reference()
        let refFrames = try #require(reference.runs_by_num_faces[String(numFaces)])
        let frames = try Self.frames()
        #expect(frames.count == 12 && refFrames.count == 12)
        let landmarker = try FaceLandmarkerTestData.landmarker {
            $0.runningMode = .video
            $0.numFaces = numFaces
            $0.outputFaceBlendshapes = true
            $0.outputFacialTransformationMatrixes = true
        }
        let w = reference.width, h = reference.height
        var worstMesh = 0.0, worstBlendshape = 0.0
        var idsByReferenceFace: [Int: Set<Int>] = [:]
        for (frame, ref) in zip(frames, refFrames) {
            #expect(frame.timestampInMilliseconds == ref.timestamp_ms)
            let result = try landmarker.detect(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(result.timestampInMilliseconds == frame.timestampInMilliseconds)
            #expect(result.faceLandmarks.count == ref.faces.count, "frame \(frame.index)")
            #expect(result.trackingIDs.count == result.faceLandmarks.count)
            let pairs = greedyMatch(result.faceLandmarks.count, ref.faces.count, minimum: -.infinity) { i, j in
                -FaceLandmarkerTestData.meanDistance(result.faceLandmarks[i], ref.faces[j].landmarks, width: w, height: h)
            }
            #expect(pairs.count == ref.faces.count)
            for (i, j) in pairs {
                let mesh = FaceLandmarkerTestData.meanDistance(result.faceLandmarks[i], ref.faces[j].landmarks, width: w, height: h) / Double(w)
                worstMesh = worse(worstMesh, mesh)
                for c in result.faceBlendshapes[i].categories {
                    worstBlendshape = worse(worstBlendshape, abs(Double(c.score) - (ref.faces[j].blendshapes[c.categoryName ?? ""] ?? .infinity)))
                }
                // Reference faces keep their order from frame to frame here (they never swap places).
                idsByReferenceFace[j, default: []].insert(result.trackingIDs[i])
            }
        }
        print("[FaceLandmarker video] numFaces \(numFaces): worst mean mesh error \(worstMesh * 100) % of width, blendshapes \(worstBlendshape)")
        #expect(worstMesh <= FaceLandmarkerTestData.videoTolerances.mesh)
        #expect(worstBlendshape <= FaceLandmarkerTestData.videoTolerances.blendshape)
        let stats = landmarker.statistics
        #expect(stats.framesProcessed == 12)
        #expect(stats.faceDetectionRuns == 1, "the detector is skipped while \(numFaces) face(s) are tracked")
        #expect(stats.meshRuns == 12 * numFaces && stats.blendshapeRuns == 12 * numFaces)
        #expect(idsByReferenceFace.values.allSatisfy { $0.count == 1 }, "one ID per face: \(idsByReferenceFace)")
        #expect(Set(idsByReferenceFace.values.flatMap { $0 }).count == numFaces)
    }

    /// With more faces wanted than tracked, the detector keeps running (here: 3 people, 5 wanted).
    @Test func detectorRunsWhileFewerFacesThanWantedAreTracked() throws {
        let frames = try Self.frames().prefix(4)
        let landmarker = try FaceLandmarkerTestData.landmarker {
            $0.runningMode = .video; $0.numFaces = 5
        }
        for frame in frames {
            let result = try landmarker.detect(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(result.faceLandmarks.count == 3)
        }
        #expect(landmarker.statistics.faceDetectionRuns == 4)
    }

    /// A frame without a face ends the tracking: that frame only re-runs the mesh on the tracked
    /// ROI (it fails the presence test), the next frame runs the detector again and the face
    /// gets a new ID.
    @Test func losingTheFaceRestartsDetection() throws {
        let frames = try Self.frames()
        let empty = try FaceTestData.image("neg_coffee.png")
        let landmarker = try FaceLandmarkerTestData.landmarker { $0.runningMode = .video }
        let first = try landmarker.detect(videoFrame: frames[0].image, timestampInMilliseconds: 0)
        #expect(try landmarker.detect(videoFrame: empty, timestampInMilliseconds: 33).faceLandmarks.isEmpty)
        let again = try landmarker.detect(videoFrame: frames[1].image, timestampInMilliseconds: 66)
        #expect(first.faceLandmarks.count == 1 && again.faceLandmarks.count == 1)
        #expect(first.trackingIDs != again.trackingIDs)
        #expect(landmarker.statistics.faceDetectionRuns == 2)
    }

    @Test func timestampsMustIncrease() throws {
        let frames = try Self.frames()
        let landmarker = try FaceLandmarkerTestData.landmarker { $0.runningMode = .video }
        _ = try landmarker.detect(videoFrame: frames[0].image, timestampInMilliseconds: 100)
        #expect(throws: FaceLandmarkerError.nonIncreasingTimestamp(previous: 100, received: 100)) {
            try landmarker.detect(videoFrame: frames[1].image, timestampInMilliseconds: 100)
        }
        #expect(throws: FaceLandmarkerError.nonIncreasingTimestamp(previous: 100, received: 50)) {
            try landmarker.detect(videoFrame: frames[1].image, timestampInMilliseconds: 50)
        }
        #expect(throws: FaceLandmarkerError.runningModeMismatch(method: "detect(image:)", runningMode: .video)) {
            try landmarker.detect(image: frames[1].image)
        }
    }
}
