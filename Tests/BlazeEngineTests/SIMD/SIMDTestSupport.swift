import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// The project's one seeded generator (SplitMix64), so the SIMD kernel tests' random shapes repeat on every run.
typealias SIMDTestRNG = SeededRandom

/// A suite of SIMD kernel tests: every ISA level's prepared kernels (BlazeKernels/Shared + the
/// level's Level.swift), on each level this CPU supports (`KernelLevels.runnable`), against the
/// reference kernels on seeded random shapes that cover every channel/tile tail, strides, both
/// paddings, activations, fused PReLU and residual, and work splits. Tolerance
/// `1e-5 · max(1, max|ref|)` per tensor (FMA and summation order change rounding). Work splits
/// must give identical bytes to one run. One suite per op: DepthwiseKernelTests,
/// PointwiseConvKernelTests, DirectConvKernelTests, FullyConnectedKernelTests, PoolKernelTests,
/// ResizeBilinearKernelTests, ElementwiseKernelTests, FoldedPaddingKernelTests; with
/// ConvKernelLaneWidthTests and KernelWorkPartitionTests.
/// Run in release: `swift test -c release --filter Kernel` (these and GemmKernelTests). Levels
/// this CPU lacks: see ISACoverageTests.
protocol SIMDKernelSuite {}

extension SIMDKernelSuite {
    /// The activations the kernels fuse; random cases draw from them.
    static var activations: [Activation] { [.none, .relu, .relu6, .reluMinus1To1] }
}

/// A test-owned float buffer (class, so it is freed when the test drops it).
final class SIMDTestBuffer {
    let mutablePointer: UnsafeMutablePointer<Float>
    let count: Int
    var pointer: UnsafePointer<Float> { UnsafePointer(mutablePointer) }

    init(_ count: Int, fill: Float = 0) {
        self.count = count
        mutablePointer = .allocate(capacity: max(count, 1))
        mutablePointer.initialize(repeating: fill, count: max(count, 1))
    }

    deinit { mutablePointer.deallocate() }

    static func random(_ count: Int, _ rng: inout SIMDTestRNG) -> SIMDTestBuffer {
        let b = SIMDTestBuffer(count)
        for i in 0..<count { b.mutablePointer[i] = Float.random(in: -1...1, using: &rng) }
        return b
    }

    func copy() -> SIMDTestBuffer {
        let b = SIMDTestBuffer(count)
        b.mutablePointer.update(from: pointer, count: count)
        return b
    }

    /// Applies the fused ops the kernels replace to a reference conv output `[pixels, channels]`:
    /// ADD of `residual` (`[pixels, residualChannels]`, missing channels count as 0) with its
    /// activation, then PRELU with per-channel `alpha`.
    static func fuseReference(
        _ y: SIMDTestBuffer, channels: Int, residual: SIMDTestBuffer?, residualChannels: Int,
        residualActivation: Activation, alpha: SIMDTestBuffer?
    ) {
        let p = y.mutablePointer
        for i in 0..<y.count {
            let ch = i % channels, px = i / channels
            var v = p[i]
            if let residual { v = residualActivation.apply(v + (ch < residualChannels ? residual.pointer[px * residualChannels + ch] : 0)) }
            if let alpha { let a = alpha.pointer[ch]; v = v < 0 ? a * v : v }
            p[i] = v
        }
    }

    /// A kernel run over all `workCount` units into one output, and in three parts (last, first,
    /// middle) into another: `run(output, residual, units)`. With `inPlace` each output starts as
    /// a copy of `residual` and is its own residual. NaN-filled otherwise, so unwritten outputs show.
    static func wholeAndSplit(
        count: Int, workCount: Int, residual: SIMDTestBuffer?, inPlace: Bool,
        _ run: (UnsafeMutablePointer<Float>, UnsafePointer<Float>?, Range<Int>) -> Void
    ) -> (whole: SIMDTestBuffer, split: SIMDTestBuffer) {
        let whole = SIMDTestBuffer(count, fill: .nan), split = SIMDTestBuffer(count, fill: .nan)
        if inPlace, let residual {
            whole.mutablePointer.update(from: residual.pointer, count: count)
            split.mutablePointer.update(from: residual.pointer, count: count)
        }
        let wholeRes = residual.map { inPlace ? whole.pointer : $0.pointer }
        let splitRes = residual.map { inPlace ? split.pointer : $0.pointer }
        run(whole.mutablePointer, wholeRes, 0..<workCount)
        let a = workCount / 3, c = 2 * workCount / 3
        run(split.mutablePointer, splitRes, c..<workCount)
        run(split.mutablePointer, splitRes, 0..<a)
        run(split.mutablePointer, splitRes, a..<c)
        return (whole, split)
    }

    /// `|actual − ref| ≤ 1e-5 · max(1, max|ref|)` over the tensor; NaN (an unwritten element) fails.
    static func expectClose(
        _ actual: SIMDTestBuffer, _ reference: SIMDTestBuffer, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var scale: Float = 1
        for i in 0..<reference.count { scale = max(scale, abs(reference.pointer[i])) }
        var worst: Float = 0, at = 0
        for i in 0..<actual.count {
            let d = abs(actual.pointer[i] - reference.pointer[i])
            if d.isNaN { worst = .nan; at = i; break }
            if d > worst { worst = d; at = i }
        }
        if !(worst <= 1e-5 * scale) {
            Issue.record(
                "\(what): max error \(worst) at \(at) (\(actual.pointer[at]) vs \(reference.pointer[at])), scale \(scale)",
                sourceLocation: sourceLocation)
        }
    }

    /// Bit-for-bit equality (work splits, exact kernels).
    static func expectIdentical(
        _ actual: SIMDTestBuffer, _ expected: SIMDTestBuffer, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for i in 0..<actual.count where actual.pointer[i].bitPattern != expected.pointer[i].bitPattern {
            Issue.record("\(what): element \(i) is \(actual.pointer[i]), expected \(expected.pointer[i])", sourceLocation: sourceLocation)
            return
        }
    }
}
