import Testing
@testable import BlazeEngine

/// `pool` (max and average) of every runnable level against the reference pools: filter sizes,
/// strides, paddings, activations, run in two parts.
@Suite struct PoolKernelTests: SIMDKernelSuite {
    @Test(arguments: KernelLevels.runnable) func pooling(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 20)
        for c in [1, 3, 9, 16, 21, 40, 64] {
            for (f, s) in [(2, 2), (3, 2), (3, 1), (5, 2)] {
                for padding in Padding.allCases {
                    for average in [false, true] {
                        let h = Int.random(in: f...13, using: &rng), w = Int.random(in: f...13, using: &rng)
                        let p = Pool2DParams(
                            filterH: f, filterW: f, strideH: s, strideW: s, padding: padding,
                            activation: Self.activations.randomElement(using: &rng)!)
                        let g = try! p.geometry(input: [2, h, w, c])
                        let x = SIMDTestBuffer.random(2 * h * w * c, &rng)
                        let n = g.batch * g.outH * g.outW * c
                        let ref = SIMDTestBuffer(n)
                        let view = TensorView(x.pointer, [2, h, w, c]), out = MutableTensorView(ref.mutablePointer, g.outputShape)
                        if average { ReferenceKernels.averagePool2D(p, input: view, output: out) } else { ReferenceKernels.maxPool2D(p, input: view, output: out) }
                        let k = K.pool(params: p, geometry: g, average: average)
                        let y = SIMDTestBuffer(n, fill: .nan)
                        k.run(input: x.pointer, output: y.mutablePointer, rows: 1..<k.workCount)
                        k.run(input: x.pointer, output: y.mutablePointer, rows: 0..<1)
                        SIMDTestBuffer.expectClose(y, ref, "pool \(h)×\(w)×\(c) f\(f) s\(s) \(padding) avg \(average)")
                    }
                }
            }
        }
    }
}
