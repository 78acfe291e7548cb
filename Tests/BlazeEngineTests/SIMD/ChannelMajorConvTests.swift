import Testing
@testable import BlazeEngine

/// `ISAKernelSet.channelMajorConv` of every level this CPU runs, against the reference kernels:
/// the input `[K, P]` transposed to NHWC by `ReferenceKernels.transpose`, `ReferenceKernels.conv2D`
/// with the same filter and bias, the fused ADD (+ activation) applied to that, and the result
/// transposed back to `[O, P]`. Seeded random shapes cover output channels not a multiple of the
/// tile (and fewer than it), pixels not a multiple of the vector, every activation, residuals
/// (also in place). Tolerance as in the SIMD kernel suites (`SIMDKernelSuite`); work splits must
/// give identical bytes.
@Suite struct ChannelMajorConvTests: SIMDKernelSuite {
    struct Case: CustomStringConvertible {
        var o: Int, k: Int, p: Int
        var activation = Activation.none
        var residual = false, residualActivation = Activation.none, inPlace = false, bias = true
        var description: String {
            "\(k)→\(o) over \(p) pixels, \(activation), residual \(residual)(\(residualActivation), in place \(inPlace)), bias \(bias)"
        }
    }

    /// `[rows, columns]` → `[columns, rows]` by the reference TRANSPOSE.
    static func transposed(_ x: SIMDTestBuffer, rows: Int, columns: Int) -> SIMDTestBuffer {
        let y = SIMDTestBuffer(x.count)
        ReferenceKernels.transpose(
            TransposeParams(perm: [1, 0]), input: TensorView(x.pointer, [rows, columns]),
            output: MutableTensorView(y.mutablePointer, [columns, rows]))
        return y
    }

    static func check(_ L: any ISAKernelSet.Type, _ t: Case, _ rng: inout SIMDTestRNG, sourceLocation: SourceLocation = #_sourceLocation) {
        let x = SIMDTestBuffer.random(t.k * t.p, &rng)  // [K, P]
        let f = SIMDTestBuffer.random(t.o * t.k, &rng)  // [O, 1, 1, K]
        let b = SIMDTestBuffer.random(t.o, &rng)
        let res = SIMDTestBuffer.random(t.o * t.p, &rng)  // [O, P]

        // Reference: NHWC conv of the transposed input, fused ADD, transposed back.
        let nhwc = transposed(x, rows: t.k, columns: t.p)
        let conv = SIMDTestBuffer(t.p * t.o)
        ReferenceKernels.conv2D(
            Conv2DParams(padding: .valid, activation: t.activation), input: TensorView(nhwc.pointer, [1, 1, t.p, t.k]),
            filter: TensorView(f.pointer, [t.o, 1, 1, t.k]), bias: t.bias ? TensorView(b.pointer, [t.o]) : nil,
            output: MutableTensorView(conv.mutablePointer, [1, 1, t.p, t.o]))
        SIMDTestBuffer.fuseReference(
            conv, channels: t.o, residual: t.residual ? transposed(res, rows: t.o, columns: t.p) : nil, residualChannels: t.o,
            residualActivation: t.residualActivation, alpha: nil)
        let ref = transposed(conv, rows: t.p, columns: t.o)

        let k = L.channelMajorConv(
            filter: f.pointer, bias: t.bias ? b.pointer : nil, outputChannels: t.o, inputChannels: t.k, pixels: t.p,
            activation: t.activation, residualActivation: t.residualActivation)
        let (whole, split) = SIMDTestBuffer.wholeAndSplit(
            count: t.o * t.p, workCount: k.workCount, residual: t.residual ? res : nil, inPlace: t.inPlace
        ) { k.run(input: x.pointer, output: $0, residual: $1, work: $2) }
        let what = "\(L.level) channel-major conv \(t) [\(k.tileRows)×\(k.tileVectors), \(k.workCount) units]"
        SIMDTestBuffer.expectClose(whole, ref, what, sourceLocation: sourceLocation)
        SIMDTestBuffer.expectIdentical(split, whole, "split " + what, sourceLocation: sourceLocation)
    }

    @Test(arguments: KernelLevels.runnable) func everyRowAndPixelTail(level: ISALevel) throws {
        let L = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 31)
        for o in [1, 2, 3, 4, 5, 6, 7, 13, 16, 24, 97] {
            for p in [1, 3, 4, 8, 15, 16, 17, 33, 64, 70] {
                let t = Case(
                    o: o, k: Int.random(in: 1...40, using: &rng), p: p,
                    activation: Self.activations.randomElement(using: &rng)!,
                    residual: Bool.random(using: &rng), residualActivation: Self.activations.randomElement(using: &rng)!,
                    inPlace: Bool.random(using: &rng), bias: Bool.random(using: &rng))
                Self.check(L, t, &rng)
            }
        }
    }

    /// The token-mixing shapes of face_blendshapes (97 tokens, 384 hidden, 64 channels) and deep K.
    @Test(arguments: KernelLevels.runnable) func tokenMixingShapes(level: ISALevel) throws {
        let L = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 32)
        Self.check(L, Case(o: 384, k: 97, p: 64, activation: .relu), &rng)
        Self.check(L, Case(o: 97, k: 384, p: 64, residual: true), &rng)
        Self.check(L, Case(o: 97, k: 384, p: 64, residual: true, inPlace: true), &rng)
        Self.check(L, Case(o: 29, k: 515, p: 48, activation: .relu6, residual: true, residualActivation: .relu), &rng)
    }
}
