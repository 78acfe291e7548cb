import BlazeTestSupport
import BlazeEngine
import Foundation
import Testing
@testable import BlazeKit

/// `.fast` / `.accurate` against MediaPipe's legacy face detection (short range / full range
/// with its effective 0.6 threshold) on every test photo: exactly the reference faces, and boxes,
/// keypoints and scores within 3× the worst difference measured (docs/testing.md).
@Suite struct FaceDetectionReferenceTests {
    /// 1 − IoU of a face's box with MediaPipe's.
    static let boxTolerance = 4.3e-5
    /// Keypoint distance, as a fraction of the image width.
    static let keypointTolerance = 2.4e-6
    static let scoreTolerance = 1.75e-6

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
                maxScore = worse(maxScore, abs(Double(face.score) - ref.score))
                #expect(face.keypoints.count == 6)
                for (k, kp) in face.keypoints.enumerated() {
                    let r = VisionPoint(x: ref.keypoints[k].x * Double(w), y: ref.keypoints[k].y * Double(h))
                    maxKeypoint = worse(maxKeypoint, distance(kp.position, r) / Double(w))
                }
                #expect(face.hasHeadEulerAngleZ && face.hasHeadEulerAngleY && !face.hasHeadEulerAngleX)
                #expect(face.mesh == nil && face.landmarks.isEmpty && face.contours.isEmpty && !face.hasSmilingProbability)
                #expect(!face.hasTrackingID)
            }
            if !pairs.isEmpty {
                print("[FaceDetection] \(mode) \(stem): \(faces.count) face(s), IoU min \(minIoU), keypoint max \(maxKeypoint * 100) % of width, score max diff \(maxScore)")
            }
            #expect(1 - minIoU <= Self.boxTolerance, "\(stem) \(mode): IoU \(minIoU)")
            #expect(maxKeypoint <= Self.keypointTolerance, "\(stem) \(mode): keypoint error \(maxKeypoint * 100) % of width")
            #expect(maxScore <= Self.scoreTolerance, "\(stem) \(mode): score difference \(maxScore)")
            #expect(zip(faces, faces.dropFirst()).allSatisfy { $0.score >= $1.score }, "faces sorted by descending score")
        }
    }
}
