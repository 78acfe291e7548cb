import BlazeTestSupport
import Foundation
import Testing

/// `blaze` on the inputs and situations that failed in the outside robustness pass (failures 1,
/// 3, 5, 6, 8 and 10 of the reliability issue), each reproduced as reported. The photos are the
/// committed test images (Tests/Fixtures/testdata, provenance in its SOURCES.md); face counts
/// come from the MediaPipe reference JSON there (one face on grace_hopper.jpg).
@Suite("blaze reliability")
struct BlazeCLIReliabilityTests {
    let cli: CommandLineTool
    var tool: URL { cli.executable }
    var work: URL { cli.work }

    init() throws { cli = try CommandLineTool("blaze") }

    func blaze(_ args: [String]) throws -> ProcessResult { try cli.run(args) }

    var photo: String { RepoPaths.testImages.appendingPathComponent("grace_hopper.jpg").path }
    func path(_ name: String) -> String { cli.path(name) }
    func copyPhoto(to name: String) throws {
        try FileManager.default.createDirectory(atPath: (path(name) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: path(name))
    }
    func imageNames(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["image"] as? String
        }
    }

    @Test func unwritableOutputStreamsAreErrorsNotTraps() throws {
        for redirection in [">/dev/full", ">&-"] {
            for command in ["faces", "hands"] {
                let r = try ProcessRunner.run(tool, [command, "--json", photo, photo], redirections: redirection)
                #expect(!r.crashed && r.status == 1, "\(command) \(redirection): status \(r.status)")
                // Reported once, and the run stops: nothing more can be shown.
                #expect(r.stderr.components(separatedBy: "cannot write standard output").count == 2, "\(r.stderr)")
            }
        }
        let r = try ProcessRunner.run(tool, ["faces", path("missing.jpg")], redirections: "2>/dev/full")
        #expect(!r.crashed && r.status == 1)
        let version = try ProcessRunner.run(tool, ["--version"], redirections: ">/dev/full")
        #expect(!version.crashed && version.status == 1)
    }

