import BlazeImageIO
import BlazeTestSupport
import BlazeVideo
import Foundation
import Testing

/// `blaze faces|hands --video` on the committed clips (docs/cli.md). The reference for a clip is
/// `blaze --video -` fed the ffmpeg program's own decode of it as YUV4MPEG2 (`<clip>.y4m`, what
/// `ffmpeg -i clip -f yuv4mpegpipe - | blaze … --video -` gives): the same decoded frames, so the
/// same JSON but for `image`. Timestamps are checked against ffprobe's presentation times.
@Suite("blaze video")
struct BlazeVideoCLITests {
    let tool: URL

    init() throws {
        tool = try #require(ProcessRunner.executable("blaze"), "blaze not built next to the tests")
    }

    func blaze(_ args: [String], stdin: Data? = nil) throws -> ProcessResult {
        let r = try ProcessRunner.run(tool, args, stdin: stdin)
        #expect(!r.crashed, "blaze \(args) crashed: \(r.stderr)")
        return r
    }

    func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// A JSON line without the fields that legitimately differ between the two runs, re-encoded
    /// with sorted keys so that equal lines compare equal as text.
    func comparable(_ line: [String: Any], dropping keys: Set<String>) throws -> String {
        let kept = line.filter { !keys.contains($0.key) }
        return String(decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Clips whose decode equals their `.y4m` on this platform (all on x86-64; see VideoFixtures).
    @Test(
        arguments: [
            (["faces", "--all", "--tracking"], "faces_h264.mp4"), (["faces", "--all", "--tracking"], "faces_vp9.webm"),
            (["faces", "--all", "--tracking"], "faces_mpeg4.mkv"), (["hands", "--num-hands", "2"], "hands_h264.mp4")
        ].filter { VideoFixtures.decodesLikeItsY4M($0.1) })
    func aClipGivesWhatItsDecodedFramesGiveAsY4M(command: [String], clip: String) throws {
        let direct = try blaze(command + ["--json", "--video", VideoFixtures.path(clip)])
        #expect(direct.status == 0 && direct.stderr.isEmpty, "\(direct.stderr)")
        let y4m = try Data(contentsOf: VideoFixtures.folder.appendingPathComponent(clip + ".y4m"))
        let piped = try blaze(command + ["--json", "--video", "-"], stdin: y4m)
        #expect(piped.status == 0, "\(piped.stderr)")
        let a = try lines(direct.stdout), b = try lines(piped.stdout)
        #expect(a.count == 8 && b.count == 8)
        let key = command[0] == "faces" ? "faces" : "hands"
        #expect(a.allSatisfy { !(($0[key] as? [Any]) ?? []).isEmpty }, "every frame of \(clip) has a \(key == "faces" ? "face" : "hand")")
        // WebM stores milliseconds rounded to the nearest, the Y4M stream's times are index·1000/fps
        // rounded down: timestamps are compared with the container's own times instead.
        for (x, y) in zip(a, b) {
            #expect(
                try comparable(x, dropping: ["image", "timestampMs"]) == comparable(y, dropping: ["image", "timestampMs"]),
                "\(clip) frame \(x["frameIndex"] ?? "?")")
        }
        #expect(a.compactMap { $0["timestampMs"] as? Int } == (try VideoFixtures.presentationMilliseconds(clip)))
        #expect(a.allSatisfy { $0["image"] as? String == VideoFixtures.path(clip) })

        // The same .y4m as a file goes through Y4MReader, not FFmpeg: the same lines again.
        let file = try lines(try blaze(command + ["--json", "--video", VideoFixtures.path(clip + ".y4m")]).stdout)
        #expect(file.count == 8)
        for (x, y) in zip(file, b) {
            #expect(try comparable(x, dropping: ["image"]) == comparable(y, dropping: ["image"]), "\(clip).y4m frame \(x["frameIndex"] ?? "?")")
        }
    }

    @Test func aPhoneClipIsUprightLikeItsAutorotatedFrames() throws {
        let clip = "faces_rotated90.mp4"
        let direct = try lines(try blaze(["faces", "--json", "--video", VideoFixtures.path(clip)]).stdout)
        let rotated = try lines(
            try blaze(
                ["faces", "--json", "--video", "-"],
                stdin: try Data(contentsOf: VideoFixtures.folder.appendingPathComponent(clip + ".y4m"))
            ).stdout)
        #expect(direct.count == 8 && rotated.count == 8)
        for (x, y) in zip(direct, rotated) {
            #expect(x["width"] as? Int == 176 && x["height"] as? Int == 144, "upright size")
            let fx = try #require((x["faces"] as? [[String: Any]])?.first), fy = try #require((y["faces"] as? [[String: Any]])?.first)
            let bx = try #require(fx["frame"] as? [String: Double]), by = try #require(fy["frame"] as? [String: Double])
            for k in ["x", "y", "width", "height"] {
                #expect(abs(bx[k]! - by[k]!) <= 1e-3 * 176, "frame \(x["frameIndex"] ?? "?") \(k): \(bx[k]!) vs \(by[k]!)")
            }
        }
    }

    @Test(arguments: ["mp4", "mkv", "webm"])
    func annotatedVideosHaveTheInputsFramesAndSize(ext: String) throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let out = scratch.path("annotated.\(ext)")
        let r = try blaze(["faces", "--all", "--video", VideoFixtures.path("faces_h264.mp4"), "--annotate", out])
        #expect(r.status == 0, "\(r.stderr)")
        let input = try VideoReader(path: VideoFixtures.path("faces_h264.mp4"))
        let written = try VideoReader(path: out)
        #expect(written.info.width == input.info.width && written.info.height == input.info.height)
        #expect(written.info.framesPerSecond.map { abs($0 - 30000.0 / 1001) < 1e-6 } == true, "at the input's frame rate")
        var count = 0
        while try written.nextFrame() != nil { count += 1 }
        #expect(count == 8)
    }

