import Testing
@testable import BlazeEngine

/// `resizeBilinear` of every runnable level: bit for bit the reference, with align-corners,
/// half-pixel centres or neither.
@Suite struct ResizeBilinearKernelTests {
    @Test(arguments: KernelLevels.runnable) func resizeBilinearIsBitExact(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 21)
        for c in [1, 5, 16, 35] {
            for (ih, iw, oh, ow) in [(6, 6, 12, 12), (12, 12, 24, 24), (5, 7, 9, 14), (8, 8, 4, 4)] {
                for (ac, hp) in [(false, false), (true, false), (false, true)] {
                    let p = ResizeBilinearParams(height: oh, width: ow, alignCorners: ac, halfPixelCenters: hp)
                    let x = SIMDTestBuffer.random(ih * iw * c, &rng)
                    let ref = SIMDTestBuffer(oh * ow * c)
                    ReferenceKernels.resizeBilinear(p, input: TensorView(x.pointer, [1, ih, iw, c]), output: MutableTensorView(ref.mutablePointer, [1, oh, ow, c]))
                    let k = K.resizeBilinear(params: p, inputShape: [1, ih, iw, c])
                    let y = SIMDTestBuffer(oh * ow * c, fill: .nan)
                    k.run(input: x.pointer, output: y.mutablePointer, rows: k.partition(1, of: 2))
                    k.run(input: x.pointer, output: y.mutablePointer, rows: k.partition(0, of: 2))
                    SIMDTestBuffer.expectIdentical(y, ref, "resize \(ih)×\(iw)→\(oh)×\(ow)×\(c) ac \(ac) hp \(hp)")
                }
            }
        }
    }
}
