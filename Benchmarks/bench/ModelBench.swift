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
    return ModelTiming(stem: model.rawValue, threads: session.threads, medianMs: percentile(0.5), minMs: samples[0],
                       p90Ms: percentile(0.9), runs: runs, loadMs: loadMs, allocsPerInference: nil, cpuShare: cpuShare)
}

/// User + system CPU time of this process (all threads), in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