    @Test func foldersAreFollowedThroughLinksAndProblemsReported() throws {
        // rm walks with openat; FileManager cannot remove below PATH_MAX.
        defer { _ = try? ProcessRunner.run(URL(fileURLWithPath: "/bin/rm"), ["-rf", work.path]) }
        try copyPhoto(to: "real/a.jpg")
        try FileManager.default.createSymbolicLink(atPath: path("link"), withDestinationPath: "real")
        for input in ["link", "link/", "real/.", "real/"] {
            let r = try blaze(["faces", "--json", input])
            #expect(r.status == 0, "\(input): \(r.stderr)")
            #expect(imageNames(r.stdout).count == 1, "\(input): \(r.stdout)")
        }
        // A link back to an ancestor: its images once, and the loop reported.
        try FileManager.default.createSymbolicLink(atPath: path("real/up"), withDestinationPath: "..")
        let loop = try blaze(["faces", "--json", "real"])
        #expect(imageNames(loop.stdout) == [path("real/a.jpg").replacingOccurrences(of: work.path + "/", with: "")])
        #expect(loop.status == 1 && loop.stderr.contains("already walked"), "\(loop.stderr)")
        // An image below a path longer than PATH_MAX: reported, not skipped in silence.
        try writeBelowLongPath(root: path("deep"), depth: 40, file: "x.jpg", bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo))))
        let long = try blaze(["faces", "deep"])
        #expect(long.status == 1 && long.stderr.contains("deep/") && long.stderr.contains("File name too long"), "\(long.stderr.suffix(200))")
        // A folder without images says so.
        try FileManager.default.createDirectory(atPath: path("empty"), withIntermediateDirectories: false)
        let empty = try blaze(["faces", "empty"])
        #expect(empty.status == 1 && empty.stderr.contains("no image files"), "\(empty.stderr)")
    }

    /// `root/d…d/…/file` with `depth` folders of 120 characters, built with `mkdirat`/`openat`
    /// one level at a time (the whole path is longer than PATH_MAX, which plain calls refuse).
    func writeBelowLongPath(root: String, depth: Int, file: String, bytes: [UInt8]) throws {
        #expect(mkdir(root, 0o755) == 0)
        var fd = open(root, O_RDONLY | O_DIRECTORY)
        let name = String(repeating: "d", count: 120)
        for _ in 0..<depth {
            #expect(mkdirat(fd, name, 0o755) == 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
            try #require(fd >= 0)
        }
        let out = openat(fd, file, O_WRONLY | O_CREAT, 0o644)
        close(fd)
        try #require(out >= 0)
        #expect(bytes.withUnsafeBytes { write(out, $0.baseAddress, $0.count) } == bytes.count)
        close(out)
    }

    @Test func annotationNameCollisionsAreErrorsAndFailuresReportedOnce() throws {
        try copyPhoto(to: "a/same.jpg")
        try copyPhoto(to: "b/same.jpg")
        let r = try blaze(["faces", "--json", "--annotate", path("ann"), path("a/same.jpg"), path("b/same.jpg")])
        #expect(r.status == 1 && r.stderr.contains("same.png"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: path("ann"))) ?? []).isEmpty)

        // An annotation that cannot be written: one error line, no result line for that input.
        let bad = try blaze(["faces", "--json", "--annotate", path("out.txt"), photo])
        #expect(bad.status == 1 && bad.stdout.isEmpty, "\(bad.stdout)")
        #expect(bad.stderr.split(separator: "\n").count == 1 && bad.stderr.contains(".txt"), "\(bad.stderr)")
    }

    @Test func controlCharactersNeverReachTheTerminalRaw() throws {
        let escape = "\u{1B}[31mred\u{1B}]0;title\u{07}\u{9B}x.jpg"
        try copyPhoto(to: escape)
        let text = try blaze(["faces", escape, "missing\u{1B}[2J.jpg"])
        let json = try blaze(["faces", "--json", escape])
        for output in [text.stdout, text.stderr, json.stdout] {
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(output.debugDescription)")
        }
        #expect(text.stderr.contains("missing\\u{1b}[2J.jpg"), "\(text.stderr.debugDescription)")
        #expect(json.stdout.contains("\\u001b[31mred"), "\(json.stdout.debugDescription)")
        #expect(imageNames(json.stdout) == [escape], "JSON keeps the name, escaped")
    }

    @Test func argumentsAndBoundsAreChecked() throws {
        let huge = try blaze(["hands", "--num-hands", "9223372036854775807", photo])
        #expect(huge.status == 1 && huge.stderr.contains("1…64"), "\(huge.stderr)")
        let swallowed = try blaze(["faces", "--annotate", "--json", photo])
        #expect(swallowed.status == 1 && swallowed.stderr.contains("--annotate needs a value"), "\(swallowed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("--json")))
        try copyPhoto(to: "--json")
        let dashed = try blaze(["faces", "--json", "--", "--json"])
        #expect(dashed.status == 0 && imageNames(dashed.stdout) == ["--json"], "\(dashed.stderr)")
    }

    @Test func messagesSayWhatWasFound() throws {
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        try Data(jpeg.prefix(200)).write(to: URL(fileURLWithPath: path("cut.jpg")))
        let cut = try blaze(["faces", "cut.jpg"])
        #expect(cut.status == 1 && cut.stderr.contains("truncated or corrupt JPEG") && !cut.stderr.contains("0×0"), "\(cut.stderr)")
        #expect(cut.stderr.components(separatedBy: "cut.jpg").count == 2, "the path once: \(cut.stderr)")

        #expect(symlink("loop.jpg", path("loop.jpg")) == 0)
        let loop = try blaze(["faces", "loop.jpg"])
        #expect(loop.status == 1 && loop.stderr.contains("symbolic links") && !loop.stderr.contains("NSCocoaErrorDomain"), "\(loop.stderr)")

        // A FIFO is read like a pipe (the old message blamed permissions).
        #expect(makeFIFO(at: path("fifo"), feeding: Data(jpeg)))
        let fifo = try blaze(["faces", "--json", "fifo"])
        #expect(fifo.status == 0 && imageNames(fifo.stdout) == ["fifo"], "\(fifo.stderr)")

        // Y4M: CR LF header lines are read; a missing FRAME marker is named as such.
        let frame = [UInt8](repeating: 128, count: 16 * 16 * 3 / 2)
        try Data(Array("YUV4MPEG2 W16 H16 F30:1 C420jpeg\r\nFRAME\r\n".utf8) + frame).write(to: URL(fileURLWithPath: path("crlf.y4m")))
        let crlf = try blaze(["faces", "--video", "crlf.y4m"])
        #expect(crlf.status == 0 && crlf.stdout.contains("frame 0"), "\(crlf.stderr)")
        try Data(Array("YUV4MPEG2 W16 H16 F30:1\nFRAME\n".utf8) + frame + [UInt8](repeating: 7, count: 5000))
            .write(to: URL(fileURLWithPath: path("noframe.y4m")))
        let noFrame = try blaze(["faces", "--video", "noframe.y4m"])
        #expect(noFrame.status == 1 && noFrame.stderr.contains("noframe.y4m") && noFrame.stderr.contains("expected a FRAME line"), "\(noFrame.stderr)")
    }
}
