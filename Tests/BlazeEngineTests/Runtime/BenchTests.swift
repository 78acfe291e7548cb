import Foundation
import BlazeModels
import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// `bench` in a child process (it is built by `swift test`, next to the test binary): the JSON of
/// docs/cli.md, zero heap allocations per inference after warm-up (glibc mtrace, counted by
/// bench's own child process), and OpenBLAS core selection with and without `OPENBLAS_CORETYPE`.
@Suite(.serialized) struct BenchTests {
    static var benchURL: URL? {
        let dir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let url = dir.appendingPathComponent("bench")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    /// Runs bench with `arguments`; `environment` entries replace (nil: remove) the inherited ones;
    /// `input` is written to its standard input.
    static func runBench(
        _ arguments: [String], environment changes: [String: String?] = [:], input: String? = nil
    ) throws -> (status: Int32, stdout: Data) {
        let url = try #require(benchURL, "bench is not built next to the test binary (swift build -c release builds it)")
        let process = Process()
        let command = ProcessRunner.command(url, arguments)  // through BLAZE_TEST_RUNNER when set
        process.executableURL = command.executable
        process.arguments = command.arguments
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in changes { environment[k] = v }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: [1, 2])
    func jsonContractAndZeroAllocations(threads: Int) throws {
        let r = try Self.runBench(["--json", "--runs", "3", "--threads", String(threads)])
        #expect(r.status == 0)
        let object = try Self.json(r.stdout)
        #expect(Set(object.keys) == ["build", "models", "pipelines", "peak_rss_mb"])
        let build = try #require(object["build"] as? [String: Any])
        #expect(Set(build.keys) == ["isa", "isa_supported", "openblas_core", "cpu"])
        #expect(build["isa"] as? String == (try KernelLevels.active()).rawValue)
        #expect(build["isa_supported"] as? [String] == KernelLevels.runnable.map(\.rawValue))
        let pipelines = try #require(object["pipelines"] as? [String: Any])
        #expect(
            Set(pipelines.keys) == [
                "faces_fast", "faces_accurate", "faces_all", "hands_image", "hands_video_tracked",
                "face_landmarker_image", "face_landmarker_video_tracked", "gestures_video_tracked", "crop_nv12_720p_192",
                "crop_rgb_720p_192"
            ])
        #expect((object["peak_rss_mb"] as? Double ?? 0) > 0)
        let models = try #require(object["models"] as? [String: [String: Any]])
        #expect(models.count == 8)
        for (stem, m) in models {
            #expect(Set(m.keys) == ["threads", "median_ms", "min_ms", "p90_ms", "runs", "load_ms", "allocs_per_inference"], "\(stem)")
            #expect(m["threads"] as? Int == threads)
            #expect(m["runs"] as? Int == 3)
            let median = m["median_ms"] as? Double ?? -1, minimum = m["min_ms"] as? Double ?? -1, p90 = m["p90_ms"] as? Double ?? -1
            #expect(minimum > 0 && minimum <= median && median <= p90, "\(stem)")
            #expect(m["allocs_per_inference"] as? Double == 0, "\(stem): \(m["allocs_per_inference"] ?? "nil") heap allocations per inference")
        }
    }

