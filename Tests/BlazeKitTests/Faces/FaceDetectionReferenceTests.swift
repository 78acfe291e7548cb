import BlazeEngine
import Foundation
import Testing
@testable import BlazeKit

/// `.fast` / `.accurate` against MediaPipe's legacy face detection (short range / full range
/// with its effective 0.6 threshold) on every test photo: exactly the reference faces, box IoU
/// ≥ 0.98, keypoints within 0.5 % of the image width.
@Suite struct FaceDetectionReferenceTests {
    static let modes: [(FaceDetectorPerformanceMode, String)] = [
        (.fast, "face_detection_short_range"), (.accurate, "face_detection_full_range")
    ]

    @Test(arguments: FaceTestData.photoNames)
    func detectorMatchesMediaPipe(photo: String) throws {
        let image = try FaceTestData.image(photo)
        let stem = FaceTestData.stem(photo)
        for (mode, pipeline) in Self.modes {
            let detector = try FaceTestData.detector { $0.performanceMode = mode }
            let faces = try detector.results(in: image)
            let reference = try FaceTestData.reference(FaceReferenceDetections.self, stem, pipeline)
            let w = reference.width, h = reference.height
            #expect(image.uprightWidth == w && image.uprightHeight == h)
            #expect(faces.count == reference.detections.count, "\(stem) \(mode): \(faces.count) faces, reference \(reference.detections.count)")

            let pairs = greedyMatch(faces.count, reference.detections.count, minimum: 0) { i, j in
                faces[i].frame.intersectionOverUnion(with: reference.detections[j].frame(width: w, height: h))
            }
            #expect(pairs.count == reference.detections.count, "\(stem) \(mode): unmatched faces")
            var minIoU = 1.0, maxKeypoint = 0.0, maxScore = 0.0
            for (i, j) in pairs {
                let face = faces[i], ref = reference.detections[j]
                minIoU = min(minIoU, face.frame.intersectionOverUnion(with: ref.frame(width: w, height: h)))
                maxScore = max(maxScore, abs(Double(face.score) - ref.score))
                #expect(face.keypoints.count == 6)
                for (k, kp) in face.keypoints.enumerated() {
                    let r = VisionPoint(x: ref.keypoints[k].x * Double(w), y: ref.keypoints[k].y * Double(h))
                    maxKeypoint = max(maxKeypoint, distance(kp.position, r) / Double(w))
                }
                #expect(face.hasHeadEulerAngleZ && face.hasHeadEulerAngleY && !face.hasHeadEulerAngleX)
                #expect(face.mesh == nil && face.landmarks.isEmpty && face.contours.isEmpty && !face.hasSmilingProbability)
                #expect(!face.hasTrackingID)
            }
            if !pairs.isEmpty {
                print("[FaceDetection] \(mode) \(stem): \(faces.count) face(s), IoU min \(minIoU), keypoint max \(maxKeypoint * 100) % of width, score max diff \(maxScore)")
            }
            #expect(minIoU >= 0.98, "\(stem) \(mode): IoU \(minIoU)")
            #expect(maxKeypoint <= 0.005, "\(stem) \(mode): keypoint error \(maxKeypoint * 100) % of width")
            #expect(zip(faces, faces.dropFirst()).allSatisfy { $0.score >= $1.score }, "faces sorted by descending score")
        }
    }
}
