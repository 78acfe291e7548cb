import COpenBLAS
import Foundation

/// One-time OpenBLAS configuration, done before the first BLAS call:
/// - single-threaded (parallelism is ours; OpenBLAS's spinning threads would fight our pool);
/// - on AVX-512 CPUs that Debian's OpenBLAS 0.3.21 misdetects (it picks Prescott kernels, ≈5×
///   slower), re-select its SkylakeX kernels — only when the user has not set `OPENBLAS_CORETYPE`.
public enum OpenBLAS {
    /// The OpenBLAS kernel core in use after configuration (e.g. "SkylakeX").
    public static var coreName: String {
        ensureConfigured()
        guard let name = openblas_get_corename() else { return "unknown" }
        return String(cString: name)
    }

    /// Idempotent and thread-safe; every engine entry point that may reach BLAS calls it.
    public static func ensureConfigured() { _ = configured }

    private static let configured: Bool = {
        let olderCores: Set<String> = ["prescott", "core2", "penryn", "dunnington", "nehalem", "sandybridge", "haswell", "katmai", "coppermine", "northwood", "banias", "atom"]
        let userChoice = ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"]
        if userChoice == nil, cpuHasAVX512F(),
           let current = openblas_get_corename().map({ String(cString: $0).lowercased() }), olderCores.contains(current) {
            gotoblas_dynamic_quit()
            setenv("OPENBLAS_CORETYPE", "SkylakeX", 0)
            gotoblas_dynamic_init()
            unsetenv("OPENBLAS_CORETYPE")
        }
        openblas_set_num_threads(1)
        return true
    }()

    private static func cpuHasAVX512F() -> Bool {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return false }
        for line in info.split(separator: "\n") where line.hasPrefix("flags") {
            return line.split(separator: " ").contains("avx512f")
        }
        return false
    }
}
