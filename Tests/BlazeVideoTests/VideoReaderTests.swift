import BlazeEngine
import BlazeImageIO
import BlazeKit
import BlazeTestSupport
@testable import BlazeVideo
import Foundation
import Testing

/// `VideoReader` against the ffmpeg program's decode of the same clips (see VideoFixtures).
@Suite("VideoReader")
struct VideoReaderTests {
    func frames(_ source: FrameSource) throws -> [VideoFrame] {
        var all: [VideoFrame] = []
        while let frame = try source.nextFrame() { all.append(frame) }
        return all
    }

    /// A clip that does not decode exactly like its `.y4m` here (`VideoFixtures.decodesLikeItsY4M`):
    /// 3× the worst measured, the MPEG-4 clip under qemu-aarch64 with FFmpeg 9.0 (22 of 38,016
    /// samples differ by 1 in every frame; docs/testing.md).
    static let otherIDCTBound: VideoFixtures.Bound = (3, 0.0018)

    @Test(arguments: VideoFixtures.faceClips + ["hands_h264.mp4"])
    func framesEqualFFmpegsOwnDecodeWithTheContainersTimes(clip: String) throws {
        let reader = try VideoReader(path: VideoFixtures.path(clip))
        #expect(reader.info.width == 176 && reader.info.height == 144)
        #expect(reader.info.orientation == .up)
        let decoded = try frames(reader)
        let reference = try frames(Y4MReader(path: VideoFixtures.path(clip + ".y4m")))
        #expect(decoded.count == 8 && reference.count == 8)
        let bound: VideoFixtures.Bound = VideoFixtures.decodesLikeItsY4M(clip) ? (0, 0) : Self.otherIDCTBound
        for (ours, theirs) in zip(decoded, reference) {
            #expect(ours.image.format == .i420(.video) && theirs.image.format == .i420(.video))
            VideoFixtures.expect(ours, near: theirs, within: bound, "\(clip), against ffmpeg's decode:")
        }
        #expect(decoded.map(\.timestampInMilliseconds) == (try VideoFixtures.presentationMilliseconds(clip)))
        #expect(decoded.map(\.index) == Array(0..<8))
    }

    @Test func containerFactsAreReported() throws {
        let mp4 = try VideoReader(path: VideoFixtures.path("faces_h264.mp4"))
        #expect(mp4.info.codec == "h264" && mp4.info.frameCount == 8 && mp4.info.isSeekable)
        #expect(mp4.info.frameRateNumerator == 30000 && mp4.info.frameRateDenominator == 1001)
        let duration = try #require(mp4.info.duration)
        #expect(abs(duration - 8 * 1001 / 30000) < 0.01, "\(duration)")
        let webm = try VideoReader(path: VideoFixtures.path("faces_vp9.webm"))
        #expect(webm.info.codec == "vp9" && webm.info.container.contains("webm"))
        let mkv = try VideoReader(path: VideoFixtures.path("faces_mpeg4.mkv"))
        #expect(mkv.info.codec == "mpeg4" && mkv.info.framesPerSecond == 25)
    }

    @Test func aPhoneClipsDisplayMatrixBecomesTheFramesOrientation() throws {
        // Stored 144×176 (turned counter-clockwise), shown upright at 176×144 (ffprobe: rotation -90).
        let reader = try VideoReader(path: VideoFixtures.path("faces_rotated90.mp4"))
        #expect(reader.info.width == 144 && reader.info.height == 176 && reader.info.orientation == .right)
        let first = try #require(try reader.nextFrame())
        #expect(first.image.orientation == .right)
        #expect(first.image.uprightWidth == 176 && first.image.uprightHeight == 144)
    }

    @Test func aTruncatedFileKeepsItsFirstFramesThenThrows() throws {
        let reader = try VideoReader(path: VideoFixtures.path("truncated.mkv"))
        var count = 0
        let error = #expect(throws: BlazeError.self) {
            while try reader.nextFrame() != nil { count += 1 }
        }
        // ffmpeg decodes 5 frames of this file too (`ffmpeg -i truncated.mkv -f null -`).
        #expect(count == 5)
        #expect(error?.message.contains("truncated") == true, "\(String(describing: error))")
        #expect(try reader.nextFrame() == nil, "the error is thrown once")
    }

    @Test func badInputsAreTypedErrors() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        for (path, needle) in [
            (VideoFixtures.path("not_a_video.mp4"), "cannot open as a video"),
            (scratch.path("missing.mp4"), "No such file"),
            (scratch.url.path, "is a folder")
        ] {
            let error = #expect(throws: BlazeError.self) { try VideoReader(path: path) }
            #expect(error?.description.contains(needle) == true, "\(path): \(String(describing: error))")
        }
        let unknown = #expect(throws: BlazeError.self) { try VideoReader(path: VideoFixtures.path("unknown_codec.mkv")) }
        #expect(unknown?.kind == .unsupported)
        try Data(repeating: 0, count: 0).write(to: scratch.url.appendingPathComponent("empty.mkv"))
        #expect(throws: BlazeError.self) { try VideoReader(path: scratch.path("empty.mkv")) }
    }

    /// A library FFmpeg's headers name but the machine lacks is an `.unsupported` error naming
    /// it and its Debian package (video opens libavformat and libavcodec at run time).
    @Test func missingFFmpegLibraryIsACleanError() throws {
        let error = try #require(FFmpegLibraries.open("libblaze-missing", major: 7))
        #expect(error.kind == .unsupported)
        #expect(error.description.contains("libblaze-missing.so.7") && error.description.contains("Debian: libblaze-missing7"), "\(error)")
        #expect(throws: Never.self) { try FFmpegLibraries.open() }
    }

    @Test func camerasThatDoNotExistAreCleanErrors() throws {
        // No camera exists on the build machines: a missing device and a device that is not V4L2.
        let missing = #expect(throws: BlazeError.self) { try VideoReader(camera: "/dev/video-blaze-missing") }
        #expect(missing?.description.contains("no camera") == true)
        let notCharacter = #expect(throws: BlazeError.self) { try VideoReader(camera: VideoFixtures.path("faces_h264.mp4")) }
        #expect(notCharacter?.description.contains("character device") == true)
        // A character device that is no camera reaches V4L2's open: libavdevice was loaded and
        // registered its inputs (otherwise `.unsupported`, naming the library or V4L2).
        let notV4L2 = #expect(throws: BlazeError.self) { try VideoReader(camera: "/dev/null") }
        #expect(notV4L2?.kind == .invalidInput && notV4L2?.description.contains("cannot open as a video") == true, "\(String(describing: notV4L2))")
    }
}
