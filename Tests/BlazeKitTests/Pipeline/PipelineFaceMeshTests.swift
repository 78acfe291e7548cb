import BlazeEngine
import BlazeModels
import Testing
@testable import BlazeKit

/// Tasks FaceLandmarker chain on sergey: detector (NMS 0.5) → EXPANDED_FACE_RECT → mesh v2 on the
/// generator's crop → S8 matrix path, against MediaPipe's face_landmarker JSON.
@Suite struct PipelineFaceMeshTests {
    @Test func tasksFaceLandmarksViaMatrixPath() throws {
        let (entry, npy) = try PipelineFixtures.tensor("sergey_portrait", model: "face_detection_short_range")
        let outputs = try runBundled(.faceDetectionShortRange, input: npy.values)
        let raw = try decodeDetections(
            boxes: outputs[0], scores: outputs[1], anchors: SSDAnchorOptions.faceShortRange.anchors(),
            options: .faceShortRange)
        // Inside the Tasks FaceLandmarker the detector's NMS threshold is 0.5 (§3).
        let detection = try #require(nonMaxSuppression(raw, iouThreshold: 0.5).first).projected(by: entry.projection)
        let roi = faceMeshROI(fromDetection: detection, imageSize: ImageSize(width: entry.width, height: entry.height), flavor: .tasks)

        let crop = try PipelineFixtures.tensor("sergey_portrait", model: "face_landmarks_detector")
        let roiDiff = maxAbsDiff(roi.values, try #require(crop.entry.roi))
        #expect(roiDiff < 1e-6)
        let matrix = projectionMatrix(for: roi, imageSize: ImageSize(width: entry.width, height: entry.height))
        #expect(maxAbsDiff(matrix, crop.entry.projection) < 1e-6)

        let mesh = try runBundled(.faceLandmarksDetector, input: crop.values.values)
        #expect(passesPresenceThreshold(sigmoid(mesh[1][0]), threshold: 0.5))
        let landmarks = projectLandmarks(try decodeLandmarks(mesh[0], options: .faceMeshV2), matrix: matrix)
        #expect(landmarks.count == 478)

        let reference = try PipelineFixtures.reference(ReferenceFaces.self, "sergey_portrait.face_landmarker")
        let face = try #require(reference.faces.first)
        let xy = maxAbsDiff(landmarks.flatMap { [$0.x, $0.y] }, face.landmarks.flatMap { [$0.x, $0.y] })
        let z = maxAbsDiff(landmarks.map(\.z), face.landmarks.map(\.z))
        let pose = try #require(facePose(landmarks: landmarks, imageSize: ImageSize(width: entry.width, height: entry.height)))
        let poseDiff = maxAbsDiff(pose.matrix, try #require(face.transformation_matrix).flatMap { $0 })
        print("[Pipeline] sergey Tasks face landmarks vs MediaPipe: ROI vs numpy \(roiDiff), xy \(xy), z \(z), pose matrix \(poseDiff)")
        #expect(xy < 1e-4)
        #expect(z < 1e-4)
        #expect(poseDiff < 5e-3)
    }
}
