import BlazeKit
import Foundation
import Testing

/// A file under this target's `Fixtures/` resource folder.
func fixtureURL(_ relativePath: String) throws -> URL {
    try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/" + relativePath)
}

func fixtureData(_ relativePath: String) throws -> Data {
    try Data(contentsOf: fixtureURL(relativePath))
}

/// Parses the fixture scripts' format names ("rgb8", "nv12_video", …).
func pixelFormat(named name: String) -> PixelFormat? {
    switch name {
    case "rgba8": .rgba8
    case "bgra8": .bgra8
    case "argb8": .argb8
    case "rgb8": .rgb8
    case "bgr8": .bgr8
    case "gray8": .gray8
    case "nv12_video": .nv12(.video)
    case "nv12_full": .nv12(.full)
    case "nv21_video": .nv21(.video)
    case "nv21_full": .nv21(.full)
    case "i420_video": .i420(.video)
    case "i420_full": .i420(.full)
    default: nil
    }
}

/// Deterministic pseudo-random bytes (SplitMix64), for generated test images.
struct TestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
