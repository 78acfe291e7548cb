import Testing
@testable import BlazeEngine

/// `depthwise` of every runnable level against `ReferenceKernels.depthwiseConv2D`: every channel
/// tail and tile shape, pixel-major rows, dilation, depth multipliers, MediaPipe's shapes,
/// in-place residuals.
@Suite struct DepthwiseKernelTests: SIMDKernelSuite {
    struct DWCase: CustomStringConvertible {
        var n = 1, h = 1, w = 1, c = 1, kh = 3, kw = 3, stride = 1, dilation = 1, multiplier = 1
        var padding = Padding.same, activation = Activation.none
        var prelu = false, residual = false, residualActivation = Activation.none, bias = true
        var tilePixels: Int? = nil
        var description: String {
            "N\(n) \(h)×\(w)×\(c) k\(kh)×\(kw) s\(stride) d\(dilation) m\(multiplier) \(padding) \(activation) prelu \(prelu) residual \(residual)(\(residualActivation)) bias \(bias) tile \(tilePixels.map(String.init) ?? "auto")"
        }
    }

    /// Returns false when the geometry is invalid (VALID kernel larger than the input).
    @discardableResult
    static func check(_ K: any ISAKernelSet.Type, _ t: DWCase, _ rng: inout SIMDTestRNG, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let p = DepthwiseConv2DParams(
            strideH: t.stride, strideW: t.stride, dilationH: t.dilation, dilationW: t.dilation,
            depthMultiplier: t.multiplier, padding: t.padding, activation: t.activation)
        let O = t.c * t.multiplier
        guard let g = try? p.geometry(input: [t.n, t.h, t.w, t.c], filter: [1, t.kh, t.kw, O]) else { return false }
        let x = SIMDTestBuffer.random(t.n * t.h * t.w * t.c, &rng)
        let f = SIMDTestBuffer.random(t.kh * t.kw * O, &rng)
        let b = SIMDTestBuffer.random(O, &rng), alpha = SIMDTestBuffer.random(O, &rng)
        let outCount = g.batch * g.outH * g.outW * O
        let res = SIMDTestBuffer.random(outCount, &rng)

        let ref = SIMDTestBuffer(outCount)
        ReferenceKernels.depthwiseConv2D(
            p, input: TensorView(x.pointer, [t.n, t.h, t.w, t.c]), filter: TensorView(f.pointer, [1, t.kh, t.kw, O]),
            bias: t.bias ? TensorView(b.pointer, [O]) : nil, output: MutableTensorView(ref.mutablePointer, g.outputShape))
        SIMDTestBuffer.fuseReference(
            ref, channels: O, residual: t.residual ? res : nil, residualChannels: O,
            residualActivation: t.residualActivation, alpha: t.prelu ? alpha : nil)

        let k = K.depthwise(
            params: p, geometry: g, filter: f.pointer, bias: t.bias ? b.pointer : nil,
            prelu: t.prelu ? alpha.pointer : nil, residualActivation: t.residualActivation,
            tilePixels: t.tilePixels)
        let whole = SIMDTestBuffer(outCount, fill: .nan), split = SIMDTestBuffer(outCount, fill: .nan)
        k.run(input: x.pointer, output: whole.mutablePointer, residual: t.residual ? res.pointer : nil)
        let cut = k.workCount / 2
        k.run(input: x.pointer, output: split.mutablePointer, residual: t.residual ? res.pointer : nil, rows: cut..<k.workCount)
        k.run(input: x.pointer, output: split.mutablePointer, residual: t.residual ? res.pointer : nil, rows: 0..<cut)
        SIMDTestBuffer.expectClose(whole, ref, "\(K.level) depthwise \(t)", sourceLocation: sourceLocation)
        SIMDTestBuffer.expectIdentical(split, whole, "depthwise split \(t)", sourceLocation: sourceLocation)
        return true
    }

