import Testing
@testable import BlazeEngine

/// `fullyConnected` (SIMD and BLAS backends) of every runnable level against
/// `ReferenceKernels.fullyConnected`, run in two parts.
@Suite struct FullyConnectedKernelTests {
    @Test(arguments: KernelLevels.runnable) func fullyConnected(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 15)
        for (rows, i, o) in [(1, 64, 10), (1, 1152, 63), (3, 17, 33), (5, 128, 1)] {
            let p = FullyConnectedParams(activation: .relu)
            let x = SIMDTestBuffer.random(rows * i, &rng), w = SIMDTestBuffer.random(o * i, &rng), b = SIMDTestBuffer.random(o, &rng)
            let ref = SIMDTestBuffer(rows * o)
            ReferenceKernels.fullyConnected(
                p, input: TensorView(x.pointer, [rows, i]), weights: TensorView(w.pointer, [o, i]),
                bias: TensorView(b.pointer, [o]), output: MutableTensorView(ref.mutablePointer, [rows, o]))
            for backend in [ConvBackend.simd, .blas] {
                let k = K.fullyConnected(
                    params: p, rows: rows, inputSize: i, outputSize: o, weights: w.pointer, bias: b.pointer,
                    backend: backend)
                let y = SIMDTestBuffer(rows * o, fill: .nan)
                for part in 0..<2 { k.run(input: x.pointer, output: y.mutablePointer, residual: nil, work: k.partition(part, of: 2)) }
                SIMDTestBuffer.expectClose(y, ref, "FC \(rows)×\(i)→\(o) \(backend)")
            }
        }
    }
}
