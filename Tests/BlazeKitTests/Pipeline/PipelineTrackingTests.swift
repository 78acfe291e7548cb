import Testing
@testable import BlazeKit

/// S11 association and de-duplication, §5.4 tracking IDs, on hand-computed cases.
@Suite struct PipelineTrackingTests {
    static func rect(_ x: Float, _ y: Float, _ w: Float = 0.2, _ h: Float = 0.2, rotation: Float = 0) -> NormalizedRect {
        NormalizedRect(xCenter: x, yCenter: y, width: w, height: h, rotation: rotation)
    }

    @Test func rectIoUIgnoresRotation() {
        let a = Self.rect(0.5, 0.5), b = Self.rect(0.55, 0.5, rotation: 1.2)
        // Unrotated boxes: [0.4, 0.6] vs [0.45, 0.65] → inter 0.15·0.2, union 2·0.04 − 0.03.
        #expect(abs(a.intersectionOverUnion(with: b) - 0.03 / 0.05) < 1e-6)
        #expect(a.intersectionOverUnion(with: .allZero) == 0)
        #expect(Self.rect(0.5, 0.5, 0.25).intersectionOverUnion(with: Self.rect(0.75, 0.5, 0.25)) == 0)  // touching
    }

    @Test func normRectAssociationLaterListsWin() {
        let a = Self.rect(0.3, 0.3), b = Self.rect(0.7, 0.7), c = Self.rect(0.31, 0.3)
        #expect(associateRects([[a, b], [c]], threshold: 0.5) == [b, c])
        // Within one list the later rect replaces an overlapping earlier one.
        #expect(associateRects([[a, c, b]], threshold: 0.5) == [c, b])
        #expect(associateRects([[], [a]], threshold: 0.5) == [a])
        #expect(associateRects([[NormalizedRect]](), threshold: 0.5).isEmpty)
    }

    @Test func associationThresholdIsStrict() {
        // IoU exactly 0.5: [0, 0.4]×[0, 0.2] vs [0, 0.2]×[0, 0.2] (float-exact sizes).
        let big = NormalizedRect(xCenter: 0.25, yCenter: 0.125, width: 0.5, height: 0.25)
        let small = NormalizedRect(xCenter: 0.125, yCenter: 0.125, width: 0.25, height: 0.25)
        #expect(big.intersectionOverUnion(with: small) == 0.5)
        #expect(associateRects([[big], [small]], threshold: 0.5) == [big, small])
        #expect(associateRects([[big], [small]], threshold: 0.4) == [small])
        #expect(associateHandRects(base: [big], new: [small], threshold: 0.5) == [big, small])
        #expect(associateHandRects(base: [big], new: [small], threshold: 0.4) == [big])
    }

    @Test func handAssociationKeepsTrackedRects() {
        let tracked = Self.rect(0.3, 0.3), overlapping = Self.rect(0.31, 0.3), d = Self.rect(0.7, 0.7), d2 = Self.rect(0.71, 0.7)
        #expect(associateHandRects(base: [tracked], new: [overlapping, d], threshold: 0.5) == [tracked, d])
        // A detector rect is also checked against detector rects appended before it.
        #expect(associateHandRects(base: [tracked], new: [d, d2], threshold: 0.5) == [tracked, d])
        // The all-zero "no palm" rect overlaps nothing and passes (dropped later by the S1 sentinel).
        #expect(associateHandRects(base: [tracked], new: [.allZero], threshold: 0.5) == [tracked, .allZero])
    }

    @Test func trackingIDsTasksFaceOrder() {
        var ids = TrackingIDAllocator()
        let first = ids.associateFaces(tracked: [], detected: [Self.rect(0.3, 0.3), Self.rect(0.7, 0.7)], threshold: 0.5)
        #expect(first.map(\.trackingID) == [1, 2])
        // Next frame: both tracked; the detector re-finds face 2 (replaces it, inherits 2) and a new face.
        let tracked = [TrackedRect(rect: Self.rect(0.3, 0.32), trackingID: 1), TrackedRect(rect: Self.rect(0.7, 0.7), trackingID: 2)]
        let second = ids.associateFaces(tracked: tracked, detected: [Self.rect(0.71, 0.7), Self.rect(0.5, 0.9)], threshold: 0.5)
        #expect(second.map(\.trackingID) == [1, 2, 3])
        #expect(second[1].rect == Self.rect(0.71, 0.7))
        #expect(ids.nextID == 4)
    }