    @Test func aTruncatedClipKeepsTheLinesBeforeTheDamage() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let out = scratch.path("annotated.mp4")
        let r = try blaze(["faces", "--json", "--video", VideoFixtures.path("truncated.mkv"), "--annotate", out])
        #expect(r.status == 1)
        let got = try lines(r.stdout)
        #expect(got.map { $0["frameIndex"] as? Int } == [0, 1, 2, 3, 4], "the 5 frames ffmpeg decodes too")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("truncated"), "\(r.stderr)")
        var count = 0
        let written = try VideoReader(path: out)
        while try written.nextFrame() != nil { count += 1 }
        #expect(count == 5, "the annotated video holds the frames before the damage")
    }

    @Test func videoAndCameraFailuresAreOneLineErrors() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let cases: [([String], String)] = [
            (["--video", VideoFixtures.path("not_a_video.mp4")], "cannot open as a video"),
            (["--video", VideoFixtures.path("unknown_codec.mkv")], "no decoder"),
            (["--video", scratch.path("missing.webm")], "No such file"),
            (["--camera", "/dev/video-blaze-missing"], "no camera"),
            (["--camera", "/dev/null"], "/dev/null"),
            (["--video", VideoFixtures.path("faces_h264.mp4"), "--annotate", scratch.path("no/folder/out.mp4")], "cannot write"),
            (["--video", VideoFixtures.path("faces_h264.mp4"), "--camera", "/dev/video0"], "one kind of input"),
            (["--video", VideoFixtures.path("faces_h264.mp4"), "--max-frames", "0"], "--max-frames")
        ]
        for (args, needle) in cases {
            let r = try blaze(["faces", "--json"] + args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(needle), "\(args): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty, "nothing written half-way")
    }

    @Test func maxFramesAndProgressOnAVideo() throws {
        let r = try blaze(["hands", "--json", "--progress", "--max-frames", "3", "--video", VideoFixtures.path("hands_h264.mp4")])
        #expect(r.status == 0)
        #expect(try lines(r.stdout).map { $0["frameIndex"] as? Int } == [0, 1, 2])
        #expect(r.stderr.contains("3 frames") && r.stderr.contains("frames/s"), "\(r.stderr)")
    }
}
