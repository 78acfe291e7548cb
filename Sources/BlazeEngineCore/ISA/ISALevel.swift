import CCPUFeatures
import Foundation

/// A kernel instruction-set level. Every level has its own compiled kernel module
/// (`BlazeKernels` for baseline, `BlazeKernelsAVX2`, `BlazeKernelsAVX512`; `BlazeKernelsNEON` on aarch64); the
/// level used is chosen once per process from the CPU's own answer (CPUID + the OS's register
/// saving), or forced with `BLAZE_ISA=<level>` to one the CPU supports.
public enum ISALevel: String, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// Any x86-64 (SSE2): 4-lane vectors, 16 registers, no FMA.
    case baseline
    /// AVX2 + FMA + F16C (Haswell and later, AMD Zen 1–3): 8 lanes, 16 registers.
    case avx2
    /// AVX-512 F/BW/DQ/VL (Skylake-SP and later, AMD Zen 4/5): 16 lanes, 32 registers.
    case avx512
    /// aarch64 Advanced SIMD: 4 lanes, 32 registers, FMA.
    case neon

    public var description: String { rawValue }

    public static func < (a: ISALevel, b: ISALevel) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .baseline, .neon: 0
        case .avx2: 1
        case .avx512: 2
        }
    }

    /// The levels this CPU can run, lowest first (from CPUID, not /proc/cpuinfo).
    public static let supported: [ISALevel] = {
        #if arch(x86_64)
            let bits = featureBits
            var levels: [ISALevel] = [.baseline]
            if bits & 2 != 0 { levels.append(.avx2) }
            if bits & 4 != 0 { levels.append(.avx512) }
            return levels
        #elseif arch(arm64)
            return [.neon]
        #else
            return [.baseline]
        #endif
    }()

    /// The best level this CPU supports.
    public static var best: ISALevel { supported.last! }

    /// The CPU's raw feature bits (see `blaze_cpu_feature_bits`), read once.
    static let featureBits: UInt32 = {
        #if arch(x86_64)
            return blaze_cpu_feature_bits()
        #else
            return 0
        #endif
    }()

    /// The level named by `BLAZE_ISA` (if set), else the best one — or why that cannot be.
    public static let selection: Result<ISALevel, BlazeError> = resolve(environment: ProcessInfo.processInfo.environment["BLAZE_ISA"])

    /// The level the engine runs. Throws when `BLAZE_ISA` names an unknown level or one this CPU lacks.
    public static func active() throws -> ISALevel { try selection.get() }

    /// `BLAZE_ISA`'s meaning for this CPU (separate from the process environment for tests).
    public static func resolve(environment value: String?, supported: [ISALevel] = ISALevel.supported) -> Result<ISALevel, BlazeError> {
        guard let raw = value?.trimmingCharacters(in: .whitespaces).lowercased(), !raw.isEmpty else {
            return .success(supported.last ?? .baseline)
        }
        let names = supported.map(\.rawValue).joined(separator: ", ")
        guard let level = ISALevel(rawValue: raw) else {
            return .failure(BlazeError(.unsupportedISA, "BLAZE_ISA=\(raw) is not a level (baseline, avx2, avx512, neon); this CPU supports: \(names)"))
        }
        guard supported.contains(level) else {
            return .failure(BlazeError(.unsupportedISA, "BLAZE_ISA=\(raw): this CPU (\(CPUInfo.brand)) lacks \(raw); it supports: \(names)"))
        }
        return .success(level)
    }
}

/// What the CPU says about itself.
public enum CPUInfo {
    /// AVX-512 F, from CPUID and the OS's register saving (not /proc/cpuinfo).
    public static var hasAVX512F: Bool { ISALevel.featureBits & 8 != 0 }

    /// CPUID's vendor, display family and model (vendor 1: AMD, 2: Intel, 0: other or not x86).
    public static let signature: (vendor: Int, family: Int, model: Int) = {
        #if arch(x86_64)
            var vendor: UInt32 = 0, family: UInt32 = 0, model: UInt32 = 0
            blaze_cpu_signature(&vendor, &family, &model)
            return (Int(vendor), Int(family), Int(model))
        #else
            return (0, 0, 0)
        #endif
    }()

    /// Whether a 16-lane (zmm) FMA costs the CPU two 8-lane ones: AMD Zen 4 (family 0x19) runs
    /// AVX-512 on 256-bit pipes, so there 8-lane tiles that waste fewer lanes win (a conv with
    /// 24 outputs: 16 + 8 lanes instead of 2 × 16). Intel's AVX-512 CPUs and Zen 5 servers have
    /// full-width pipes: an 8-lane FMA costs as much as a 16-lane one.
    public static var halfRateWideVectors: Bool { signature.vendor == 1 && signature.family == 0x19 && hasAVX512F }

    /// CPUID's brand string, e.g. "AMD EPYC 7B13 64-Core Processor" ("unknown" if unavailable).
    public static let brand: String = {
        #if arch(x86_64)
            var buffer = [CChar](repeating: 0, count: 49)
            buffer.withUnsafeMutableBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: 49) { blaze_cpu_brand($0) }
            }
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let s = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return s.isEmpty ? "unknown" : s
        #else
            return "unknown"
        #endif
    }()
}
