import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// A dense tensor owned by a test: row-major values plus shape.
struct KernelTensor {
    var shape: [Int]
    var values: [Float]

    init(_ shape: [Int], _ values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "KernelTensor \(shape) given \(values.count) values")
        self.shape = shape; self.values = values
    }

    /// Values `start, start+1, …` in row-major order.
    static func iota(_ shape: [Int], from start: Float = 0) -> KernelTensor {
        let n = shape.reduce(1, *)
        return KernelTensor(shape, (0..<n).map { start + Float($0) })
    }

    static func filled(_ shape: [Int], _ v: Float) -> KernelTensor {
        KernelTensor(shape, [Float](repeating: v, count: shape.reduce(1, *)))
    }

    static func random(_ shape: [Int], _ rng: inout KernelTestRNG, in range: ClosedRange<Float> = -1...1) -> KernelTensor {
        let n = shape.reduce(1, *)
        return KernelTensor(shape, (0..<n).map { _ in Float.random(in: range, using: &rng) })
    }
}

/// The project's one seeded generator (SplitMix64), so the kernel tests' random shapes repeat on every run.
typealias KernelTestRNG = SeededRandom

enum KernelTestKit {
    /// Copies `tensors` into one buffer that outlives `body`, and hands out views on it.
    static func withViews<R>(_ tensors: [KernelTensor], _ body: ([TensorView]) -> R) -> R {
        let total = tensors.reduce(0) { $0 + $1.values.count }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(total, 1))
        defer { buffer.deallocate() }
        var views: [TensorView] = []
        var offset = 0
        for t in tensors {
            t.values.withUnsafeBufferPointer { src in
                if let base = src.baseAddress { (buffer + offset).initialize(from: base, count: src.count) }
            }
            views.append(TensorView(UnsafePointer(buffer + offset), t.shape))
            offset += t.values.count
        }
        return body(views)
    }

    /// Runs a kernel on `inputs` into a fresh output of `outShape` pre-filled with NaN (so an
    /// element the kernel forgets to write shows up), and returns the output values.
    static func run(
        _ inputs: [KernelTensor], out outShape: [Int],
        _ kernel: ([TensorView], MutableTensorView) -> Void
    ) -> [Float] {
        let n = outShape.reduce(1, *)
        var result = [Float](repeating: .nan, count: n)
        withViews(inputs) { views in
            let out = UnsafeMutablePointer<Float>.allocate(capacity: max(n, 1))
            defer { out.deallocate() }
            out.initialize(repeating: .nan, count: max(n, 1))
            kernel(views, MutableTensorView(out, outShape))
            for i in 0..<n { result[i] = out[i] }
        }
        return result
    }

    /// Element-wise comparison with `|a − e| ≤ tolerance · max(1, |e|)`; exact for `tolerance == 0`.
    static func expectClose(
        _ actual: [Float], _ expected: [Float], tolerance: Float = 1e-6,
        _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual.count == expected.count else {
            Issue.record("\(what) count \(actual.count) ≠ expected \(expected.count)", sourceLocation: sourceLocation)
            return
        }
        var bad: [String] = []
        for i in actual.indices {
            let a = actual[i], e = expected[i]
            if a == e { continue }
            if a.isNaN || e.isNaN || abs(a - e) > tolerance * max(1, abs(e)) {
                bad.append("[\(i)] \(a) vs \(e)")
            }
        }
        if !bad.isEmpty {
            Issue.record(
                "\(what) \(bad.count) mismatches: \(bad.prefix(8).joined(separator: ", "))\nactual \(actual)",
                sourceLocation: sourceLocation)
        }
    }

    /// `|a − r| ≤ relative · max(1, max|r|)` over the whole tensor (the parity tolerance style).
    static func expectCloseToReference(
        _ actual: [Float], _ reference: [Float], relative: Float = 1e-4,
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual.count == reference.count else {
            Issue.record("\(what): count \(actual.count) ≠ \(reference.count)", sourceLocation: sourceLocation)
            return
        }
        let scale = max(1, reference.maxMagnitude())
        var worst: Float = 0, worstIndex = 0
        for i in actual.indices {
            let d = abs(actual[i] - reference[i])
            if d.isNaN { worst = .nan; worstIndex = i; break }
            if d > worst { worst = d; worstIndex = i }
        }
        if !(worst <= relative * scale) {
            Issue.record(
                "\(what): max error \(worst) at \(worstIndex) (\(actual[worstIndex]) vs \(reference[worstIndex])), scale \(scale)",
                sourceLocation: sourceLocation)
        }
    }
}
