import BlazeImageIO
import BlazeKit
import BlazeTestSupport
import BlazeVideo
import Foundation
import Testing

/// A layout BlazeKit does not take as is — 10-bit 4:2:2, as cameras write — goes through swscale
/// to 8-bit I420 in `VideoReader`. The reference is the ffmpeg program's own bilinear conversion
/// of the same decode (the clip's `.y4m`, see VideoFixtures).
@Suite("VideoReader conversion")
struct VideoConversionTests {
    static let clip = "faces_h264_yuv422p10.mp4"
    /// swscale's output is not specified to the bit: it changes with FFmpeg's version and with the
    /// SIMD code it picks for the CPU. 3× the worst measured: FFmpeg 5.1 on x86-64 (Zen 4) matched
    /// the reference exactly; sid's arm64 FFmpeg 9.0 under qemu-aarch64 differed by 1
    /// in up to 912 of 38,016 samples of a frame (docs/testing.md).
    static let bound: VideoFixtures.Bound = (3, 0.072)

    @Test func tenBit422FramesAreConvertedLikeFFmpegDoes() throws {
        let reader = try VideoReader(path: VideoFixtures.path(Self.clip))
        let reference = try Y4MReader(path: VideoFixtures.path(Self.clip + ".y4m"))
        var count = 0
        while let ours = try reader.nextFrame() {
            let theirs = try #require(try reference.nextFrame())
            #expect(ours.image.format == .i420(.video) && ours.image.width == 176 && ours.image.height == 144)
            VideoFixtures.expect(ours, near: theirs, within: Self.bound, "\(Self.clip), against ffmpeg's conversion:")
            count += 1
        }
        #expect(count == 8)
        #expect(try reference.nextFrame() == nil)
    }

    /// Each reader frees the swscale context and the frame its conversion keeps between frames
    /// (once leaked by every reader of such a clip: some 130 KB each at this size). Measured as
    /// resident memory of a child process that runs this test alone, so that no other test
    /// allocates meanwhile.
    @Test func readersFreeWhatTheirConversionKept() throws {
        guard try ResidentMemory.measuredAlone("readersFreeWhatTheirConversionKept", printing: "RSS growth") else { return }
        func readOneFrame() throws {
            let reader = try VideoReader(path: VideoFixtures.path(Self.clip))
            #expect(try reader.nextFrame() != nil)
        }
        for _ in 0..<10 { try readOneFrame() }  // FFmpeg's one-time tables
        let before = try ResidentMemory.bytes()
        for _ in 0..<300 { try readOneFrame() }
        let growth = try ResidentMemory.bytes() - before
        print("[Video] RSS growth over 300 readers of \(Self.clip): \(growth / 1024) KB")
        #expect(!ResidentMemory.isOurs || growth < 8 << 20, "RSS grew by \(growth >> 10) KB over 300 readers")
    }
}
