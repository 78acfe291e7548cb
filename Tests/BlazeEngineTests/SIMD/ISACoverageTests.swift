import Testing
@testable import BlazeEngine

/// Which ISA levels this run covers. The kernel suites run on every level in
/// `KernelLevels.runnable`; a level this CPU lacks shows up here as a skipped test with its reason
/// (run those levels under `qemu-x86_64 -cpu …`, see Tools/isa/). The model-level suites run the
/// level `BLAZE_ISA` selects (default: the best one); `.ci/run` repeats them per level.
@Suite struct ISACoverageTests {
    static func runs(_ level: ISALevel) -> Bool { KernelLevels.runnable.contains(level) }

    @Test(.enabled(if: runs(.baseline), "this build or CPU has no baseline level"))
    func baselineLevelRuns() throws { try Self.smoke(.baseline) }

    @Test(.enabled(if: runs(.avx2), "this CPU lacks AVX2+FMA+F16C: avx2 kernels not run"))
    func avx2LevelRuns() throws { try Self.smoke(.avx2) }

    @Test(.enabled(if: runs(.avx512), "this CPU lacks AVX-512 F/BW/DQ/VL: avx512 kernels not run"))
    func avx512LevelRuns() throws { try Self.smoke(.avx512) }

    @Test(.enabled(if: runs(.neon), "not an aarch64 build: neon kernels not run (make test-aarch64)"))
    func neonLevelRuns() throws { try Self.smoke(.neon) }

    /// The level's kernel set is the one asked for, and a 3×3 conv matches a hand-computed value.
    static func smoke(_ level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        #expect(K.level == level)
        // 3×3 SAME conv of a 3×3 ramp 1…9 with an all-ones filter, one channel: the centre output
        // is the sum 45, the corner (0,0) is 1+2+4+5 = 12; bias 0.5.
        let p = Conv2DParams(padding: .same)
        let g = try p.geometry(input: [1, 3, 3, 1], filter: [1, 3, 3, 1])
        let x: [Float] = (1...9).map(Float.init), f = [Float](repeating: 1, count: 9), b: [Float] = [0.5]
        var y = [Float](repeating: .nan, count: 9)
        x.withUnsafeBufferPointer { xp in
            f.withUnsafeBufferPointer { fp in
                b.withUnsafeBufferPointer { bp in
                    y.withUnsafeMutableBufferPointer { yp in
                        K.conv(params: p, geometry: g, filter: fp.baseAddress!, bias: bp.baseAddress!)
                            .run(input: xp.baseAddress!, output: yp.baseAddress!)
                    }
                }
            }
        }
        #expect(y[4] == 45.5 && y[0] == 12.5, "\(level): \(y)")
    }

    @Test func unsupportedLevelsAreErrorsNotCrashes() throws {
        // A level the CPU lacks, or a name that is no level: a typed error naming the CPU's levels.
        for missing in ISALevel.allCases where !ISALevel.supported.contains(missing) {
            #expect(throws: BlazeError.self) { try KernelLevels.kernels(for: missing) }
            guard case .failure(let e) = ISALevel.resolve(environment: missing.rawValue) else {
                Issue.record("BLAZE_ISA=\(missing) accepted on a CPU without it"); continue
            }
            #expect(e.kind == .unsupportedISA && e.message.contains(ISALevel.supported.map(\.rawValue).joined(separator: ", ")))
        }
        guard case .failure(let e) = ISALevel.resolve(environment: "sse9") else { Issue.record("BLAZE_ISA=sse9 accepted"); return }
        #expect(e.kind == .unsupportedISA)
        #expect(try ISALevel.resolve(environment: nil).get() == ISALevel.best)
        // Names are trimmed and case-blind (baseline on x86-64, neon on arm64).
        let first = ISALevel.supported[0]
        #expect(try ISALevel.resolve(environment: " \(first.rawValue.capitalized) ").get() == first)
        #expect(try ISALevel.resolve(environment: "avx2", supported: [.baseline, .avx2]).get() == .avx2)
    }
}
