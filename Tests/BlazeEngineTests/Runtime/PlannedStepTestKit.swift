import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// Runs one op through the session's optimised plan (`PlannedStep`) and through the reference
/// kernel, on the same inputs.
enum PlannedStepTestKit {
    /// Output of `op` on `inputs` through `PlannedStep` with `threads` threads. With `inPlace`, the
    /// output is written over input `inPlace` (which must have the output's shape), as an in-place
    /// step planned by `ArenaPlan` does.
    static func planned(_ op: Op, _ inputs: [KernelTensor], threads: Int, inPlace: Int? = nil) throws -> [Float] {
        let outShape = try op.inferOutputShape(inputs.map(\.shape))
        let outCount = outShape.reduce(1, *)
        let pool = WorkerPool(threadCount: threads)
        let scratchCount = PlannedStep.scratchCount(op, inputs: inputs.map(\.shape))
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: max(scratchCount, 1))
        defer { scratch.deallocate() }
        var buffers: [UnsafeMutablePointer<Float>] = []
        defer { buffers.forEach { $0.deallocate() } }
        var views: [TensorView] = []
        for t in inputs {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(t.values.count, 1))
            t.values.withUnsafeBufferPointer { if let b = $0.baseAddress { p.initialize(from: b, count: $0.count) } }
            buffers.append(p)
            views.append(TensorView(UnsafePointer(p), t.shape))
        }
        let out: UnsafeMutablePointer<Float>
        if let k = inPlace {
            precondition(inputs[k].values.count == outCount, "in-place input must have the output's size")
            out = buffers[k]
        } else {
            out = .allocate(capacity: max(outCount, 1))
            out.initialize(repeating: .nan, count: max(outCount, 1))
            buffers.append(out)
        }
        let step = try PlannedStep.make(
            op, inputs: views, output: MutableTensorView(out, outShape),
            scratch: scratchCount > 0 ? scratch : nil, threads: threads,
            level: try KernelLevels.kernels(for: KernelLevels.active()))
        step.execute(pool)
        return Array(UnsafeBufferPointer(start: out, count: outCount))
    }

    /// Output of the reference kernel for `op`.
    static func reference(_ op: Op, _ inputs: [KernelTensor]) throws -> [Float] {
        let outShape = try op.inferOutputShape(inputs.map(\.shape))
        let unusedScratch = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        defer { unusedScratch.deallocate() }
        return KernelTestKit.run(inputs, out: outShape) { views, out in
            Executor.execute(Session.Step(op: op, inputs: views, output: out))
        }
    }

    /// Bitwise equality (NaNs with the same payload compare equal, +0 and −0 differ).
    static func expectBitwise(
        _ actual: [Float], _ expected: [Float], _ what: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual.count == expected.count else {
            Issue.record("\(what()): count \(actual.count) ≠ \(expected.count)", sourceLocation: sourceLocation)
            return
        }
        if let i = actual.indices.first(where: { actual[$0].bitPattern != expected[$0].bitPattern }) {
            Issue.record("\(what()): first difference at [\(i)]: \(actual[i]) vs \(expected[i])", sourceLocation: sourceLocation)
        }
    }

    /// Planned at 1, 2 and 3 threads (and in place, if given) bitwise equal to the reference kernel.
    static func expectMatchesReference(
        _ op: Op, _ inputs: [KernelTensor], inPlace: Int? = nil, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ref = try reference(op, inputs)
        for threads in 1...3 {
            expectBitwise(try planned(op, inputs, threads: threads), ref, "\(what) threads \(threads)", sourceLocation: sourceLocation)
            if let k = inPlace {
                expectBitwise(
                    try planned(op, inputs, threads: threads, inPlace: k), ref,
                    "\(what) in place over input \(k), threads \(threads)", sourceLocation: sourceLocation)
            }
        }
    }

    /// For ops on the packed SIMD kernels (depthwise, pooling), which use FMA on the AVX2/AVX-512 levels and
    /// their own summation order: within `1e-5·max(1, max|ref|)` of the reference, and bitwise
    /// equal across thread counts.
    static func expectMatchesReferenceFused(
        _ op: Op, _ inputs: [KernelTensor], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ref = try reference(op, inputs)
        let single = try planned(op, inputs, threads: 1)
        let error = parityError(single, ref)
        #expect(error <= 1e-5, "\(what): max |Δ| / max(1, max|ref|) \(error)", sourceLocation: sourceLocation)
        for threads in 2...3 {
            expectBitwise(try planned(op, inputs, threads: threads), single, "\(what) threads \(threads)", sourceLocation: sourceLocation)
        }
    }
}
