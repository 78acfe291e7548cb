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
