import COpenBLAS
import Foundation

/// One-time OpenBLAS configuration, done before the first BLAS call:
/// - single-threaded (parallelism is ours; OpenBLAS's spinning threads would fight our pool),
///   and the worker threads its pthreads build started when it loaded are stopped: until they
///   time out (2²⁸ TSC ticks, about 0.1 s) they poll with `sched_yield`, one per further core;
/// - on CPUs with AVX-512F where OpenBLAS picked an older kernel set (Debian's 0.3.21 picks
///   Prescott on some Xeons, ≈ 5× slower), re-select its SkylakeX kernels — only when the user
///   has not set `OPENBLAS_CORETYPE`, which always wins.
///
/// The re-selection is OpenBLAS's own dynamic-arch switch: `gotoblas_dynamic_quit()`, then
/// `gotoblas_dynamic_init()` with `OPENBLAS_CORETYPE` set for the duration of the call (it reads
/// the variable only there). Both are exported by the DYNAMIC_ARCH builds distributions ship.
public enum OpenBLAS {
    /// The OpenBLAS kernel core in use after configuration (e.g. "SkylakeX", "Cooperlake").
    public static var coreName: String {
        ensureConfigured()
        return currentCore ?? "unknown"
    }

    /// The core OpenBLAS detected by itself, before any re-selection.
    public static var detectedCoreName: String {
        ensureConfigured()
        return configuration.detected ?? "unknown"
    }

    /// True when BlazeKit switched OpenBLAS to `reselectionTarget`.
    public static var didReselectCore: Bool {
        ensureConfigured()
        return configuration.reselected
    }

    /// True when OpenBLAS runs one of its AVX-512 kernel sets.
    public static var isUsingAVX512Kernels: Bool { avx512Cores.contains(coreName.lowercased()) }

    /// True when the CPU has AVX-512F (CPUID, as for the kernel levels).
    public static var cpuSupportsAVX512: Bool { cpuHasAVX512F() }

    /// The core selected on AVX-512 CPUs that OpenBLAS misdetects.
    public static let reselectionTarget = "SkylakeX"

    /// OpenBLAS cores that use AVX-512 kernels (lowercased `openblas_get_corename()` values).
    package static let avx512Cores: Set<String> = ["skylakex", "cooperlake", "sapphirerapids"]

    /// Idempotent and thread-safe; every engine entry point that may reach BLAS calls it.
    public static func ensureConfigured() { _ = configuration }

    /// The decision, separated from its effect for tests: the core to switch to, or nil to keep
    /// OpenBLAS's own choice.
    package static func reselection(userCoreType: String?, cpuHasAVX512F: Bool, currentCore: String?) -> String? {
        if let user = userCoreType, !user.isEmpty { return nil }
        guard cpuHasAVX512F, let current = currentCore?.lowercased() else { return nil }
        return avx512Cores.contains(current) ? nil : reselectionTarget
    }

    private static var currentCore: String? { openblas_get_corename().map { String(cString: $0) } }

    private static let configuration: (detected: String?, reselected: Bool) = {
        let detected = currentCore
        var reselected = false
        if let target = reselection(
            userCoreType: ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"],
            cpuHasAVX512F: cpuHasAVX512F(), currentCore: detected)
        {
            gotoblas_dynamic_quit()
            setenv("OPENBLAS_CORETYPE", target, 1)
            gotoblas_dynamic_init()
            unsetenv("OPENBLAS_CORETYPE")
            reselected = true
        }
        openblas_set_num_threads(1)
        // After `set_num_threads`, which starts the threads again when they are not running.
        stopServerThreads()
        return (detected, reselected)
    }()

    /// True while OpenBLAS's pthreads server has worker threads; nil when the library has no
    /// such server (a serial or OpenMP build, or a static link without the symbol).
    package static var hasServerThreads: Bool? {
        ensureConfigured()
        guard let flag = ProcessSymbols.address(of: "blas_server_avail") else { return nil }
        return flag.load(as: Int32.self) != 0
    }

    /// Joins the pthreads build's workers (`blas_thread_shutdown_`, which forked children call
    /// too). Looked up at run time: serial builds do not export it. A later
    /// `openblas_set_num_threads` from elsewhere in the process starts them again.
    private static func stopServerThreads() {
        guard let shutdown = ProcessSymbols.address(of: "blas_thread_shutdown_") else { return }
        _ = unsafeBitCast(shutdown, to: (@convention(c) () -> Int32).self)()
    }

    /// AVX-512F per CPUID (`CPUInfo.hasAVX512F`, the same detection the kernel levels use).
    package static func cpuHasAVX512F() -> Bool { CPUInfo.hasAVX512F }
}
