import BlazeKit
import Foundation
import Testing

/// Crops against OpenCV references made by `Tools/fixtures/images/make_crop_fixtures.py`
/// (cvtColor + getPerspectiveTransform + warpPerspective driven as docs/pipelines.md §S1, OpenCV 4.14).
///
/// Tolerance: none. The crop samples at OpenCV's own fixed-point positions (`OpenCVWarpMap`), so
/// every value equals OpenCV's, rounding ties included.
@Suite struct CropFixtureTests {
    struct Manifest: Decodable {
        struct Source: Decodable { let name, file, format: String; let width, height: Int }
        struct Case: Decodable {
            let source: String, orientation: Int, roiName: String
            let roi: [Float]?
            let tensorWidth, tensorHeight: Int
            let keepAspectRatio: Bool
            let border: String
            let expectedOffset: Int
            let projection: [Float]
            let padding: [Float]
        }
        let opencv: String
        let sources: [Source]
        let cases: [Case]
    }

    struct Outcome {
        var values = 0, differing = 0, nonIntegers = 0, maxDiff = 0
        var failures: [String] = []
    }

    static func run(filter: (Manifest.Case) -> Bool) throws -> Outcome {
        let manifest = try JSONDecoder().decode(Manifest.self, from: fixtureData("crops/manifest.json"))
        let expected = [UInt8](try fixtureData("crops/expected.bin"))
        var images: [String: VisionImage] = [:]
        for s in manifest.sources {
            let bytes = try fixtureData("crops/" + s.file)
            let format = try #require(pixelFormat(named: s.format))
            images[s.name] = try VisionImage(copying: bytes, width: s.width, height: s.height, format: format)
        }
        var outcome = Outcome()
        for c in manifest.cases where filter(c) {
            var image = try #require(images[c.source])
            image.orientation = try #require(ImageOrientation(exifValue: c.orientation))
            let roi = c.roi.map { NormalizedRect(xCenter: $0[0], yCenter: $0[1], width: $0[2], height: $0[3], rotation: $0[4]) }
            let options = ImageToTensorOptions(
                width: c.tensorWidth, height: c.tensorHeight, keepAspectRatio: c.keepAspectRatio,
                borderMode: c.border == "zero" ? .zero : .replicate, outputRange: 0...255)
            let (tensor, transform) = try image.toTensor(roi: roi, options: options)
            let label = "\(c.source) exif \(c.orientation) \(c.roiName) \(c.border)"
            for (i, m) in transform.projection.enumerated() where abs(m - c.projection[i]) > 1e-6 {
                outcome.failures.append("\(label): projection[\(i)] \(m) vs \(c.projection[i])")
            }
            let pad = transform.padding
            if [pad.left, pad.top, pad.right, pad.bottom] != c.padding {
                outcome.failures.append("\(label): padding \(pad) vs \(c.padding)")
            }
            for i in 0..<tensor.count {
                let want = Int(expected[c.expectedOffset + i])
                outcome.values += 1
                // OpenCV's crop yields whole levels: a fraction, NaN or ∞ here is a bug, never a tie.
                guard tensor[i].isFinite, tensor[i].rounded() == tensor[i] else {
                    outcome.nonIntegers += 1
                    if outcome.failures.count < 20 { outcome.failures.append("\(label): value \(i) is \(tensor[i]), not a whole level (OpenCV \(want))") }
                    continue
                }
                let got = Int(tensor[i])
                guard got != want else { continue }
                outcome.differing += 1
                outcome.maxDiff = max(outcome.maxDiff, abs(got - want))
                if outcome.failures.count < 20 {
                    outcome.failures.append("\(label): value \(i) (u \(i / 3 % c.tensorWidth), v \(i / 3 / c.tensorWidth)) \(got) vs OpenCV \(want)")
                }
            }
        }
        return outcome
    }

    static func check(_ o: Outcome, _ what: String) {
        #expect(o.values > 0, "\(what): no cases")
        #expect(o.failures.isEmpty, "\(what): \(o.failures.joined(separator: "\n"))")
        #expect(o.nonIntegers == 0)
        #expect(o.differing == 0, "\(what): \(o.differing) of \(o.values) values differ (max \(o.maxDiff))")
        print("crop fixtures \(what): \(o.values) values, \(o.differing) differ")
    }

    static func isFixedCase(_ c: Manifest.Case) -> Bool { !c.roiName.hasPrefix("random") && c.roiName != "ties" }

    @Test(arguments: [
        "rgb_67x45", "bgra_67x45", "gray_23x29", "nv12_66x44", "nv21_66x44", "nv12full_66x44",
        "i420_66x44", "i420full_66x44"
    ])
    func uprightFormatsMatchOpenCV(source: String) throws {
        Self.check(try Self.run { $0.source == source && $0.orientation == 1 && Self.isFixedCase($0) }, source)
    }

    @Test(arguments: 1...8)
    func orientationsMatchOpenCV(exif: Int) throws {
        Self.check(
            try Self.run { $0.orientation == exif && ($0.source == "rgb_67x45" || $0.source == "nv12_66x44") && Self.isFixedCase($0) },
            "orientation \(exif)")
    }

    /// 60 random ROIs (any rotation, size, letterbox, border, orientation; RGB and NV12).
    @Test func randomROIsMatchOpenCV() throws {
        Self.check(try Self.run { $0.roiName.hasPrefix("random") }, "random ROIs")
    }

    /// A 64×48 image and a ROI that puts every other sample exactly on a 1/32-px tie, where
    /// OpenCV's matrix rounding noise decides the rounding: equal there too.
    @Test func exactRoundingTies() throws {
        Self.check(try Self.run { $0.roiName == "ties" }, "exact ties")
    }
}
