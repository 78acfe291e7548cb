import BlazeEngine
import BlazeModels
import Foundation

struct ModelTiming {
    var stem: String
    var threads: Int
    var medianMs: Double, minMs: Double, p90Ms: Double
    var runs: Int
    var loadMs: Double
    /// nil when allocations could not be counted on this system.
    var allocsPerInference: Double?
    /// CPU time of the process during the timed runs / (threads × wall time): about 1 when every
    /// thread had a core to itself (idle workers spin), lower when other processes took cores away.
    var cpuShare: Double
}

enum BenchInputs {
    /// Fills every input with deterministic values in [0, 1) (the nets' usual input range).
    static func fill(_ session: Session) {
        var state: UInt32 = 0x1234_5678
        for buffer in session.inputBuffers {
            for i in buffer.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                buffer[i] = Float(state >> 8) / Float(1 << 24)
            }
        }
    }
}

func nowMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

/// Load time, then latency of `Session.runInPlace()` after warm-up: median, min, p90.
func measure(_ model: BundledModel, options: BenchOptions) throws -> ModelTiming {
    let t0 = nowMs()
    let loaded = try model.load()
    let loadMs = nowMs() - t0
    let session = loaded.makeSession(kernels: .optimized, threads: options.threads)
    BenchInputs.fill(session)
    for _ in 0..<options.warmup { session.runInPlace() }
    // About 1.5 s of runs unless --runs is given.
    let probeStart = nowMs()
    session.runInPlace()
    let probe = max(nowMs() - probeStart, 0.01)
    let runs = options.runs > 0 ? options.runs : min(max(Int(1500 / probe), 10), 500)
    var samples = [Double](repeating: 0, count: runs)
    let cpu0 = processCPUSeconds(), wall0 = nowMs()
    for i in 0..<runs {
        let s = nowMs()
        session.runInPlace()
        samples[i] = nowMs() - s
    }
    let cpuShare = (processCPUSeconds() - cpu0) * 1000 / (Double(session.threads) * max(nowMs() - wall0, 1e-3))
    samples.sort()
    func percentile(_ p: Double) -> Double { samples[min(samples.count - 1, Int((Double(samples.count - 1) * p).rounded()))] }
    return ModelTiming(
        stem: model.rawValue, threads: session.threads, medianMs: percentile(0.5), minMs: samples[0],
        p90Ms: percentile(0.9), runs: runs, loadMs: loadMs, allocsPerInference: nil, cpuShare: cpuShare)
}

/// User + system CPU time of this process (all threads), in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// `bench --serve --model STEM` (or `--model-file PATH`): the model loaded and warmed up, then timed on request, so a
/// side-by-side script can alternate short blocks of BlazeKit and LiteRT runs (both sides then see
/// the same load on a shared machine). Prints `ready`; then for each line `N` on stdin runs N
/// inferences and prints their times in ms on one line; ends at EOF or `quit`.
func serve(_ model: Model, options: BenchOptions) throws {
    let session = model.makeSession(kernels: .optimized, threads: options.threads)
    BenchInputs.fill(session)
    for _ in 0..<options.warmup { session.runInPlace() }
    func reply(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
    reply("ready \(try KernelLevels.active().rawValue) \(session.threads)")
    while let line = readLine(), line != "quit" {
        guard let n = Int(line.trimmingCharacters(in: .whitespaces)), n >= 1 else {
            reply("error: expected a positive number of runs, got \(line)")
            continue
        }
        var times: [String] = []
        times.reserveCapacity(n)
        for _ in 0..<n {
            let s = nowMs()
            session.runInPlace()
            times.append(String(format: "%.4f", nowMs() - s))
        }
        reply(times.joined(separator: " "))
    }
}
