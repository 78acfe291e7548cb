import BlazeTestSupport
import BlazeEngine
import Foundation
import BlazeModels
import Testing
@testable import BlazeKit

/// Palm → hand ROI (§6.2) and hand landmark decoding (§6.4, §6.5, S8) end to end against
/// MediaPipe's legacy hands (model_complexity 1) JSON.
@Suite struct PipelineHandTests {
    /// Legacy static-mode hands graph up to the ROIs: first 2 palms, §6.2 ROI, association 0.5.
    static func handROIs(_ stem: String) throws -> (entry: PipelineFixtures.TensorEntry, rois: [NormalizedRect]) {
        let (entry, palms) = try PipelineDetectorTests.detect(stem, model: .palmDetectionFull, anchors: .palm, decoder: .palm)
        let rects = palms.prefix(2).map { handROI(fromPalm: $0, imageSize: ImageSize(width: entry.width, height: entry.height), rotation: .upright) }
        return (entry, associateRects([Array(rects)], threshold: 0.5))
    }

    @Test(arguments: ["two_hands_open_palms", "hand_victory_white_bg"])
    func palmToHandROI(stem: String) throws {
        let (entry, rois) = try Self.handROIs(stem)
        let expected = try #require(entry.hand_rois)
        #expect(rois.count == expected.count)
        var worst: Float = 0
        for (r, e) in zip(rois, expected) { worst = worse(worst, maxAbsDiff(r.values, e)) }
        print("[Pipeline] \(stem) hand ROIs: max abs difference to numpy+LiteRT \(worst)")
        #expect(worst < 1e-4)
    }

    @Test(arguments: ["two_hands_open_palms", "hand_victory_white_bg"])
    func handLandmarks(stem: String) throws {
        let reference = try PipelineFixtures.reference(ReferenceHands.self, "\(stem).hands_model_complexity_1")
        let (_, rois) = try Self.handROIs(stem)
        #expect(rois.count == reference.hands.count)
        let manifest = try PipelineFixtures.manifest()
        let session = try BundledModel.handLandmarkFull.load().makeSession()
        var worstXY: Float = 0, worstZ: Float = 0, worstWorld: Float = 0, worstHandedness: Float = 0
        for (index, roi) in rois.enumerated() {
            let entry = try #require(manifest.tensors.first { $0.file == "tensors/\(stem).hand\(index).hand_landmark_full.npy" })
            let crop = try NPYArray(contentsOf: PipelineFixtures.url(entry.file))
            let outputs = try session.run([crop.values])
            let p = entry.padding
            let hand = try decodeHandLandmarks(outputs: outputs, roi: roi, padding: (p[0], p[1], p[2], p[3]), convention: .legacy)
            #expect(passesPresenceThreshold(hand.presence, threshold: 0.5))
            let ref = try #require(
                reference.hands.min { a, b in
                    abs(a.landmarks[0].x - hand.landmarks[0].x) + abs(a.landmarks[0].y - hand.landmarks[0].y)
                        < abs(b.landmarks[0].x - hand.landmarks[0].x) + abs(b.landmarks[0].y - hand.landmarks[0].y)
                })
            worstXY = worse(worstXY, maxAbsDiff(hand.landmarks.flatMap { [$0.x, $0.y] }, ref.landmarks.flatMap { [$0.x, $0.y] }))
            worstZ = worse(worstZ, maxAbsDiff(hand.landmarks.map(\.z), ref.landmarks.map(\.z)))
            worstWorld = worse(
                worstWorld,
                maxAbsDiff(
                    hand.worldLandmarks.flatMap { [$0.x, $0.y, $0.z] },
                    ref.world_landmarks_m.flatMap { [$0.x, $0.y, $0.z] }))
            worstHandedness = worse(worstHandedness, abs(hand.handedness.score - ref.handedness.score))
            #expect(hand.handedness.categoryName == ref.handedness.label)
            #expect(hand.handedness.index == ref.handedness.index)
            // Tasks naming: the same index, the other name.
            let tasks = handedness(probability: hand.handednessProbability, convention: .tasks)
            #expect(tasks.index == hand.handedness.index && tasks.categoryName != hand.handedness.categoryName)
        }
        print("[Pipeline] \(stem) hand landmarks vs MediaPipe: xy \(worstXY), z \(worstZ), world \(worstWorld) m, handedness \(worstHandedness)")
        #expect(worstXY < 1e-4)
        #expect(worstZ < 1e-4)
        #expect(worstWorld < 1e-4)
        #expect(worstHandedness < 1e-3)
    }

    /// S9 hand on MediaPipe's own landmarks: the next-frame ROI must contain the hand and be
    /// square in pixels, and the palm-based and landmark-based ROIs of the same hand agree
    /// roughly (they are different estimates).
    @Test func nextFrameROIFromReferenceLandmarks() throws {
        let reference = try PipelineFixtures.reference(ReferenceHands.self, "hand_victory_white_bg.hands_model_complexity_1")
        let hand = try #require(reference.hands.first)
        let landmarks = hand.landmarks.map { NormalizedLandmark(x: $0.x, y: $0.y, z: $0.z) }
        let (w, h) = (reference.width, reference.height)
        let roi = handROI(fromLandmarks: landmarks, imageSize: ImageSize(width: w, height: h))
        #expect(abs(roi.width * Float(w) - roi.height * Float(h)) < 1e-3)
        let (_, palmROIs) = try Self.handROIs("hand_victory_white_bg")
        let palmROI = try #require(palmROIs.first)
        #expect(abs(roi.rotation - palmROI.rotation) < 0.2)
        #expect(roi.intersectionOverUnion(with: palmROI) > 0.5)
        // Every landmark lies inside the rotated ROI.
        let c = cos(-roi.rotation), s = sin(-roi.rotation)
        for lm in landmarks {
            let dx = (lm.x - roi.xCenter) * Float(w), dy = (lm.y - roi.yCenter) * Float(h)
            #expect(abs(c * dx - s * dy) < roi.width * Float(w) / 2)
            #expect(abs(s * dx + c * dy) < roi.height * Float(h) / 2)
        }
    }
}
