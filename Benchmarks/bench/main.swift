import BlazeEngine
import BlazeModels
import Foundation

// bench: per bundled model, latency of one inference (median/min/p90), load time and heap
// allocations per inference; peak RSS. Human-readable table by default; `--json` prints exactly
// one JSON object on stdout (docs/cli.md). Progress and hints go to stderr.

func stderrLine(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

/// Rounds to 4 decimals so the JSON stays readable.
func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }

func run() throws {
    let options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
    if let model = options.allocProbe {
        try AllocationProbe.runChild(model, threads: options.threads)
        return
    }
    if let layer = options.layer {
        try LayerBench.run(layer, runs: options.runs > 0 ? options.runs : 200)
        return
    }
    if options.serve {
        let model = try options.modelFile.map { try Model(contentsOf: URL(fileURLWithPath: $0)) } ?? options.models[0].load()
        try serve(model, options: options)
        return
    }
    if options.profile {
        try profile(options)
        return
    }
    if options.soak {
        let phases = try Soak.run(frames: options.soakFrames, threads: options.threads)
        if options.json {
            let object: [String: Any] = [
                "build": ["isa": try KernelLevels.active().rawValue, "cpu": SystemInfo.cpuName] as [String: Any],
                "frames": options.soakFrames, "threads": options.threads,
                "phases": phases.map(\.json)
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            Soak.printTable(phases, frames: options.soakFrames)
        }
        return
    }
    if options.roofline {
        for level in KernelLevels.runnable {
            let rate = try Roofline.gflops(level)
            print("\(level): " + String(format: "%.1f", rate) + " GFLOP/s (one thread, \(try KernelLevels.kernels(for: level).lanes)-lane vectors, \(SystemInfo.cpuName))")
        }
        return
    }
    #if DEBUG
        stderrLine("bench: warning: this bench was built without optimisation (debug); its figures are not meaningful. Use `swift run -c release bench` or `make bench`.")
    #endif
    let isa = try KernelLevels.active()
    stderrLine("bench: kernel level \(isa) (this CPU supports: \(KernelLevels.runnable.map(\.rawValue).joined(separator: ", ")); BLAZE_ISA=<level> forces one)")
    let core = OpenBLAS.coreName
    if let user = ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"], !user.isEmpty,
        OpenBLAS.cpuSupportsAVX512, !OpenBLAS.isUsingAVX512Kernels
    {
        stderrLine(
            "bench: OPENBLAS_CORETYPE=\(user) is set, so OpenBLAS keeps \(core) kernels; unset it to let BlazeKit select its AVX-512 kernels (GEMM is typically about 2× faster)")
    }
    var timings: [ModelTiming] = []
    for model in options.models {
        stderrLine("bench: \(model.rawValue) at \(options.threads) thread(s)…")
        var timing = try measure(model, options: options)
        stderrLine(
            "bench: \(model.rawValue): median " + String(format: "%.3f", timing.medianMs) + " ms over \(timing.runs) runs; "
                + "threads had a core " + String(format: "%.0f", 100 * min(timing.cpuShare, 1)) + " % of the time")
        if options.countAllocations {
            switch AllocationProbe.count(model, threads: options.threads) {
            case .success(let n): timing.allocsPerInference = n
            case .failure(let e): stderrLine("bench: allocations not counted: \(e)")
            }
        }
        timings.append(timing)
    }
    var pipelineTimings: [PipelineBench.Timing] = []
    for name in options.pipelines {
        stderrLine("bench: pipeline \(name) at \(options.threads) thread(s)…")
        pipelineTimings.append(try PipelineBench.run(name, threads: options.threads, runs: options.runs))
    }
    let peakRSS = SystemInfo.peakRSSMegabytes
    if options.json {
        var models: [String: Any] = [:]
        for t in timings {
            models[t.stem] =
                [
                    "threads": t.threads, "median_ms": rounded(t.medianMs), "min_ms": rounded(t.minMs), "p90_ms": rounded(t.p90Ms),
                    "runs": t.runs, "load_ms": rounded(t.loadMs),
                    "allocs_per_inference": t.allocsPerInference.map { $0 as Any } ?? NSNull()
                ] as [String: Any]
        }
        let object: [String: Any] = [
            "build": [
                "isa": isa.rawValue, "isa_supported": KernelLevels.runnable.map(\.rawValue),
                "openblas_core": core, "cpu": SystemInfo.cpuName
            ] as [String: Any],
            "models": models,
            "pipelines": Dictionary(
                uniqueKeysWithValues: pipelineTimings.map {
                    ($0.name, ["threads": $0.threads, "median_ms": rounded($0.medianMs), "fps": rounded(1000 / $0.medianMs)] as [String: Any])
                }),
            "peak_rss_mb": rounded(peakRSS)
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    } else {
        print("BlazeKit bench — kernel level \(isa), OpenBLAS core \(core), \(SystemInfo.cpuName), \(options.threads) thread(s)")
        print("model".padding(toLength: 34, withPad: " ", startingAt: 0) + "  median     min     p90   runs   load  allocs/inf")
        for t in timings {
            let allocs = t.allocsPerInference.map { String(format: "%11.2f", $0) } ?? "          -"
            print(
                t.stem.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(format: "%8.3f%8.3f%8.3f%7d%7.1f", t.medianMs, t.minMs, t.p90Ms, t.runs, t.loadMs) + allocs)
        }
        for p in pipelineTimings {
            print(p.name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%8.3f ms  %7.1f fps", p.medianMs, 1000 / p.medianMs))
        }
        print(String(format: "peak RSS %.1f MB (times in ms)", peakRSS))
    }
}

/// Per-op medians of each selected model, slowest first, with the share of the total.
func profile(_ options: BenchOptions) throws {
    for model in options.models {
        let session = try model.load().makeSession(kernels: .optimized, threads: options.threads)
        BenchInputs.fill(session)
        for _ in 0..<options.warmup { session.runInPlace() }
        let steps = session.profileSteps(runs: options.runs > 0 ? options.runs : 20)
        let total = steps.reduce(0) { $0 + $1.medianMs }
        let peak = try Roofline.gflops(session.model.isa) * Double(session.threads)
        print(
            "\(model.rawValue): \(String(format: "%.3f", total)) ms in \(steps.count) ops at \(session.threads) thread(s), kernel level \(session.model.isa), roofline "
                + String(format: "%.1f", peak) + " GFLOP/s")
        let graph = session.model.graph
        var byOp: [String: (ms: Double, macs: Int)] = [:]
        /// Multiply-accumulates of the nodes a step does the work of.
        func macs(_ s: Session.StepTiming) -> Int {
            s.nodes.reduce(0) { sum, n in
                let node = graph.nodes[n]
                return sum
                    + node.op.multiplyAccumulates(
                        inputs: node.inputs.map { graph.tensors[$0].shape }, output: graph.tensors[node.outputs[0]].shape)
            }
        }
        for s in steps {
            let macs = macs(s)
            byOp[s.op, default: (0, 0)].ms += s.medianMs
            byOp[s.op, default: (0, 0)].macs += macs
        }
        for (op, t) in byOp.sorted(by: { $0.value.ms > $1.value.ms }) {
            let rate = t.macs > 0 && t.ms > 0 ? 2 * Double(t.macs) / t.ms / 1e6 : 0
            let rateText = rate > 0 ? String(format: "  %6.1f GFLOP/s %4.0f %% of roofline", rate, 100 * rate / peak) : ""
            print("  " + op.padding(toLength: 22, withPad: " ", startingAt: 0) + String(format: "%8.3f ms %5.1f %%", t.ms, 100 * t.ms / total) + rateText)
        }
        for s in steps.sorted(by: { $0.medianMs > $1.medianMs }).prefix(options.profileTop) {
            let node = graph.nodes[s.node]
            let macs = macs(s)
            let inputShape = graph.tensors[node.inputs[0]].shape
            let rate = macs > 0 && s.medianMs > 0 ? String(format: "  %6.1f GFLOP/s", 2 * Double(macs) / s.medianMs / 1e6) : ""
            // In parts: Swift 6.2.3 cannot type-check the whole `+` chain in reasonable time.
            let inputs = inputShape.map(String.init).joined(separator: ","), outputs = s.outputShape.map(String.init).joined(separator: ",")
            let shapes = "[\(inputs)] → [\(outputs)]".padding(toLength: 36, withPad: " ", startingAt: 0)
            let name = String(format: "  #%-4d", s.node) + s.op.padding(toLength: 20, withPad: " ", startingAt: 0)
            print(name + shapes + String(format: "  %.4f ms", s.medianMs) + rate)
        }
    }
}

do {
    try run()
} catch {
    stderrLine("bench: \(error)")
    exit(1)
}
