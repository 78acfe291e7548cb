import BlazeKit
import Foundation
import Testing

/// §S1 step 5: the map is rounded to 1/32 px with round-half-to-even.
@Suite struct FixedPointTests {
    /// A 2×1 gray image `[0, 64]` sampled at x = 0.5/32, 1.5/32, 2.5/32 (exact ties; the ROI values
    /// are exact in Float32). Half-to-even picks X = 0, 2, 2 → 0, 4, 4 (half-up would give 2, 4, 6).
    @Test func roundHalfToEvenIn32ndsOfAPixel() throws {
        let image = try VisionImage(copying: [0, 64] as [UInt8], width: 2, height: 1, format: .gray8)
        var values: [Float] = []
        for sx in [0.5 / 32, 1.5 / 32, 2.5 / 32] as [Float] {
            // Tensor 1×1 samples the ROI corner: sx = cx − rw/2 with rw = 1 px, cx = sx + 0.5.
            let roi = NormalizedRect(xCenter: (sx + 0.5) / 2, yCenter: 0.5, width: 0.5, height: 1)
            let t = try image.toTensor(roi: roi, options: ImageToTensorOptions(width: 1, height: 1, outputRange: 0...255))
            values.append(t.tensor[0])
        }
        #expect(values == [0, 4, 4])
    }

    /// Crops from many threads at once equal the single-threaded crop (the image is shared).
    @Test func concurrentCropsAgree() async throws {
        var image = try VisionImage(width: 64, height: 48, format: .nv12(.video), orientation: .right)
        image.withUnsafeMutablePlanes { planes in
            for p in planes { for i in 0..<p.bytes.count { p.bytes[i] = UInt8(truncatingIfNeeded: i &* 37) } }
        }
        let options = ImageToTensorOptions(width: 32, height: 32, keepAspectRatio: true, borderMode: .zero, outputRange: -1...1)
        let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.45, width: 0.6, height: 0.5, rotation: 0.7)
        let reference = try image.toTensor(roi: roi, options: options).tensor
        let shared = image
        let results = try await withThrowingTaskGroup(of: [Float].self) { group in
            for _ in 0..<8 { group.addTask { try shared.toTensor(roi: roi, options: options).tensor } }
            return try await group.reduce(into: [[Float]]()) { $0.append($1) }
        }
        #expect(results.count == 8 && results.allSatisfy { $0 == reference })
    }
}