    /// `BLAZE_ISA` forces each level this CPU has; a level it lacks or a bogus name is one line on
    /// stderr and exit status 1, never a crash.
    @Test func forcedISALevels() throws {
        let args = ["--json", "--runs", "2", "--model", "face_detection_short_range", "--threads", "1"]
        for level in KernelLevels.runnable {
            let r = try Self.runBench(args, environment: ["BLAZE_ISA": level.rawValue])
            #expect(r.status == 0, "BLAZE_ISA=\(level)")
            let build = try #require(try Self.json(r.stdout)["build"] as? [String: Any])
            #expect(build["isa"] as? String == level.rawValue)
        }
        let missing = ISALevel.allCases.filter { !ISALevel.supported.contains($0) }.map(\.rawValue)
        for bad in ["sse9"] + missing {
            let r = try Self.runBench(args, environment: ["BLAZE_ISA": bad])
            #expect(r.status == 1, "BLAZE_ISA=\(bad)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func modelFilterAndBadArguments() throws {
        let r = try Self.runBench(["--json", "--runs", "2", "--model", "face_blendshapes", "--threads", "1"])
        #expect(r.status == 0)
        let models = try #require(try Self.json(r.stdout)["models"] as? [String: Any])
        #expect(Array(models.keys) == ["face_blendshapes"])
        #expect(try Self.runBench(["--model", "no_such_model"]).status == 1)
        #expect(try Self.runBench(["--threads", "0"]).status == 1)
        #expect(try Self.runBench(["--frobnicate"]).status == 1)
    }

    /// `--serve --model-file`: any `.bkm` file, timed in blocks on request (what
    /// Benchmarks/per_layer_litert.py drives): `ready LEVEL THREADS`, then one line of N positive
    /// times per request; a bad request is an error line, and the process keeps serving.
    @Test func serveTimesAModelFileOnRequest() throws {
        let path = try BundledModel.faceBlendshapes.url().path
        let r = try Self.runBench(["--serve", "--model-file", path, "--threads", "1"], input: "3\nzero\n2\nquit\n")
        #expect(r.status == 0)
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        guard lines.count == 4 else { return }
        #expect(lines[0] == "ready \((try KernelLevels.active()).rawValue) 1")
        let first = lines[1].split(separator: " ").compactMap { Double($0) }, second = lines[3].split(separator: " ").compactMap { Double($0) }
        #expect(first.count == 3 && first.allSatisfy { $0 > 0 })
        #expect(lines[2].hasPrefix("error: "))
        #expect(second.count == 2 && second.allSatisfy { $0 > 0 })
        #expect(try Self.runBench(["--serve", "--model-file", "/nonexistent/model.bkm"]).status == 1)
        #expect(try Self.runBench(["--model-file", path]).status == 1)
        #expect(try Self.runBench(["--serve", "--model-file", path, "--model", "face_blendshapes"]).status == 1)
    }

    @Test func layerTimingNamesItsTileAndRejectsBadShapes() throws {
        let r = try Self.runBench(["--layer", "pointwise", "13", "24", "40", "--tile", "2x1", "--runs", "3"])
        #expect(r.status == 0)
        let line = String(decoding: r.stdout, as: UTF8.self)
        #expect(line.contains("pointwise P=13 K=24 O=40"), "\(line)")
        #expect(line.contains("tile 2x1"), "\(line)")
        #expect(try Self.runBench(["--layer", "pointwise", "0", "24", "40"]).status == 1)
        #expect(try Self.runBench(["--layer", "depthwise", "13", "24", "40"]).status == 1)
        #expect(try Self.runBench(["--layer", "pointwise", "13", "24", "40", "--tile", "99x9"]).status == 1)
        #expect(try Self.runBench(["--tile", "2x1"]).status == 1)
        // MRxNV/LANES: a malformed one, and a lane width no level has, are errors.
        for bad in ["2x1/", "2x1/x", "2x/8", "2x1/8/8", "2x1/3"] {
            #expect(try Self.runBench(["--layer", "pointwise", "13", "24", "40", "--tile", bad, "--runs", "1"]).status == 1, "\(bad)")
        }

        let vs = try Self.runBench(["--layer", "pointwise", "13", "24", "40", "--tile", "2x1", "--versus", "1x1", "--runs", "3"])
        #expect(vs.status == 0)
        #expect(String(decoding: vs.stdout, as: UTF8.self).contains("versus tile 1x1, runs alternating: time 1x1 / 2x1 = "))
        #expect(try Self.runBench(["--layer", "pointwise", "13", "24", "40", "--versus", "99x9"]).status == 1)

        let dw = try Self.runBench(["--layer", "depthwise", "13", "17", "72", "3", "2", "--tile", "2", "--versus", "4", "--runs", "3"])
        #expect(dw.status == 0)
        let dwLine = String(decoding: dw.stdout, as: UTF8.self)
        #expect(dwLine.contains("depthwise 13x17x72 k3 s2"), "\(dwLine)")
        #expect(dwLine.contains("tile 2 px"), "\(dwLine)")
        #expect(dwLine.contains("versus tile 4 px, runs alternating: time 4 px / 2 px = "), "\(dwLine)")
        #expect(try Self.runBench(["--layer", "depthwise", "13", "17", "40", "3", "2", "--tile", "3"]).status == 1)
        #expect(try Self.runBench(["--layer", "depthwise", "13", "17", "40", "0", "2"]).status == 1)
    }

    @Test func openBLASCoreRespectsTheUserAndPrefersAVX512() throws {
        func core(_ env: [String: String?]) throws -> String {
            let r = try Self.runBench(["--json", "--runs", "1", "--model", "face_blendshapes", "--threads", "1"], environment: env)
            let build = try #require(try Self.json(r.stdout)["build"] as? [String: Any])
            return try #require(build["openblas_core"] as? String)
        }
        // The user's choice wins (a core of this architecture, which OpenBLAS' dynamic build has).
        #if arch(arm64)
            let chosen = "CortexA57"
        #else
            let chosen = "Haswell"
        #endif
        #expect(try core(["OPENBLAS_CORETYPE": chosen]).lowercased() == chosen.lowercased())
        let automatic = try core(["OPENBLAS_CORETYPE": nil])
        if OpenBLAS.cpuHasAVX512F() {
            #expect(OpenBLAS.avx512Cores.contains(automatic.lowercased()), "OpenBLAS runs \(automatic) on an AVX-512 CPU")
        } else {
            // No reselection without AVX-512F, and never a core that would need it.
            #expect(!OpenBLAS.avx512Cores.contains(automatic.lowercased()), "OpenBLAS runs \(automatic) on a CPU without AVX-512F")
        }
    }
}

@Suite struct BuildTests {
    /// The baseline level (no FMA) must not fall into libm's `fmaf`, one call per SIMD lane
    /// (`addingProduct` without FMA hardware). bench links all of BlazeEngine, so a `fmaf` import
    /// in its dynamic symbol names (the ELF `.dynstr` section) would reveal one. (The whole file
    /// is not searched: other sections' bytes happened to hold `\0fma\0` once.)
    @Test func defaultBuildImportsNoFmaf() throws {
        let url = try #require(BenchTests.benchURL, "bench is not built next to the test binary")
        let bytes = [UInt8](try Data(contentsOf: url))
        let names = try #require(Self.elfSection(bytes, named: ".dynstr"), "bench has no .dynstr section")
        #expect(names.count > 100 && Self.contains(names, "malloc"), "bench's .dynstr does not list its imports")
        for name in ["fmaf", "fma"] {
            #expect(!Self.contains(names, name), "bench imports \(name)")
        }
    }

