import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation
import Testing

func fixtureURL(_ relativePath: String) throws -> URL {
    try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/" + relativePath)
}

func fixtureData(_ relativePath: String) throws -> Data {
    try Data(contentsOf: fixtureURL(relativePath))
}

/// FNV-1a, 64 bit (the photo fixtures store it for OpenCV's decode).
func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
    return h
}

/// The stored pixels of `image` as tightly packed RGB (gray replicated, alpha dropped), ignoring
/// the orientation: what OpenCV's `IMREAD_COLOR | IMREAD_IGNORE_ORIENTATION` returns.
func storedRGB(_ image: VisionImage) throws -> [UInt8] {
    var copy = image
    copy.orientation = .up
    let rgb = try copy.upright(as: .rgb8)
    return rgb.withUnsafePlanes { Array($0[0].bytes) }
}

/// The alpha channel of a stored RGBA8 image.
func storedAlpha(_ image: VisionImage) -> [UInt8] {
    image.withUnsafePlanes { planes in
        var out: [UInt8] = []
        for y in 0..<image.height {
            for x in 0..<image.width { out.append(planes[0].bytes[y * planes[0].bytesPerRow + 4 * x + 3]) }
        }
        return out
    }
}

/// Expects `body` to throw a `BlazeError` (and not to crash); returns it.
@discardableResult
func expectBlazeError<T>(_ what: String, _ body: () throws -> T) -> BlazeError? {
    do {
        _ = try body()
        Issue.record("\(what): expected an error")
        return nil
    } catch let error as BlazeError {
        return error
    } catch {
        Issue.record("\(what): unexpected error type \(error)")
        return nil
    }
}
