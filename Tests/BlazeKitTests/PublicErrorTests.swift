import Foundation
import Testing
// Deliberately `BlazeKit` alone (no BlazeEngine): what an app imports. Top-level names are looked
// up per file, so `BlazeError` below compiles only because BlazeKit re-exports it.
import BlazeKit

/// Errors a newcomer meets: catchable with `import BlazeKit` alone, and `localizedDescription` is
/// the message (not Foundation's "The operation could not be completed. (… error 1.)").
@Suite struct PublicErrorTests {
    @Test func blazeErrorComesWithBlazeKitAndIsLocalized() {
        do {
            _ = try VisionImage(width: 0, height: 10, format: .rgb8)
            Issue.record("a 0-pixel-wide image was accepted")
        } catch let error as BlazeError {
            #expect(error.kind == .invalidInput)
            #expect(error.localizedDescription == error.description)
            #expect(error.localizedDescription == "invalid image size 0×10 (each side must be in 1…\(VisionImage.maxSide))", "\(error.localizedDescription)")
            #expect(!error.localizedDescription.contains("could not be completed"))
        } catch {
            Issue.record("expected a BlazeError, got \(type(of: error)): \(error)")
        }
    }

    @Test func handLandmarkerErrorIsLocalized() {
        var options = HandLandmarkerOptions()
        options.numHands = 0
        do {
            _ = try HandLandmarker(options: options)
            Issue.record("numHands 0 was accepted")
        } catch {
            #expect(error.localizedDescription == "numHands must be in 1…\(HandLandmarkerOptions.maximumNumHands), got 0")
        }
    }
}