    /// `blaze` starts without libavformat, libavcodec and libavdevice and the libraries they alone
    /// pull in (its start loaded 231 libraries with FFmpeg 5.1, 45 without); a video or camera
    /// opens them. Its needed libraries are names in `.dynstr`.
    @Test func blazeLinksNoFFmpegDemuxerCodecOrDeviceLibrary() throws {
        let url = try #require(ProcessRunner.executable("blaze"), "blaze is not built next to the test binary")
        let names = try #require(Self.elfSection([UInt8](try Data(contentsOf: url)), named: ".dynstr"), "blaze has no .dynstr section")
        let libraries = names.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix("lib") && $0.contains(".so") }
        #expect(libraries.contains { $0.hasPrefix("libavutil.so") }, "blaze's needed libraries: \(libraries)")
        for library in ["libavformat.so", "libavcodec.so", "libavdevice.so"] {
            #expect(!libraries.contains { $0.hasPrefix(library) }, "blaze's needed libraries: \(libraries)")
        }
    }

    /// Whether the NUL-separated string table `table` holds `name` as a whole string.
    static func contains(_ table: ArraySlice<UInt8>, _ name: String) -> Bool {
        table.split(separator: 0, omittingEmptySubsequences: true).contains { Array($0) == Array(name.utf8) }
    }