    @Test(arguments: KernelLevels.runnable) func depthwiseEveryChannelTail(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 1)
        for c in [1, 2, 3, 4, 5, 7, 8, 12, 15, 16, 17, 20, 24, 28, 31, 32, 33, 36, 42, 47, 48, 64, 72, 96] {
            for (k, s) in [(3, 1), (3, 2), (5, 1), (5, 2)] {
                for padding in Padding.allCases {
                    let t = DWCase(
                        n: Int.random(in: 1...2, using: &rng), h: Int.random(in: 1...17, using: &rng),
                        w: Int.random(in: 1...17, using: &rng), c: c, kh: k, kw: k, stride: s,
                        padding: padding, activation: Self.activations.randomElement(using: &rng)!,
                        prelu: Bool.random(using: &rng), residual: Bool.random(using: &rng),
                        residualActivation: Self.activations.randomElement(using: &rng)!,
                        bias: Bool.random(using: &rng))
                    Self.check(K, t, &rng)
                }
            }
        }
    }

    @Test(arguments: KernelLevels.runnable) func depthwiseOddSizesAndEveryTileShape(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 2)
        for tile in K.depthwiseTilePixels {
            for size in 1...17 {
                for (k, s) in [(3, 1), (3, 2), (5, 1), (5, 2)] {
                    // 112 and 176 channels: after the forced tile's groups, leftover vectors
                    // take the tile of the most vectors that fit (e.g. 4 + 4 + 2 + 1 at 16 lanes).
                    let c = [16, 32, 48, 64, 80, 112, 176][size % 7]
                    Self.check(
                        K,
                        DWCase(
                            h: size, w: 18 - size, c: c, kh: k, kw: k, stride: s, padding: size % 3 == 0 ? .valid : .same,
                            activation: .relu6, prelu: size % 2 == 0, residual: size % 4 == 1, tilePixels: tile), &rng)
                }
            }
        }
    }

    /// Pixel-major rows (`DWPixelMajor`: every widest channel block per group of output pixels,
    /// the narrower tail blocks in tiles), forced at every level, on every channel tail, 3×3 and
    /// 5×5 kernels, both strides, both paddings and every fusion; widths up to 23 so rows have
    /// 4-pixel groups, 2-pixel groups and single border pixels.
    @Test(arguments: KernelLevels.runnable) func depthwisePixelMajorChannelTails(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 6)
        for c in [4, 5, 8, 9, 12, 16, 17, 23, 31, 33, 47, 67, 100, 150] {
            for (k, s) in [(3, 1), (3, 2), (5, 1), (5, 2)] {
                for padding in Padding.allCases {
                    let t = DWCase(
                        n: Int.random(in: 1...2, using: &rng), h: Int.random(in: 1...13, using: &rng),
                        w: Int.random(in: 1...23, using: &rng), c: c, kh: k, kw: k, stride: s,
                        padding: padding, activation: Self.activations.randomElement(using: &rng)!,
                        prelu: Bool.random(using: &rng), residual: Bool.random(using: &rng),
                        residualActivation: Self.activations.randomElement(using: &rng)!,
                        bias: Bool.random(using: &rng), tilePixels: 1)
                    Self.check(K, t, &rng)
                }
            }
        }
    }

    @Test(arguments: KernelLevels.runnable) func depthwiseGeneralPaths(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 3)
        let cases = [
            DWCase(h: 9, w: 11, c: 20, kh: 3, kw: 3, dilation: 2, activation: .relu, prelu: true, residual: true),
            DWCase(h: 12, w: 7, c: 19, kh: 7, kw: 7, stride: 1, activation: .relu6),
            DWCase(h: 9, w: 11, c: 33, kh: 1, kw: 3, stride: 3, padding: .valid),
            DWCase(h: 10, w: 10, c: 17, kh: 3, kw: 5, stride: 2, residual: true, residualActivation: .relu),
            DWCase(n: 2, h: 9, w: 8, c: 6, kh: 3, kw: 3, stride: 2, multiplier: 2, activation: .relu, prelu: true, residual: true),
            DWCase(h: 5, w: 6, c: 3, kh: 5, kw: 5, multiplier: 3, padding: .same)
        ]
        for t in cases { #expect(Self.check(K, t, &rng), "invalid case \(t)") }
    }

    @Test(arguments: KernelLevels.runnable) func depthwiseMediaPipeShapes(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 4)
        Self.check(K, DWCase(h: 96, w: 96, c: 32, kh: 5, kw: 5, prelu: true), &rng)
        Self.check(K, DWCase(h: 24, w: 24, c: 128, kh: 5, kw: 5, stride: 2), &rng)
        Self.check(K, DWCase(h: 14, w: 14, c: 672, kh: 5, kw: 5, activation: .relu6), &rng)
        Self.check(K, DWCase(h: 50, w: 50, c: 24, kh: 3, kw: 3, padding: .valid), &rng)
        Self.check(K, DWCase(h: 64, w: 64, c: 8, kh: 3, kw: 3), &rng)
    }

    @Test(arguments: KernelLevels.runnable) func depthwiseInPlaceResidual(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 5)
        // C = 700: row chunks of 8 pixels, so the last chunk (1 pixel) shifts its tiles back into
        // the previous chunk, whose pixels were already written over the residual.
        for c in [5, 16, 24, 40, 700] {
            let p = DepthwiseConv2DParams(padding: .same, activation: .relu)
            let g = try! p.geometry(input: [1, 7, 9, c], filter: [1, 3, 3, c])  // width 9: shifted last tiles
            let x = SIMDTestBuffer.random(7 * 9 * c, &rng), f = SIMDTestBuffer.random(9 * c, &rng), b = SIMDTestBuffer.random(c, &rng)
            let res = SIMDTestBuffer.random(7 * 9 * c, &rng)
            let ref = SIMDTestBuffer(7 * 9 * c)
            ReferenceKernels.depthwiseConv2D(
                p, input: TensorView(x.pointer, [1, 7, 9, c]), filter: TensorView(f.pointer, [1, 3, 3, c]),
                bias: TensorView(b.pointer, [c]), output: MutableTensorView(ref.mutablePointer, g.outputShape))
            SIMDTestBuffer.fuseReference(ref, channels: c, residual: res, residualChannels: c, residualActivation: .relu6, alpha: nil)
            let k = K.depthwise(params: p, geometry: g, filter: f.pointer, bias: b.pointer, residualActivation: .relu6)
            let y = res.copy()
            k.run(input: x.pointer, output: y.mutablePointer, residual: y.pointer, rows: 3..<k.workCount)
            k.run(input: x.pointer, output: y.mutablePointer, residual: y.pointer, rows: 0..<3)
            SIMDTestBuffer.expectClose(y, ref, "in-place residual C=\(c)")
        }
    }
}
