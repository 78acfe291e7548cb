import BlazeEngine
import Foundation

enum SystemInfo {
    /// The CPU's brand string (CPUID), else `model name` of /proc/cpuinfo.
    static var cpuName: String {
        if CPUInfo.brand != "unknown" { return CPUInfo.brand }
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        }
        return "unknown"
    }

    /// Peak resident set size of this process (VmHWM), in MB.
    static var peakRSSMegabytes: Double { (processStatus("VmHWM") ?? 0) / 1024 }

    /// The number of a `/proc/self/status` line (`VmHWM:    1234 kB` → 1234), nil when absent.
    static func processStatus(_ key: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Double($0) }
        }
        return nil
    }
}

/// The arithmetic roofline of a kernel level on this CPU: the best of five 0.05-s runs of the
/// level's own register-only multiply-add loop (`ISAKernelSet.peakFlopsProbe`), one thread.
enum Roofline {
    static func gflops(_ level: ISALevel) throws -> Double {
        let kernels = try KernelLevels.kernels(for: level)
        var best = 0.0
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            let r = kernels.peakFlopsProbe(iterations: 2_000_000)
            let ns = Double(DispatchTime.now().uptimeNanoseconds - start)
            if r.checksum.isNaN { continue }
            best = max(best, r.flops / ns)
        }
        return best
    }
}
