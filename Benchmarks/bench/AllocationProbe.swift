import BlazeEngine
import BlazeModels
import Foundation

/// Heap allocations per inference, counted with glibc's mtrace in a child process.
///
/// The parent re-runs this executable as `bench --alloc-probe STEM --threads N` with
/// `LD_PRELOAD=libc_malloc_debug.so.0` and `MALLOC_TRACE=<file>`. The child warms the session up,
/// turns tracing on (`mtrace()`) around `measuredRuns` calls of `Session.runInPlace()` only, and
/// exits; the parent counts the allocation records (`+` malloc/calloc/memalign, `>` realloc) of the
/// trace. Tracing covers every thread of the child, worker threads included. Under an emulator
/// (`make test-aarch64`), the child starts through `BLAZE_TEST_RUNNER` as bench itself did: the
/// kernel cannot start a foreign binary directly.
enum AllocationProbe {
    static let warmupRuns = 3
    static let measuredRuns = 20

    /// glibc ≥ 2.34 keeps mtrace in this preloadable library: this build's architecture's copy
    /// (an emulated aarch64 bench also sees the x86-64 host's files).
    static var mallocDebugLibrary: String? {
        #if arch(arm64)
            let triple = "aarch64-linux-gnu"
        #else
            let triple = "x86_64-linux-gnu"
        #endif
        return ["/lib/\(triple)", "/usr/lib/\(triple)", "/lib64", "/usr/lib64"]
            .map { $0 + "/libc_malloc_debug.so.0" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Parent side: allocations per inference of `model` at `threads`, or nil (with the reason)
    /// when the probe cannot run here.
    static func count(_ model: BundledModel, threads: Int) -> Result<Double, BlazeError> {
        guard let library = mallocDebugLibrary else {
            return .failure(BlazeError(.io, "libc_malloc_debug.so.0 not found (glibc ≥ 2.34 needed to count allocations)"))
        }
        let trace = FileManager.default.temporaryDirectory
            .appendingPathComponent("blazekit-mtrace-\(getpid())-\(model.rawValue)-\(threads).txt")
        defer { try? FileManager.default.removeItem(at: trace) }
        let process = Process()
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let arguments = ["--alloc-probe", model.rawValue, "--threads", String(threads)]
        if let runner = ProcessInfo.processInfo.environment["BLAZE_TEST_RUNNER"], !runner.isEmpty {
            process.executableURL = URL(fileURLWithPath: runner)
            process.arguments = [me.path] + arguments
        } else {
            process.executableURL = me
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = library
        environment["MALLOC_TRACE"] = trace.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(BlazeError(.io, "cannot start the allocation probe: \(error)"))
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(BlazeError(.io, "allocation probe for \(model.rawValue) exited with status \(process.terminationStatus)"))
        }
        guard let text = try? String(contentsOf: trace, encoding: .utf8), text.contains("= Start") else {
            return .failure(BlazeError(.io, "allocation probe wrote no mtrace output"))
        }
        return .success(Double(allocationRecords(inTrace: text)) / Double(measuredRuns))
    }

    /// Allocation records in an mtrace log: lines `@ caller + 0xADDR 0xSIZE` and `@ caller > 0xADDR 0xSIZE`.
    static func allocationRecords(inTrace text: String) -> Int {
        var count = 0
        for line in text.split(separator: "\n") where line.hasPrefix("@ ") {
            if line.contains("] + 0x") || line.contains("] > 0x") { count += 1 }
        }
        return count
    }

    /// Child side (`--alloc-probe`): runs with tracing on around the measured runs only.
    static func runChild(_ model: BundledModel, threads: Int) throws {
        let loaded = try model.load()
        let session = loaded.makeSession(kernels: .optimized, threads: threads)
        BenchInputs.fill(session)
        for _ in 0..<warmupRuns { session.runInPlace() }
        glibcMtrace()
        for _ in 0..<measuredRuns { session.runInPlace() }
        glibcMuntrace()
    }
}

// <mcheck.h> is not in Swift's Glibc module. Bound by name (version GLIBC_2.2.5), so with
// libc_malloc_debug.so.0 preloaded the dynamic linker picks its working implementation; `dlsym`
// would return libc's no-op default-version stub instead.
@_silgen_name("mtrace") private func glibcMtrace()
@_silgen_name("muntrace") private func glibcMuntrace()
