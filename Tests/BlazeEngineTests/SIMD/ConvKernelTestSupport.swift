import Testing
@testable import BlazeEngine

/// A suite of `conv` kernel tests (PointwiseConvKernelTests, DirectConvKernelTests): `check`
/// runs one `ConvCase` at one level against `ReferenceKernels.conv2D`, whole and split.
protocol ConvKernelSuite: SIMDKernelSuite {}

/// One conv of the conv kernel suites (`ConvCase` inside them).
struct ConvKernelCase: CustomStringConvertible {
    var n = 1, h = 1, w = 1, c = 1, o = 1, kh = 1, kw = 1, stride = 1, dilation = 1
    var padding = Padding.same, activation = Activation.none
    var prelu = false, residual = false, residualActivation = Activation.none, residualChannels: Int? = nil
    var inPlace = false, bias = true
    var backend = ConvBackend.simd
    var tile: ConvTileShape? = nil
    /// The kernel reads the input stored `[C, N·H·W]` (pointwise only).
    var channelMajor = false
    var description: String {
        "N\(n) \(h)×\(w)×\(c)→\(o) k\(kh)×\(kw) s\(stride) d\(dilation) \(padding) \(activation) prelu \(prelu) residual \(residual)(\(residualActivation), ch \(residualChannels.map(String.init) ?? "O"), in place \(inPlace)) bias \(bias) \(backend) tile \(tile.map(String.init(describing:)) ?? "auto")\(channelMajor ? " channel-major" : "")"
    }
}

extension ConvKernelSuite {
    typealias ConvCase = ConvKernelCase

    @discardableResult
    static func check(_ K: any ISAKernelSet.Type, _ t: ConvCase, _ rng: inout SIMDTestRNG, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let p = Conv2DParams(
            strideH: t.stride, strideW: t.stride, dilationH: t.dilation, dilationW: t.dilation,
            padding: t.padding, activation: t.activation)
        guard let g = try? p.geometry(input: [t.n, t.h, t.w, t.c], filter: [t.o, t.kh, t.kw, t.c]) else { return false }
        let x = SIMDTestBuffer.random(t.n * t.h * t.w * t.c, &rng)
        let f = SIMDTestBuffer.random(t.o * t.kh * t.kw * t.c, &rng)
        let b = SIMDTestBuffer.random(t.o, &rng), alpha = SIMDTestBuffer.random(t.o, &rng)
        let pixels = g.batch * g.outH * g.outW
        let outCount = pixels * t.o
        let rc = t.residualChannels ?? t.o
        let res = SIMDTestBuffer.random(pixels * rc, &rng)

        let ref = SIMDTestBuffer(outCount)
        ReferenceKernels.conv2D(
            p, input: TensorView(x.pointer, [t.n, t.h, t.w, t.c]), filter: TensorView(f.pointer, [t.o, t.kh, t.kw, t.c]),
            bias: t.bias ? TensorView(b.pointer, [t.o]) : nil, output: MutableTensorView(ref.mutablePointer, g.outputShape))
        SIMDTestBuffer.fuseReference(
            ref, channels: t.o, residual: t.residual ? res : nil, residualChannels: rc,
            residualActivation: t.residualActivation, alpha: t.prelu ? alpha : nil)

        let k = K.conv(
            params: p, geometry: g, filter: f.pointer, bias: t.bias ? b.pointer : nil,
            prelu: t.prelu ? alpha.pointer : nil, residualActivation: t.residualActivation,
            residualChannels: t.residualChannels, backend: t.backend, tile: t.tile, channelMajorInput: t.channelMajor)
        // The same input values, stored channel-major for a kernel that reads them so.
        let input = SIMDTestBuffer(t.n * t.h * t.w * t.c)
        let P = t.n * t.h * t.w
        for p in 0..<P {
            for ch in 0..<t.c { input.mutablePointer[t.channelMajor ? ch * P + p : p * t.c + ch] = x.pointer[p * t.c + ch] }
        }
        let (whole, split) = SIMDTestBuffer.wholeAndSplit(
            count: outCount, workCount: k.workCount, residual: t.residual ? res : nil, inPlace: t.inPlace
        ) { k.run(input: input.pointer, output: $0, residual: $1, work: $2) }
        let what = "\(K.level) conv \(t) [\(k.kind) \(k.tileRows)×\(k.tileVectors)/\(k.tileLanes), \(k.workCount) units]"
        SIMDTestBuffer.expectClose(whole, ref, what, sourceLocation: sourceLocation)
        SIMDTestBuffer.expectIdentical(split, whole, "split " + what, sourceLocation: sourceLocation)
        return true
    }
}