    /// The bytes of section `name` of a little-endian ELF64 file, or nil.
    static func elfSection(_ d: [UInt8], named name: String) -> ArraySlice<UInt8>? {
        func u(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= d.count else { return nil }
            return (0..<size).reduce(0) { $0 | Int(d[offset + $1]) << (8 * $1) }
        }
        guard d.count > 64, d[0..<4] == [0x7F, 0x45, 0x4C, 0x46], d[4] == 2, d[5] == 1,
            let table = u(0x28, 8), let entry = u(0x3A, 2), let count = u(0x3C, 2), let namesIndex = u(0x3E, 2)
        else { return nil }
        func section(_ i: Int) -> (name: Int, offset: Int, size: Int)? {
            let h = table + i * entry
            guard let n = u(h, 4), let o = u(h + 0x18, 8), let s = u(h + 0x20, 8), o + s <= d.count else { return nil }
            return (n, o, s)
        }
        guard let names = section(namesIndex) else { return nil }
        for i in 0..<count {
            guard let s = section(i), names.offset + s.name < d.count else { continue }
            let start = names.offset + s.name
            let end = d[start...].firstIndex(of: 0) ?? d.count
            if Array(d[start..<end]) == Array(name.utf8) { return d[s.offset..<(s.offset + s.size)] }
        }
        return nil
    }
}

@Suite struct OpenBLASSetupTests {
    @Test func reselectionDecision() {
        // The user's choice always wins.
        #expect(OpenBLAS.reselection(userCoreType: "Prescott", cpuHasAVX512F: true, currentCore: "Prescott") == nil)
        #expect(OpenBLAS.reselection(userCoreType: "Haswell", cpuHasAVX512F: true, currentCore: "Haswell") == nil)
        // Older cores on AVX-512 CPUs are replaced; AVX-512 cores are kept.
        for old in ["Prescott", "Haswell", "Zen", "Sandybridge", "Nehalem", "Core2"] {
            #expect(OpenBLAS.reselection(userCoreType: nil, cpuHasAVX512F: true, currentCore: old) == "SkylakeX")
            #expect(OpenBLAS.reselection(userCoreType: "", cpuHasAVX512F: true, currentCore: old) == "SkylakeX")
        }
        for modern in ["SkylakeX", "Cooperlake", "SapphireRapids"] {
            #expect(OpenBLAS.reselection(userCoreType: nil, cpuHasAVX512F: true, currentCore: modern) == nil)
        }
        // Without AVX-512F nothing changes.
        #expect(OpenBLAS.reselection(userCoreType: nil, cpuHasAVX512F: false, currentCore: "Prescott") == nil)
    }

    /// Debian's default OpenBLAS (pthreads) starts a worker per further core when it loads; after
    /// configuration none may be left polling.
    @Test(.enabled(if: OpenBLAS.hasServerThreads != nil, "an OpenBLAS build with a pthreads server"))
    func serverThreadsStopped() {
        #expect(OpenBLAS.hasServerThreads == false)
    }

    @Test func coreInThisProcess() {
        let core = OpenBLAS.coreName
        if let user = ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"], !user.isEmpty {
            #expect(core.lowercased() == user.lowercased())
            #expect(!OpenBLAS.didReselectCore)
        } else if OpenBLAS.cpuHasAVX512F() {
            #expect(OpenBLAS.avx512Cores.contains(core.lowercased()))
        } else {
            #expect(!OpenBLAS.didReselectCore)
            #expect(!OpenBLAS.avx512Cores.contains(core.lowercased()), "\(core) on a CPU without AVX-512F")
        }
    }
}
