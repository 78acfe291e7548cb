import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// `HandLandmarker` with default options against MediaPipe Tasks' own hand landmarker: the hands of
/// the GestureRecognizer references (Fixtures/gestures/custom, MediaPipe 0.10.21; its hand stage is
/// Tasks' HandLandmarker graph with the same two nets), image mode, numHands 2, on every photo.
/// Tasks rotates hand regions differently from legacy Hands (`PalmRegionRotation`), which
/// HandReferenceTests covers.
@Suite("Hand landmarks against MediaPipe Tasks")
struct HandTasksReferenceTests {
    struct Category: Decodable { let index: Int; let score: Float; let category_name: String }
    struct Hand: Decodable { let handedness: [Category]; let landmarks: [[Float]]; let world_landmarks: [[Float]] }
    struct Reference: Decodable { let width: Int; let height: Int; let hands: [Hand] }

    /// Mean landmark error (fraction of the width), world landmarks (m), handedness score: 3× the
    /// worst measured (docs/testing.md).
    static let meanTolerance: Float = 4.2e-5
    static let worldTolerance: Float = 2.8e-4
    static let scoreTolerance: Float = 6.7e-4

    @Test func everyPhotoMatchesMediaPipeTasks() throws {
        let landmarker = try HandLandmarker(
            options: {
                var o = HandLandmarkerOptions(); o.numHands = 2; return o
            }())
        var worstMean: Float = 0, worstWorld: Float = 0, worstScore: Float = 0, hands = 0
        for name in try HandTestData.photoNames() {
            let stem = HandTestData.stem(name)
            let url = RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/gestures/custom/\(stem).json")
            let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
            let result = try landmarker.detect(image: try HandTestData.photo(name))
            #expect(result.landmarks.count == reference.hands.count, "\(stem): \(result.landmarks.count) hands, MediaPipe Tasks \(reference.hands.count)")
            guard result.landmarks.count == reference.hands.count else { continue }
            let want = reference.hands.map { $0.landmarks.map { NormalizedLandmark(x: $0[0], y: $0[1], z: $0[2]) } }
            for (i, r) in handMatch(result.landmarks, want, width: reference.width, height: reference.height).enumerated() {
                let ref = reference.hands[r]
                let mean = handMeanLandmarkError(result.landmarks[i], want[r], width: reference.width, height: reference.height)
                let world = handMaxWorldError(result.worldLandmarks[i], ref.world_landmarks.map { Landmark(x: $0[0], y: $0[1], z: $0[2]) })
                let category = try #require(result.handedness[i].first)
                #expect(category.categoryName == ref.handedness[0].category_name && category.index == ref.handedness[0].index, "\(stem) hand \(i)")
                worstMean = worse(worstMean, mean)
                worstWorld = worse(worstWorld, world)
                worstScore = worse(worstScore, abs(category.score - ref.handedness[0].score))
                #expect(mean <= Self.meanTolerance && world <= Self.worldTolerance, "\(stem) hand \(i): mean \(mean), world \(world) m")
                #expect(abs(category.score - ref.handedness[0].score) <= Self.scoreTolerance, "\(stem) hand \(i)")
                hands += 1
            }
        }
        print("[Hand Tasks] \(hands) hands; worst mean error \(worstMean) of the width, world \(worstWorld) m, handedness score \(worstScore)")
        #expect(hands >= 15)
    }
}
