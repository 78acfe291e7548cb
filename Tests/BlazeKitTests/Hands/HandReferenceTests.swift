import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// Image mode, `numHands = 2`, on every photo of the shared test set against MediaPipe 0.10.21's
/// legacy hands JSON: full nets vs `model_complexity_1`, lite nets vs `model_complexity_0`.
@Suite("Hand reference photos", .serialized)
struct HandReferenceTests {
    /// Mean landmark error as a fraction of the width, world landmarks in metres, handedness
    /// scores: 3× the worst measured over both variants (docs/testing.md).
    static let meanTolerance: Float = 7.6e-5
    static let worldTolerance: Float = 3.3e-4
    static let scoreTolerance: Float = 4.6e-3

    @Test(arguments: [HandModelVariant.full, .lite])
    func everyPhotoMatchesMediaPipe(variant: HandModelVariant) throws {
        let landmarker = try HandTestData.landmarker(variant, numHands: 2)
        let complexity = variant == .full ? 1 : 0
        var worstMean: Float = 0, worstWorld: Float = 0, worstScore: Float = 0
        var handCount = 0
        var lines: [String] = []
        for name in try HandTestData.photoNames() {
            let stem = HandTestData.stem(name)
            let image = try HandTestData.photo(name)
            let reference = try HandTestData.reference(stem, complexity: complexity)
            #expect(image.uprightWidth == reference.width && image.uprightHeight == reference.height)
            let result = try landmarker.detect(image: image)
            #expect(result.landmarks.count == reference.hands.count, "\(variant) \(stem): \(result.landmarks.count) hands, reference \(reference.hands.count)")
            guard result.landmarks.count == reference.hands.count else { continue }
            #expect(result.worldLandmarks.count == result.landmarks.count && result.handedness.count == result.landmarks.count)
            #expect(result.trackingIDs.isEmpty && result.timestampInMilliseconds == 0)
            let match = handMatch(result.landmarks, reference.hands.map(\.landmarks), width: reference.width, height: reference.height)
            var photoMean: Float = 0, photoWorld: Float = 0
            for (i, r) in match.enumerated() {
                let ref = reference.hands[r]
                #expect(result.landmarks[i].count == 21 && result.worldLandmarks[i].count == 21)
                let mean = handMeanLandmarkError(result.landmarks[i], ref.landmarks, width: reference.width, height: reference.height)
                let world = handMaxWorldError(result.worldLandmarks[i], ref.world)
                photoMean = worse(photoMean, mean)
                photoWorld = worse(photoWorld, world)
                let category = try #require(result.handedness[i].first)
                #expect(result.handedness[i].count == 1)
                #expect(category.categoryName == handSwappedLabel(ref.label), "\(variant) \(stem) hand \(i)")
                #expect(category.displayName == category.categoryName)
                #expect(category.index == ref.index)
                worstScore = worse(worstScore, abs(category.score - ref.score))
                #expect(mean <= Self.meanTolerance, "\(variant) \(stem) hand \(i): mean error \(mean * 100) % of width")
                #expect(world <= Self.worldTolerance, "\(variant) \(stem) hand \(i): world error \(world * 1000) mm")
            }
            handCount += match.count
            worstMean = worse(worstMean, photoMean)
            worstWorld = worse(worstWorld, photoWorld)
            if !match.isEmpty {
                lines.append(String(format: "  %@: %d hands, mean error %.4f %% of width, world max %.3f mm", stem, match.count, photoMean * 100, photoWorld * 1000))
            }
        }
        print(
            "[Hand] \(variant) vs MediaPipe legacy complexity \(complexity): \(handCount) hands; worst mean error \(worstMean * 100) % of width, worst world error \(worstWorld * 1000) mm, worst handedness score difference \(worstScore)"
        )
        print(lines.joined(separator: "\n"))
        #expect(worstScore <= Self.scoreTolerance)
        let stats = landmarker.statistics
        #expect(stats.palmDetectionRuns == stats.framesProcessed)
    }
}
