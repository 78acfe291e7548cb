#if canImport(BlazeKernels)
    import BlazeKernels
#endif
#if canImport(BlazeKernelsAVX2)
    import BlazeKernelsAVX2
#endif
#if canImport(BlazeKernelsAVX512)
    import BlazeKernelsAVX512
#endif
#if canImport(BlazeKernelsNEON)
    import BlazeKernelsNEON
#endif

/// The kernel module of each ISA level built into this binary, and the one the engine uses.
/// A level's code is only reached through its `ISAKernelSet`, and only after the CPU said it has
/// the level (`ISALevel.supported`), so no instruction the CPU lacks ever runs.
public enum KernelLevels {
    /// Levels compiled into this build (on x86-64: baseline, avx2, avx512).
    public static var built: [ISALevel] {
        var levels: [ISALevel] = []
        #if canImport(BlazeKernels)
            levels.append(.baseline)
        #endif
        #if canImport(BlazeKernelsAVX2)
            levels.append(.avx2)
        #endif
        #if canImport(BlazeKernelsAVX512)
            levels.append(.avx512)
        #endif
        #if canImport(BlazeKernelsNEON)
            levels.append(.neon)
        #endif
        return levels
    }

    /// Levels this CPU can run and this build has, lowest first.
    public static var runnable: [ISALevel] { ISALevel.supported.filter(built.contains) }

    /// The level sessions use: `BLAZE_ISA` if set (must be runnable), else the best runnable one.
    public static func active() throws -> ISALevel {
        let level = try ISALevel.active()
        return try kernels(for: level).level
    }

    /// The kernels of `level`; throws when this CPU or this build lacks it.
    package static func kernels(for level: ISALevel) throws -> any ISAKernelSet.Type {
        guard ISALevel.supported.contains(level) else {
            throw BlazeError(.unsupportedISA, "this CPU (\(CPUInfo.brand)) lacks \(level); it supports: \(ISALevel.supported.map(\.rawValue).joined(separator: ", "))")
        }
        switch level {
        #if canImport(BlazeKernels)
            case .baseline: return BlazeKernels.LevelKernels.self
        #endif
        #if canImport(BlazeKernelsAVX2)
            case .avx2: return BlazeKernelsAVX2.LevelKernels.self
        #endif
        #if canImport(BlazeKernelsAVX512)
            case .avx512: return BlazeKernelsAVX512.LevelKernels.self
        #endif
        #if canImport(BlazeKernelsNEON)
            case .neon: return BlazeKernelsNEON.LevelKernels.self
        #endif
        default:
            throw BlazeError(.unsupportedISA, "this build has no \(level) kernels; it has: \(built.map(\.rawValue).joined(separator: ", "))")
        }
    }
}