    @Test func trackingIDsLegacyFaceOrderAndInheritance() {
        var ids = TrackingIDAllocator(firstID: 10)
        let tracked = [TrackedRect(rect: Self.rect(0.3, 0.3), trackingID: 4)]
        // Legacy: [detected, tracked]; the tracked rect removes the overlapping detection, keeps 4.
        let legacy = ids.associateFaces(
            tracked: tracked, detected: [Self.rect(0.31, 0.3), Self.rect(0.8, 0.8)],
            threshold: 0.5, detectorPriority: false)
        #expect(legacy.map(\.trackingID) == [10, 4])
        #expect(legacy[1].rect == Self.rect(0.3, 0.3))
        // A rect replacing two tracked rects inherits the ID of the last one removed.
        let two = [
            TrackedRect(rect: Self.rect(0.3, 0.3, 0.2, 0.2), trackingID: 1),
            TrackedRect(rect: Self.rect(0.32, 0.3, 0.2, 0.2), trackingID: 2)
        ]
        let merged = associateRects([two, [TrackedRect(rect: Self.rect(0.31, 0.3, 0.2, 0.2))]], threshold: 0.5)
        #expect(merged.map(\.trackingID) == [2])
    }

    @Test func trackingIDsHands() {
        var ids = TrackingIDAllocator()
        let tracked = [TrackedRect(rect: Self.rect(0.3, 0.3), trackingID: 7)]
        let out = ids.associateHands(tracked: tracked, detected: [Self.rect(0.31, 0.3), Self.rect(0.8, 0.8)], threshold: 0.5)
        #expect(out.map(\.trackingID) == [7, 1])
        #expect(out[0].rect == Self.rect(0.3, 0.3))
    }

    /// A plausible upright hand on a 100×100 image, shifted by (dx, dy).
    static func hand(dx: Float = 0, dy: Float = 0, scale: Float = 1) -> [NormalizedLandmark] {
        let base: [(Float, Float)] = [
            (0.50, 0.80), (0.42, 0.75), (0.37, 0.68), (0.34, 0.62), (0.32, 0.56),  // wrist, thumb
            (0.44, 0.60), (0.43, 0.50), (0.43, 0.44), (0.43, 0.39),  // index
            (0.50, 0.59), (0.50, 0.48), (0.50, 0.41), (0.50, 0.36),  // middle
            (0.56, 0.60), (0.57, 0.50), (0.57, 0.44), (0.57, 0.40),  // ring
            (0.61, 0.63), (0.63, 0.55), (0.64, 0.50), (0.65, 0.46)  // pinky
        ]
        return base.map { NormalizedLandmark(x: 0.5 + ($0.0 - 0.5) * scale + dx, y: 0.6 + ($0.1 - 0.6) * scale + dy) }
    }

    @Test func handDeduplication() {
        let a = Self.hand(), far = Self.hand(dx: 0.3), near = Self.hand(dx: 0.01)
        // Baseline of `a`: max(|0−5|, |5−17|, |17−0|) ≈ 23.3 px → threshold ≈ 4.7 px; 1 px shift matches all 21.
        #expect(deduplicatedHandIndices([a, far], imageSize: ImageSize(width: 100, height: 100)) == [0, 1])
        #expect(deduplicatedHandIndices([a, near], imageSize: ImageSize(width: 100, height: 100)) == [0])
        #expect(deduplicatedHandIndices([a, far, near], imageSize: ImageSize(width: 100, height: 100)) == [0, 1])
        // A shift of 6 px (> 0.2·baseline) matches no landmark: kept although the boxes overlap a lot.
        #expect(deduplicatedHandIndices([a, Self.hand(dx: 0.06)], imageSize: ImageSize(width: 100, height: 100)) == [0, 1])
        // Suppression is only against *retained* hands: near is dropped, near2 is compared with a only.
        let near2 = Self.hand(dx: 0.02)
        #expect(deduplicatedHandIndices([a, near, near2], imageSize: ImageSize(width: 100, height: 100)) == [0])
        // Pixels, not normalized units: on a 1000-px-wide image the 0.01 shift is 10 px > threshold in x?
        // The threshold scales with the baseline, which scales too — still a duplicate.
        #expect(deduplicatedHandIndices([a, near], imageSize: ImageSize(width: 1000, height: 1000)) == [0])
        #expect(deduplicatedHandIndices([], imageSize: ImageSize(width: 100, height: 100)).isEmpty)
    }
}
