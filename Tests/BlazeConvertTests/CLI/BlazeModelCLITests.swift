import BlazeConvert
import BlazeEngine
import BlazeTestSupport
import Foundation
import Testing

/// `blaze-model convert | inspect | run` as docs/cli.md describes them, driven as a user would:
/// the built executable in a child process. Expected numbers come from the LiteRT parity
/// fixtures (Tools/parity/make_parity_fixtures.py).
@Suite("blaze-model command line")
struct BlazeModelCLITests {
    let cli: CommandLineTool
    var work: URL { cli.work }

    init() throws { cli = try CommandLineTool("blaze-model") }

    func blaze(_ args: [String]) throws -> ProcessResult { try cli.run(args) }

    func files(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// `blaze-model ops` lists the converter's table; `--markdown` is docs/ops.md byte for byte,
    /// so the committed docs cannot drift from the code (regenerate: `blaze-model ops --markdown`).
    @Test func opsTableAndItsCommittedMarkdown() throws {
        let table = try blaze(["ops"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("CONV_2D") && table.stdout.contains("DEPTHWISE_CONV_2D") && table.stdout.contains("DEQUANTIZE"))
        #expect(table.stdout.split(separator: "\n").count == ModelConversionOps.count + 1)
        let markdown = try blaze(["ops", "--markdown"])
        #expect(markdown.status == 0)
        let committed = try String(contentsOf: RepoPaths.root.appendingPathComponent("docs/ops.md"), encoding: .utf8)
        #expect(markdown.stdout == committed, "docs/ops.md is stale: regenerate it with `blaze-model ops --markdown > docs/ops.md`")
        #expect(try blaze(["ops", "extra"]).status == 1)
    }

    @Test func convertInspectRunMatchesLiteRT() throws {
        let source = RepoPaths.modelSources.appendingPathComponent("face_detection_short_range.tflite").path
        let bkm = work.appendingPathComponent("face.bkm").path
        let convert = try blaze(["convert", source, "-o", bkm])
        #expect(convert.status == 0, "\(convert.stderr)")

        let inspect = try blaze(["inspect", bkm, "--json"])
        #expect(inspect.status == 0)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let outputs = try #require(info["outputs"] as? [[String: Any]])
        #expect(outputs.compactMap { $0["name"] as? String }.sorted() == ["classificators", "regressors"])
        let flops = try #require(info["flops"] as? Int)
        #expect(abs(Double(flops) - 61.5e6) / 61.5e6 < 0.005)
        #expect((info["arena_bytes"] as? Int ?? 0) > 0)

        let fixtures = try ParityFixtures()
        let caseDir = fixtures.directory.appendingPathComponent("face_detection_short_range/photo_sergey_portrait")
        let outDir = work.appendingPathComponent("out/nested")
        let run = try blaze(["run", bkm, "--input", caseDir.appendingPathComponent("input.npy").path, "--output-dir", outDir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(files(in: outDir) == ["classificators.npy", "regressors.npy"])
        for name in ["classificators", "regressors"] {
            let ours = try NPYArray(contentsOf: outDir.appendingPathComponent(name + ".npy"))
            let ref = try NPYArray(contentsOf: caseDir.appendingPathComponent(name + ".npy"))
            #expect(ours.shape == ref.shape)
            #expect(parityError(ours.values, ref.values) <= parityTolerance)
        }
    }

    /// A model or bundle piped in (`convert <(curl …) -o x.bkm`, a FIFO) converts as the file does;
    /// before, Foundation's reader called it a permission problem, and a piped bundle, having no
    /// `.task` name, was read as a `.tflite`. A folder is named as one. `inspect` reads a piped
    /// `.bkm` too.
    @Test func convertAndInspectReadPipesAndNameFolders() throws {
        let source = RepoPaths.modelSources.appendingPathComponent("face_detection_short_range.tflite")
        let fromFile = try blaze(["convert", source.path, "-o", work.appendingPathComponent("file.bkm").path])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")

        // The same file name: the model's name (from it) is part of the .bkm.
        let pipes = work.appendingPathComponent("pipes")
        try FileManager.default.createDirectory(at: pipes, withIntermediateDirectories: false)
        let fifo = pipes.appendingPathComponent(source.lastPathComponent).path
        let bytes = try Data(contentsOf: source)
        #expect(makeFIFO(at: fifo, feeding: bytes))
        let fromFIFO = try blaze(["convert", fifo, "-o", work.appendingPathComponent("fifo.bkm").path])
        #expect(fromFIFO.status == 0, "\(fromFIFO.stderr)")
        #expect(
            try Data(contentsOf: work.appendingPathComponent("fifo.bkm")) == Data(contentsOf: work.appendingPathComponent("file.bkm")))

        // A bundle through a pipe has no .task extension: its bytes say what it is.
        var zip = StoredZipBuilder()
        zip.entries = [.init(name: "face_detector.tflite", data: [UInt8](bytes))]
        let bundleFIFO = pipes.appendingPathComponent("bundle").path
        #expect(makeFIFO(at: bundleFIFO, feeding: Data(zip.bytes())))
        let out = work.appendingPathComponent("bundle-out")
        let fromBundle = try blaze(["convert", bundleFIFO, "--output-dir", out.path])
        #expect(fromBundle.status == 0, "\(fromBundle.stderr)")
        #expect(files(in: out) == ["face_detector.bkm"])

        let folder = try blaze(["convert", work.path, "-o", work.appendingPathComponent("folder.bkm").path])
        #expect(folder.status == 1 && folder.stderr.contains("is a directory, not a .tflite or .task file"), "\(folder.stderr)")
        #expect(!folder.stderr.contains("NSCocoaErrorDomain"))

        // `inspect` reads a .bkm through a FIFO into memory (a file is memory-mapped); a folder is
        // named once as what it is.
        let bkmFIFO = pipes.appendingPathComponent("model.bkm").path
        #expect(makeFIFO(at: bkmFIFO, feeding: try Data(contentsOf: work.appendingPathComponent("file.bkm"))))
        let inspected = try blaze(["inspect", bkmFIFO])
        let inspectedFile = try blaze(["inspect", work.appendingPathComponent("file.bkm").path])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        // The same report but for the path and the load time.
        func report(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("model ") && !$0.hasPrefix("load ") } }
        #expect(report(inspected.stdout) == report(inspectedFile.stdout) && report(inspected.stdout).count > 4, "\(inspected.stdout)")
        let inspectFolder = try blaze(["inspect", work.path])
        #expect(inspectFolder.status == 1 && inspectFolder.stderr == "blaze-model inspect: \(work.path): is a directory, not a .bkm model\n", "\(inspectFolder.stderr)")
    }

    @Test func namedInputAndSanitizedOutputNames() throws {
        let bkm = RepoPaths.bundledModels.appendingPathComponent("face_blendshapes.bkm").path
        let input = try ParityFixtures().directory.appendingPathComponent("face_blendshapes/random/input.npy").path
        let run = try blaze(["run", bkm, "--input", "serving_default_input_points:0=\(input)"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(files(in: work) == ["StatefulPartitionedCall_0.npy"])
        let out = try NPYArray(contentsOf: work.appendingPathComponent("StatefulPartitionedCall_0.npy"))
        #expect(out.shape == [52])

        // A misspelt name used to be taken as a file name ("…/input_points=…: cannot open").
        let misspelt = try blaze(["run", bkm, "--input", "input_points=\(input)", "--output-dir", work.appendingPathComponent("x").path])
        #expect(misspelt.status == 1, "\(misspelt.stderr)")
        #expect(misspelt.stderr.contains("expected --input NAME=FILE.npy with NAME one of [\"serving_default_input_points:0\"], got 'input_points'"), "\(misspelt.stderr)")
        // One input given twice used to keep the second silently.
        let twice = try blaze(["run", bkm, "--input", "serving_default_input_points:0=\(input)", "--input", "serving_default_input_points:0=\(input)"])
        #expect(twice.status == 1 && twice.stderr.contains("expected one value for input 'serving_default_input_points:0', got a second"), "\(twice.stderr)")
        // A file whose name holds '=' is still a file.
        let equalsFile = work.appendingPathComponent("a=b.npy")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: input), to: equalsFile)
        let byFile = try blaze(["run", bkm, "--input", equalsFile.path, "--output-dir", work.appendingPathComponent("eq").path])
        #expect(byFile.status == 0, "\(byFile.stderr)")
        #expect(try NPYArray(contentsOf: work.appendingPathComponent("eq/StatefulPartitionedCall_0.npy")) == out)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("x").path))
    }

    @Test func wrongInputShapeIsOneLineErrorAndNoOutput() throws {
        let bkm = RepoPaths.bundledModels.appendingPathComponent("face_detection_short_range.bkm").path
        let bad = work.appendingPathComponent("bad.npy")
        try Data(NPYArray(shape: [1, 64, 64, 3], values: [Float](repeating: 0, count: 64 * 64 * 3)).encoded()).write(to: bad)
        let outDir = work.appendingPathComponent("out")
        let run = try blaze(["run", bkm, "--input", bad.path, "--output-dir", outDir.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("expected") && run.stderr.contains("got"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(files(in: outDir).isEmpty)
    }

    @Test func badDtypeAndCorruptFilesAreErrors() throws {
        let bkm = RepoPaths.bundledModels.appendingPathComponent("face_detection_short_range.bkm").path
        var f8 = NPYArray(shape: [1], values: [0]).encoded()
        let descr = try #require(f8.firstRange(of: Array("<f4".utf8)))
        f8[descr.lowerBound + 2] = UInt8(ascii: "8")
        let f8URL = work.appendingPathComponent("f8.npy")
        try Data(f8).write(to: f8URL)
        let r1 = try blaze(["run", bkm, "--input", f8URL.path])
        #expect(r1.status == 1 && r1.stderr.contains("expected dtype '<f4'"), "\(r1.stderr)")

        let corrupt = work.appendingPathComponent("corrupt.bkm")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: bkm)))
        bytes.removeLast(1000)
        try Data(bytes).write(to: corrupt)
        let r2 = try blaze(["inspect", corrupt.path])
        #expect(r2.status == 1 && r2.stderr.split(separator: "\n").count == 1)

        let r3 = try blaze(["convert", corrupt.path, "-o", work.appendingPathComponent("x.bkm").path])
        #expect(r3.status == 1)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("x.bkm").path))

        let r4 = try blaze(["run", work.appendingPathComponent("missing.bkm").path, "--input", f8URL.path])
        #expect(r4.status == 1)
    }

    /// A model of the wrong kind for the command says what it is and what to do, instead of a
    /// format error ("FlatBuffer: file identifier is 'EKIT'", "not a .bkm model: file starts with
    /// \"....TFL3\"").
    @Test func modelsOfTheWrongKindSayWhatToDo() throws {
        let bkm = RepoPaths.bundledModels.appendingPathComponent("face_blendshapes.bkm").path
        let convertBKM = try blaze(["convert", bkm, "-o", work.appendingPathComponent("x.bkm").path])
        #expect(convertBKM.status == 1, "\(convertBKM.stderr)")
        #expect(
            convertBKM.stderr == "blaze-model convert: \(bkm): is a .bkm model already (inspect or run it); convert takes a .tflite model or a .task bundle\n",
            "\(convertBKM.stderr)")
        #expect(files(in: work).isEmpty)

        let tflite = RepoPaths.modelSources.appendingPathComponent("face_detection_short_range.tflite").path
        let inspectTFLite = try blaze(["inspect", tflite])
        #expect(
            inspectTFLite.status == 1 && inspectTFLite.stderr.contains("\(tflite): is a TFLite model (convert it: blaze-model convert IN.tflite -o OUT.bkm), not a .bkm model"),
            "\(inspectTFLite.stderr)")
        let task = RepoPaths.modelSources.appendingPathComponent("face_landmarker.task").path
        let runTask = try blaze(["run", task, "--input", "x.npy"])
        #expect(
            runTask.status == 1 && runTask.stderr.contains("\(task): is a .task bundle (convert it: blaze-model convert IN.task --output-dir DIR), not a .bkm model"),
            "\(runTask.stderr)")
        // Anything else keeps the reader's own error.
        let text = work.appendingPathComponent("notes.bkm")
        try Data("just some text".utf8).write(to: text)
        let inspectText = try blaze(["inspect", text.path])
        #expect(inspectText.status == 1 && inspectText.stderr.contains("not a .bkm model: file starts with \"just som\""), "\(inspectText.stderr)")
        // A damaged .bkm keeps its error even when its tail reads as a zip end record.
        let damaged = work.appendingPathComponent("damaged.bkm")
        try Data(try Data(contentsOf: URL(fileURLWithPath: bkm)) + [0x50, 0x4b, 5, 6] + [UInt8](repeating: 0, count: 18)).write(to: damaged)
        let inspectDamaged = try blaze(["inspect", damaged.path])
        #expect(inspectDamaged.status == 1 && inspectDamaged.stderr.contains("(truncated or appended to)"), "\(inspectDamaged.stderr)")
    }

    @Test func convertTaskBundleWritesOneModelPerEntry() throws {
        let task = RepoPaths.modelSources.appendingPathComponent("face_landmarker.task").path
        let dir = work.appendingPathComponent("task")
        let r = try blaze(["convert", task, "--output-dir", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(files(in: dir) == ["face_blendshapes.bkm", "face_detector.bkm", "face_landmarks_detector.bkm"])
    }
}

private enum ModelConversionOps {
    static var count: Int { ModelConversion.supportedTFLiteOps.count }
}
