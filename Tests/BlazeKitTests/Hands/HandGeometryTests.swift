import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// Orientation, the `mirrored` option and the region of interest.
@Suite("Hand geometry options")
struct HandGeometryTests {
    /// All 8 orientations of the same upright picture give the same hands in upright
    /// coordinates (the orientation is folded into the crops' integer pixel map, so the nets see
    /// the same pixels; mirrored orientations need no handedness flip).
    @Test(arguments: ["woman_sitting_street.jpg", "hagrid_call_17d804b5.jpg"])
    func everyOrientationGivesTheSameHands(photo: String) throws {
        let landmarker = try HandTestData.landmarker(.full, numHands: 2)
        let upright = try HandTestData.photo(photo)
        let expected = try landmarker.detect(image: upright)
        #expect(expected.landmarks.count == 2)
        var worst: Float = 0
        for orientation in ImageOrientation.allCases {
            let image = try upright.handTestStored(as: orientation)
            #expect(image.uprightWidth == upright.uprightWidth && image.uprightHeight == upright.uprightHeight)
            let result = try landmarker.detect(image: image)
            #expect(result.landmarks.count == expected.landmarks.count, "\(orientation)")
            guard result.landmarks.count == expected.landmarks.count else { continue }
            #expect(
                result.handedness == expected.handedness
                    || zip(result.handedness, expected.handedness).allSatisfy {
                        $0[0].categoryName == $1[0].categoryName && $0[0].index == $1[0].index && abs($0[0].score - $1[0].score) < 1e-4
                    }, "\(orientation)")
            for (a, b) in zip(result.landmarks, expected.landmarks) {
                worst = worse(worst, handMeanLandmarkError(a, b, width: upright.uprightWidth, height: upright.uprightHeight))
            }
        }
        print("[Hand] \(photo): 8 orientations, worst mean landmark difference to .up \(worst * 100) % of width")
        #expect(worst < 1e-4)
    }

    /// `mirrored` swaps handedness name and index, never the score or the landmarks.
    @Test func mirroredSwapsNameAndIndexOnly() throws {
        let image = try HandTestData.photo("woman_sitting_street.jpg")
        let plain = try HandTestData.landmarker(.full, numHands: 2).detect(image: image)
        let mirrored = try HandTestData.landmarker(.full, numHands: 2) { $0.mirrored = true }.detect(image: image)
        #expect(plain.landmarks == mirrored.landmarks)
        #expect(plain.worldLandmarks == mirrored.worldLandmarks)
        #expect(plain.handedness.count == 2)
        for (p, m) in zip(plain.handedness, mirrored.handedness) {
            #expect(m[0].score == p[0].score)
            #expect(m[0].index == 1 - p[0].index)
            #expect(m[0].categoryName == handSwappedLabel(p[0].categoryName ?? ""))
            #expect(m[0].categoryName == (m[0].index == 0 ? "Right" : "Left"))
        }
        // The photo has one right and one left hand; both names appear either way.
        #expect(Set(plain.handedness.map { $0[0].categoryName }) == ["Right", "Left"])
    }

    /// A horizontally flipped selfie buffer tagged `.up` reports the other hands; the same buffer
    /// with `mirrored: true` reports the real ones, as the unflipped photo does.
    @Test func mirroredOptionUndoesASelfieFlip() throws {
        let photo = try HandTestData.photo("hagrid_call_17d804b5.jpg")
        let flipped = try photo.handTestStored(as: .upMirrored)  // stored = horizontal flip of the photo
        let selfie = try VisionImage(copying: flipped.handTestStoredBytes(), width: flipped.width, height: flipped.height, format: .rgb8)
        let truth = try HandTestData.landmarker(.full, numHands: 2).detect(image: photo)
        let asIs = try HandTestData.landmarker(.full, numHands: 2).detect(image: selfie)
        let fixed = try HandTestData.landmarker(.full, numHands: 2) { $0.mirrored = true }.detect(image: selfie)
        #expect(truth.landmarks.count == 2 && asIs.landmarks.count == 2 && fixed.landmarks.count == 2)
        func names(_ r: HandLandmarkerResult) -> [String] {
            // Ordered by the wrist's x in the *real* scene.
            zip(r.landmarks, r.handedness).sorted { $0.0[0].x < $1.0[0].x }.map { $0.1[0].categoryName ?? "" }
        }
        func namesFlipped(_ r: HandLandmarkerResult) -> [String] {
            zip(r.landmarks, r.handedness).sorted { $0.0[0].x > $1.0[0].x }.map { $0.1[0].categoryName ?? "" }
        }
        #expect(namesFlipped(fixed) == names(truth))
        #expect(namesFlipped(asIs) == names(truth).map(handSwappedLabel))
    }

    /// A region of interest over the left half of `two_hands_open_palms.jpg` returns only the
    /// hand on the left, with the same landmarks as without the region.
    @Test func regionOfInterestLimitsTheSearch() throws {
        let landmarker = try HandTestData.landmarker(.full, numHands: 2)
        let image = try HandTestData.photo("two_hands_open_palms.jpg")
        let all = try landmarker.detect(image: image)
        #expect(all.landmarks.count == 2)
        let left = NormalizedRect(xCenter: 0.25, yCenter: 0.5, width: 0.5, height: 1)
        let result = try landmarker.detect(image: image, regionOfInterest: left)
        #expect(result.landmarks.count == 1)
        let hand = try #require(result.landmarks.first)
        let meanX = hand.map(\.x).reduce(0, +) / Float(hand.count)
        #expect(meanX < 0.5)
        // The same hand as in the full-image result, within a small tolerance (its palm was
        // detected on a differently letterboxed crop).
        let same = try #require(all.landmarks.min { abs($0[0].x - hand[0].x) < abs($1[0].x - hand[0].x) })
        let difference = handMeanLandmarkError(hand, same, width: image.uprightWidth, height: image.uprightHeight)
        print("[Hand] ROI left half: 1 hand, mean difference to the full-image hand \(difference * 100) % of width")
        #expect(difference < 0.005)
        // The right half finds the other one.
        let right = try landmarker.detect(image: image, regionOfInterest: NormalizedRect(xCenter: 0.75, yCenter: 0.5, width: 0.5, height: 1))
        #expect(right.landmarks.count == 1)
        #expect((right.landmarks.first?.map(\.x).reduce(0, +) ?? 0) / 21 > 0.5)
    }

    @Test func invalidRegionsAreTypedErrors() throws {
        let landmarker = try HandTestData.landmarker(.lite, numHands: 1)
        let image = try VisionImage(width: 64, height: 64, format: .rgb8)
        for bad in [
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 0),
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: -1, height: 1),
            NormalizedRect(xCenter: .nan, yCenter: 0.5, width: 1, height: 1)
        ] {
            #expect {
                try landmarker.detect(image: image, regionOfInterest: bad)
            } throws: { error in
                if case .invalidRegionOfInterest = error as? HandLandmarkerError { return true }
                return false
            }
        }
    }

    @Test func connectionSetsMatchMediaPipe() {
        #expect(HandLandmarker.handConnections.count == 21)
        #expect(Set(HandLandmarker.handConnections).count == 21)
        #expect(HandLandmarker.handPalmConnections.map { [$0.start, $0.end] } == [[0, 1], [0, 5], [9, 13], [13, 17], [5, 9], [0, 17]])
        #expect(HandLandmarker.handThumbConnections.map { [$0.start, $0.end] } == [[1, 2], [2, 3], [3, 4]])
        #expect(HandLandmarker.handPinkyConnections.map { [$0.start, $0.end] } == [[17, 18], [18, 19], [19, 20]])
        #expect(HandLandmark.allCases.count == 21)
        #expect(HandLandmark.indexFingerTip.rawValue == 8 && HandLandmark.indexFingerTip.mediaPipeName == "INDEX_FINGER_TIP")
        #expect(HandLandmark.pinkyTip.rawValue == 20)
    }
}

extension VisionImage {
    /// The stored pixels of a packed RGB8 image, tightly packed.
    func handTestStoredBytes() throws -> [UInt8] {
        precondition(format == .rgb8)
        return withUnsafePlanes { planes in
            var out: [UInt8] = []
            for y in 0..<height {
                let start = y * planes[0].bytesPerRow
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: planes[0].bytes[start..<(start + width * 3)]))
            }
            return out
        }
    }
}
