import BlazeImageIO
import BlazeKit
import BlazeTestSupport
import Foundation
import Testing

/// The clips of Fixtures/, made by Tools/fixtures/video/make_video_clips.sh from the committed
/// test photos. Each `<clip>.y4m` is the ffmpeg program's own decode of `<clip>` (display matrix
/// applied) and each `<clip>.pts.json` is ffprobe's list of its frames' presentation times: both
/// independent of BlazeVideo.
enum VideoFixtures {
    static let folder = RepoPaths.root.appendingPathComponent("Tests/BlazeVideoTests/Fixtures")
    static let faceClips = ["faces_h264.mp4", "faces_vp9.webm", "faces_mpeg4.mkv"]

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The planes of a frame as bytes (rows without padding).
    static func bytes(_ image: VisionImage) -> [UInt8] {
        image.withUnsafePlanes { planes in
            var out: [UInt8] = []
            for (index, plane) in planes.enumerated() {
                let g = image.format.planeGeometry(index, width: image.width, height: image.height)
                for row in 0..<g.height {
                    out += UnsafeRawBufferPointer(rebasing: plane.bytes[(row * plane.bytesPerRow)..<(row * plane.bytesPerRow + g.minBytesPerRow)])
                }
            }
            return out
        }
    }

    /// Whether this platform's FFmpeg decodes `clip` to exactly its `.y4m` (made by x86-64 ffmpeg).
    /// MPEG-4 Part 2 leaves the inverse DCT to the decoder (IEEE 1180 accuracy only), and FFmpeg's
    /// aarch64 build has IDCT code of its own; H.264 and VP9 decoding is bit-exact everywhere.
    static func decodesLikeItsY4M(_ clip: String) -> Bool {
        #if arch(x86_64)
            true
        #else
            clip != "faces_mpeg4.mkv"
        #endif
    }

    /// How far a frame may be from ffmpeg's: the largest sample difference, and the fraction of
    /// samples that may differ at all.
    typealias Bound = (maxDifference: Float, differingFraction: Double)

    /// Expects `ours` to equal ffmpeg's `theirs` sample by sample within `bound` (`what` names the
    /// comparison in the message); any difference is printed, as a measurement.
    static func expect(
        _ ours: VideoFrame, near theirs: VideoFrame, within bound: Bound, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let a = bytes(ours.image).map(Float.init), b = bytes(theirs.image).map(Float.init)
        let worst = a.count == b.count ? maxAbsDifference(a, b) : .infinity
        let differing = zip(a, b).filter { $0 != $1 }.count
        let message = "\(what) frame \(ours.index): \(differing) of \(a.count) samples differ, max |Δ| \(worst)"
        if differing > 0 { print("[Video] \(message)") }
        #expect(
            worst <= bound.maxDifference && Double(differing) <= bound.differingFraction * Double(a.count), "\(message)",
            sourceLocation: sourceLocation)
    }

    /// ffprobe's presentation times of `clip`'s frames in milliseconds, rounded down.
    static func presentationMilliseconds(_ clip: String) throws -> [Int] {
        let data = try Data(contentsOf: folder.appendingPathComponent(clip + ".pts.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let frames = object?["frames"] as? [[String: Any]] ?? []
        return frames.compactMap { ($0["best_effort_timestamp_time"] as? String).flatMap(Double.init) }
            .map { Int(($0 * 1000 + 1e-6).rounded(.down)) }
    }
}
