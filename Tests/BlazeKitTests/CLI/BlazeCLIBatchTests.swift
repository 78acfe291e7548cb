import BlazeTestSupport
import Foundation
import Testing

/// `blaze faces|hands` batches (docs/cli.md): `--jobs`, `--files-from`, progress on stderr only.
/// Inputs are the committed test photos (Tests/Fixtures/testdata, provenance in its SOURCES.md).
/// The reference for `--jobs N` is the same command with `--jobs 1` (one image at a time, the
/// path every other CLI test checks against MediaPipe's outputs): results must not depend on it.
@Suite("blaze batches")
struct BlazeCLIBatchTests {
    let cli: CommandLineTool
    var tool: URL { cli.executable }
    var work: URL { cli.work }

    init() throws { cli = try CommandLineTool("blaze") }

    func blaze(_ args: [String], stdin: Data? = nil) throws -> ProcessResult { try cli.run(args, stdin: stdin) }

    func image(_ name: String) -> String { RepoPaths.testImages.appendingPathComponent(name).path }

    func imageNames(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["image"] as? String
        }
    }

    @Test(arguments: [["faces", "--all"], ["hands", "--num-hands", "2"]])
    func everyJobCountGivesTheSameLinesInTheSameOrder(command: [String]) throws {
        let folder = RepoPaths.testImages.path
        let one = try blaze(command + ["--json", "--jobs", "1", folder])
        #expect(one.status == 0, "\(one.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        #expect(imageNames(one.stdout) == files.map { folder + "/" + $0 })
        for jobs in ["2", "3"] {
            let many = try blaze(command + ["--json", "--jobs", jobs, folder])
            #expect(many.status == 0)
            #expect(many.stdout == one.stdout, "--jobs \(jobs) differs from --jobs 1")
        }
        let byDefault = try blaze(command + ["--json", folder])
        #expect(byDefault.stdout == one.stdout)
    }

    @Test func filesFromStreamsAfterThePositionalInputs() throws {
        let list = "\(image("grace_hopper.jpg"))\n\n\(image("missing.jpg"))\r\n   \n\(image("three_people.jpg"))"
        let r = try blaze(["faces", "--json", "--jobs", "2", image("sergey_portrait.png"), "--files-from", "-"], stdin: Data(list.utf8))
        #expect(r.status == 1, "a missing listed file makes the exit status 1")
        #expect(imageNames(r.stdout) == [image("sergey_portrait.png"), image("grace_hopper.jpg"), image("three_people.jpg")])
        let errors = r.stderr.split(separator: "\n")
        #expect(errors.count == 1 && errors[0].contains("missing.jpg"), "\(r.stderr)")

        let listFile = work.appendingPathComponent("list.txt")
        try Data((String(repeating: image("grace_hopper.jpg") + "\n", count: 30)).utf8).write(to: listFile)
        let fromFile = try blaze(["faces", "--json", "--files-from", listFile.path])
        #expect(fromFile.status == 0)
        #expect(imageNames(fromFile.stdout) == Array(repeating: image("grace_hopper.jpg"), count: 30))
        let single = try blaze(["faces", "--json", image("grace_hopper.jpg")])
        #expect(Set(fromFile.stdout.split(separator: "\n")) == [single.stdout.split(separator: "\n")[0]])
    }

    @Test func badListsAndJobCountsAreOneLineErrors() throws {
        for (args, needle) in [
            (["--files-from", work.path], "is a folder"),
            (["--files-from", work.appendingPathComponent("nope.txt").path], "cannot open"),
            (["--jobs", "0", image("grace_hopper.jpg")], "--jobs expects"),
            (["--jobs", "x", image("grace_hopper.jpg")], "--jobs expects"),
            (["--files-from", "-", "-"], "standard input cannot be both")
        ] {
            let r = try blaze(["faces"] + args)
            #expect(r.status == 1 && r.stdout.isEmpty, "\(args)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(needle), "\(args): \(r.stderr)")
        }
    }

    @Test func streamedAnnotationNameCollisionsSkipTheLaterInput() throws {
        let out = work.appendingPathComponent("annotated")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("b"), withIntermediateDirectories: true)
        let copy = work.appendingPathComponent("b/grace_hopper.jpg").path
        try FileManager.default.copyItem(atPath: image("grace_hopper.jpg"), toPath: copy)
        let r = try blaze(
            ["faces", "--json", "--annotate", out.path, "--files-from", "-"],
            stdin: Data("\(image("grace_hopper.jpg"))\n\(copy)\n".utf8))
        #expect(r.status == 1)
        #expect(imageNames(r.stdout) == [image("grace_hopper.jpg")])
        #expect(r.stderr.contains(copy) && r.stderr.contains("already annotated"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["grace_hopper.png"])
    }

    @Test func progressGoesToStderrOnly() throws {
        let inputs = [image("grace_hopper.jpg"), image("three_people.jpg"), image("sergey_portrait.png")]
        // Into a pipe only when asked for; every stdout line stays JSON.
        let asked = try blaze(["faces", "--json", "--progress"] + inputs)
        #expect(asked.status == 0)
        #expect(imageNames(asked.stdout) == inputs)
        #expect(asked.stdout.split(separator: "\n").count == 3)
        #expect(asked.stderr.contains("3/3 images") && asked.stderr.contains("images/s") && asked.stderr.contains("elapsed"))
        #expect(!asked.stderr.contains("\r"), "no carriage returns into a pipe")
        let quiet = try blaze(["faces", "--json"] + inputs)
        #expect(quiet.stderr.isEmpty, "no progress into a pipe by default")

        // On a terminal: shown by default, redrawn in place, gone with --no-progress.
        let terminal = try ProcessRunner.runWithTerminalStderr(tool, ["faces", "--json"] + inputs)
        #expect(terminal.status == 0 && imageNames(terminal.stdout) == inputs)
        #expect(terminal.stderr.contains("\r") && terminal.stderr.contains("3/3 images"), "\(terminal.stderr.debugDescription)")
        let off = try ProcessRunner.runWithTerminalStderr(tool, ["faces", "--json", "--no-progress"] + inputs)
        #expect(off.status == 0 && off.stderr.isEmpty)
        #expect(off.stdout == terminal.stdout)
    }
}
