import Testing
@testable import BlazeEngine

/// A zero PAD folded into the following VALID depthwise or conv kernel, at every runnable level,
/// against PAD then the reference kernel.
@Suite struct FoldedPaddingKernelTests {
    /// An explicit zero PAD before a VALID conv/depthwise folds into the kernel's geometry
    /// (any padTop/padLeft, trailing pads implied by outH/outW): compare with PAD + reference.
    @Test(arguments: KernelLevels.runnable) func foldedSpatialPadding(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 23)
        for (top, bottom, left, right) in [(1, 1, 1, 1), (0, 2, 1, 0), (2, 0, 0, 3), (3, 1, 2, 2)] {
            for (k, s) in [(3, 1), (3, 2), (5, 2), (2, 2)] {
                let h = 9, w = 11, c = 24, o = 20
                let ph = h + top + bottom, pw = w + left + right
                guard ph >= k, pw >= k else { continue }
                let x = SIMDTestBuffer.random(h * w * c, &rng)
                let padded = SIMDTestBuffer(ph * pw * c)
                ReferenceKernels.pad(
                    PadParams(paddings: [[0, 0], [top, bottom], [left, right], [0, 0]]),
                    input: TensorView(x.pointer, [1, h, w, c]), output: MutableTensorView(padded.mutablePointer, [1, ph, pw, c]))
                // Depthwise.
                let dp = DepthwiseConv2DParams(strideH: s, strideW: s, padding: .valid, activation: .relu)
                let pg = try! dp.geometry(input: [1, ph, pw, c], filter: [1, k, k, c])
                var g = pg
                g.inH = h; g.inW = w; g.padTop = top; g.padLeft = left
                let f = SIMDTestBuffer.random(k * k * c, &rng), b = SIMDTestBuffer.random(o > c ? o : c, &rng)
                let ref = SIMDTestBuffer(pg.outH * pg.outW * c)
                ReferenceKernels.depthwiseConv2D(
                    dp, input: TensorView(padded.pointer, [1, ph, pw, c]), filter: TensorView(f.pointer, [1, k, k, c]),
                    bias: TensorView(b.pointer, [c]), output: MutableTensorView(ref.mutablePointer, pg.outputShape))
                let dk = K.depthwise(params: dp, geometry: g, filter: f.pointer, bias: b.pointer)
                let y = SIMDTestBuffer(ref.count, fill: .nan)
                dk.run(input: x.pointer, output: y.mutablePointer)
                SIMDTestBuffer.expectClose(y, ref, "depthwise k\(k) s\(s) folded pad \((top, bottom, left, right))")
                // Conv.
                let cp = Conv2DParams(strideH: s, strideW: s, padding: .valid, activation: .relu6)
                let cpg = try! cp.geometry(input: [1, ph, pw, c], filter: [o, k, k, c])
                var cg = cpg
                cg.inH = h; cg.inW = w; cg.padTop = top; cg.padLeft = left
                let cf = SIMDTestBuffer.random(o * k * k * c, &rng)
                let cref = SIMDTestBuffer(cpg.outH * cpg.outW * o)
                ReferenceKernels.conv2D(
                    cp, input: TensorView(padded.pointer, [1, ph, pw, c]), filter: TensorView(cf.pointer, [o, k, k, c]),
                    bias: TensorView(b.pointer, [o]), output: MutableTensorView(cref.mutablePointer, cpg.outputShape))
                let ck = K.conv(params: cp, geometry: cg, filter: cf.pointer, bias: b.pointer)
                let cy = SIMDTestBuffer(cref.count, fill: .nan)
                ck.run(input: x.pointer, output: cy.mutablePointer)
                SIMDTestBuffer.expectClose(cy, cref, "conv k\(k) s\(s) folded pad \((top, bottom, left, right))")
            }
        }
    }
}
