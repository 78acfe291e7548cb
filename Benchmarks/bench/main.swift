import BlazeEngine
import BlazeModels
import Foundation

// bench: per bundled model, median/min/p90 latency of one inference and load time.
//   bench [--json] [--model STEM] [--runs N]   (single-threaded engine for now)
// Human-readable table by default; `--json` prints one JSON object (CONTRACTS §5) on stdout.

struct BenchOptions {
    var json = false
    var threads = 1
    var models: [String] = []
    var runs = 0
    var warmup = 5

    init(_ args: [String]) throws {
        var i = 0
        func next() throws -> String {
            i += 1
            guard i < args.count else { throw BlazeError(.invalidInput, "\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--json": json = true
            case "--model": models.append(try next())
            case "--runs":
                guard let n = Int(try next()), n >= 1 else { throw BlazeError(.invalidInput, "--runs expects a positive integer") }
                runs = n
            default: throw BlazeError(.invalidInput, "unknown option \(args[i]); usage: bench [--json] [--model STEM] [--runs N]")
            }
            i += 1
        }
    }
}

struct ModelTiming {
    var stem: String
    var medianMs: Double, minMs: Double, p90Ms: Double
    var runs: Int
    var loadMs: Double
}

func stderrLine(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

func nowMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

func measure(_ model: BundledModel, options: BenchOptions) throws -> ModelTiming {
    let t0 = nowMs()
    let loaded = try model.load()
    let loadMs = nowMs() - t0
    let session = loaded.makeSession(kernels: .optimized)
    var rng = SystemRandomNumberGenerator()
    for buffer in session.inputBuffers {
        for i in buffer.indices { buffer[i] = Float.random(in: 0...1, using: &rng) }
    }
    for _ in 0..<options.warmup { session.runInPlace() }
    // Enough runs for ~1.5 s per model unless --runs is given.
    let probeStart = nowMs()
    session.runInPlace()
    let probe = max(nowMs() - probeStart, 0.01)
    let runs = options.runs > 0 ? options.runs : min(max(Int(1500 / probe), 10), 500)
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
        let s = nowMs()
        session.runInPlace()
        samples.append(nowMs() - s)
    }
    samples.sort()
    func pct(_ p: Double) -> Double { samples[min(samples.count - 1, Int(Double(samples.count - 1) * p + 0.5))] }
    return ModelTiming(stem: model.rawValue, medianMs: pct(0.5), minMs: samples[0], p90Ms: pct(0.9), runs: runs, loadMs: loadMs)
}

func cpuName() -> String {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
    for line in info.split(separator: "\n") where line.hasPrefix("model name") {
        return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }
    return "unknown"
}

func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kb / 1024
    }
    return 0
}

func run() throws {
    let options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
    #if BLAZE_TUNED
    let kind = "tuned"
    #else
    let kind = "baseline"
    stderrLine("bench: baseline build. For the tuned build run `make bench` (swift build -c release --scratch-path .build/tuned -Xswiftc -target-cpu -Xswiftc native -Xswiftc -DBLAZE_TUNED).")
    #endif
    let selected = options.models.isEmpty ? BundledModel.allCases : try options.models.map { stem in
        guard let m = BundledModel(rawValue: stem) else {
            throw BlazeError(.invalidInput, "unknown model \(stem); one of \(BundledModel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return m
    }
    let core = OpenBLAS.coreName
    var timings: [ModelTiming] = []
    for model in selected {
        stderrLine("bench: \(model.rawValue)…")
        timings.append(try measure(model, options: options))
    }
    if options.json {
        var models: [String: Any] = [:]
        for t in timings {
            models[t.stem] = ["threads": options.threads, "median_ms": t.medianMs, "min_ms": t.minMs, "p90_ms": t.p90Ms,
                              "runs": t.runs, "load_ms": t.loadMs] as [String: Any]
        }
        let object: [String: Any] = [
            "build": ["kind": kind, "openblas_core": core, "cpu": cpuName()],
            "models": models,
            "pipelines": [String: Any](),
            "peak_rss_mb": peakRSSMegabytes(),
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    } else {
        print("BlazeKit bench — \(kind) build, OpenBLAS core \(core), \(cpuName()), \(options.threads) thread(s)")
        print("model".padding(toLength: 34, withPad: " ", startingAt: 0) + "  median     min     p90   runs   load")
        for t in timings {
            print(t.stem.padding(toLength: 34, withPad: " ", startingAt: 0)
                  + String(format: "%8.3f%8.3f%8.3f%7d%7.1f", t.medianMs, t.minMs, t.p90Ms, t.runs, t.loadMs))
        }
        print(String(format: "peak RSS %.1f MB", peakRSSMegabytes()))
    }
}

do {
    try run()
} catch {
    stderrLine("bench: \(error)")
    exit(1)
}
