import Testing
@testable import BlazeEngine

/// Every ISA level's prepared SIMD kernels (BlazeKernels/Shared + the level's Level.swift), on
/// each level this CPU supports (`KernelLevels.runnable`), against the reference kernels on seeded random shapes
/// that cover every channel/tile tail, strides, both paddings, activations, fused PReLU and
/// residual, and work splits. Tolerance `1e-5 · max(1, max|ref|)` per tensor (FMA and summation
/// order change rounding). Work splits must give identical bytes to one run.
/// Run in release: `swift test -c release --filter SIMD`. Levels this CPU lacks: see ISACoverageTests.
@Suite struct SIMDKernelTests {
    static let activations: [Activation] = [.none, .relu, .relu6, .reluMinus1To1]

    // MARK: Depthwise

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

    // MARK: Conv

    struct ConvCase: CustomStringConvertible {
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

    @Test(arguments: KernelLevels.runnable) func pointwiseEveryOutputTail(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 10)
        for c in [1, 3, 16, 17, 32, 33, 64, 200] {
            for o in [1, 2, 3, 4, 6, 8, 15, 16, 17, 24, 31, 32, 33, 36, 47, 48, 49, 63, 64, 65, 96, 112, 130] {
                for backend in [ConvBackend.simd, .blas] {
                    let t = ConvCase(
                        n: Int.random(in: 1...2, using: &rng), h: Int.random(in: 1...17, using: &rng),
                        w: Int.random(in: 1...17, using: &rng), c: c, o: o,
                        activation: Self.activations.randomElement(using: &rng)!,
                        prelu: Bool.random(using: &rng), residual: Bool.random(using: &rng),
                        residualActivation: Self.activations.randomElement(using: &rng)!,
                        bias: Bool.random(using: &rng), backend: backend)
                    Self.check(K, t, &rng)
                }
            }
        }
    }

    /// Pointwise convs whose last few channels (O mod lanes ≤ lanes/4) are dot products: with
    /// every fusion, an in-place residual and a channel-padded one narrower than the tail start.
    @Test(arguments: KernelLevels.runnable) func pointwiseDotTail(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 13)
        for (pixels, c, o) in [(64, 384, 97), (37, 64, 17), (5, 200, 130), (100, 96, 36), (9, 257, 66), (1, 128, 33)] {
            for residualKind in 0..<4 {
                let t = ConvCase(
                    n: 1, h: 1, w: pixels, c: c, o: o, activation: Self.activations.randomElement(using: &rng)!,
                    prelu: Bool.random(using: &rng), residual: residualKind > 0,
                    residualActivation: Self.activations.randomElement(using: &rng)!,
                    residualChannels: residualKind == 3 ? o - o % K.lanes - 3 : nil, inPlace: residualKind == 2,
                    bias: Bool.random(using: &rng))
                #expect(Self.check(K, t, &rng), "\(t)")
            }
        }
    }

    /// Pointwise convs reading a channel-major input (a folded TRANSPOSE): every tile shape, odd
    /// pixel counts and channel tails, with every fusion.
    @Test(arguments: KernelLevels.runnable) func pointwiseChannelMajorInput(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 12)
        let tiles: [ConvTileShape?] = [nil] + K.convTiles
        for tile in tiles {
            for (pixels, c, o) in [(64, 97, 384), (64, 384, 97), (13, 5, 17), (1, 3, 8), (37, 33, 70), (100, 16, 1)]
            where pixels >= (tile?.rows ?? 1) {
                let t = ConvCase(
                    n: 1, h: 1, w: pixels, c: c, o: o, activation: Self.activations.randomElement(using: &rng)!,
                    prelu: Bool.random(using: &rng), residual: Bool.random(using: &rng),
                    residualActivation: Self.activations.randomElement(using: &rng)!, bias: Bool.random(using: &rng),
                    tile: tile.map { ConvTileShape(rows: $0.rows, maxVectors: min($0.maxVectors, 2), lanes: $0.lanes) },
                    channelMajor: true)
                #expect(Self.check(K, t, &rng), "\(t)")
            }
        }
    }

    @Test(arguments: KernelLevels.runnable) func pointwiseEveryTileShape(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 11)
        for shape in K.convTiles {
            let lanes = try #require(shape.lanes)
            for nv in 1...shape.maxVectors {
                for (pixels, o) in [(shape.rows, nv * lanes), (3 * shape.rows + 1, nv * lanes - 3), (37, 5), (100, 70)] {
                    Self.check(
                        K,
                        ConvCase(
                            h: pixels, w: 1, c: 19, o: o, activation: .relu6, prelu: pixels % 2 == 1,
                            residual: pixels % 3 != 0, tile: ConvTileShape(rows: shape.rows, maxVectors: nv, lanes: lanes)), &rng)
                    // In place: a shifted-back last tile must not re-add the residual to finished pixels.
                    Self.check(
                        K,
                        ConvCase(
                            h: pixels, w: 1, c: 19, o: o, residual: true, residualActivation: .relu,
                            inPlace: true, tile: ConvTileShape(rows: shape.rows, maxVectors: nv, lanes: lanes)), &rng)
                }
            }
        }
    }

    /// Strips of whole tiles whose last channel vector is partial (O not a multiple of the lanes,
    /// or a channel-padded residual ending inside it): large maps (one channel group, the tail
    /// stored as blended whole vectors) and small ones (several groups, lane by lane), pointwise
    /// and k×k, with every fusion, in place, and residuals ending before, inside or at the tail.
    @Test(arguments: KernelLevels.runnable) func stripsWithPartialLastVector(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 14)
        let L = K.lanes
        for (h, w, c, o) in [(64, 64, 24, 28), (32, 32, 32, 36), (32, 32, 36, 42), (16, 16, 80, 88), (7, 9, 64, 72), (40, 40, 5, L + 3)] {
            for residualKind in 0..<6 {
                let residualChannels: Int? =
                    switch residualKind {
                    case 3: o - o % L - 2  // ends inside the last whole vector
                    case 4: o - 1  // ends inside the partial vector
                    case 5: o - o % L  // ends where the partial vector starts
                    default: nil
                    }
                for kernel in [1, 3] {
                    // k×k: at most 24 input channels, so K stays where the float tolerance holds.
                    let t = ConvCase(
                        h: h, w: w, c: kernel == 1 ? c : min(c, 24), o: o, kh: kernel, kw: kernel, padding: kernel == 1 ? .valid : .same,
                        activation: Self.activations.randomElement(using: &rng)!, prelu: Bool.random(using: &rng),
                        residual: residualKind > 0, residualActivation: Self.activations.randomElement(using: &rng)!,
                        residualChannels: residualChannels, inPlace: residualKind == 2, bias: Bool.random(using: &rng))
                    #expect(Self.check(K, t, &rng), "\(t)")
                }
            }
        }
    }

    @Test(arguments: KernelLevels.runnable) func pointwiseResidualLayouts(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 12)
        for backend in [ConvBackend.simd, .blas] {
            // ADD of a channel-padded tensor (MAX_POOL → PAD → ADD in the palm nets).
            Self.check(K, ConvCase(n: 2, h: 5, w: 7, c: 32, o: 64, prelu: true, residual: true, residualChannels: 32, backend: backend), &rng)
            Self.check(K, ConvCase(h: 6, w: 5, c: 24, o: 40, residual: true, residualActivation: .relu, residualChannels: 20, backend: backend), &rng)
            Self.check(K, ConvCase(h: 3, w: 3, c: 8, o: 20, residual: true, residualChannels: 0, backend: backend), &rng)
            // In place: residual == output.
            for activation in [Activation.none, .relu6] {
                Self.check(
                    K,
                    ConvCase(
                        h: 6, w: 7, c: 24, o: 40, activation: activation, prelu: true, residual: true,
                        residualActivation: .relu, inPlace: true, backend: backend), &rng)
            }
        }
    }

    @Test(arguments: KernelLevels.runnable) func directConvEveryShape(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 13)
        for c in [1, 3, 8, 17] {
            for o in [1, 16, 17, 24, 32, 50] {
                for (kh, kw) in [(3, 3), (5, 5), (2, 2), (1, 1), (1, 3), (3, 2)] {
                    for stride in [1, 2] {
                        for padding in Padding.allCases where !(kh == 1 && kw == 1 && stride == 1) {
                            let t = ConvCase(
                                n: Int.random(in: 1...2, using: &rng), h: Int.random(in: 1...17, using: &rng),
                                w: Int.random(in: 1...17, using: &rng), c: c, o: o, kh: kh, kw: kw, stride: stride,
                                padding: padding, activation: Self.activations.randomElement(using: &rng)!,
                                prelu: Bool.random(using: &rng), residual: Bool.random(using: &rng),
                                residualActivation: Self.activations.randomElement(using: &rng)!,
                                bias: Bool.random(using: &rng))
                            Self.check(K, t, &rng)
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: KernelLevels.runnable) func directConvSpecialCases(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 14)
        let cases = [
            ConvCase(h: 13, w: 14, c: 5, o: 20, kh: 3, kw: 3, dilation: 2, activation: .relu, residual: true),
            ConvCase(h: 15, w: 9, c: 4, o: 33, kh: 3, kw: 3, dilation: 3, padding: .valid, prelu: true),
            ConvCase(h: 64, w: 64, c: 3, o: 24, kh: 5, kw: 5, stride: 2, activation: .relu),  // first layers
            ConvCase(h: 48, w: 47, c: 3, o: 16, kh: 3, kw: 3, stride: 2, activation: .relu6),
            ConvCase(h: 2, w: 2, c: 128, o: 40, kh: 2, kw: 2, padding: .valid),  // one output pixel
            ConvCase(h: 8, w: 8, c: 32, o: 16, kh: 2, kw: 2, stride: 2, padding: .valid, prelu: true),
            ConvCase(h: 11, w: 23, c: 3, o: 20, kh: 3, kw: 3, stride: 1, activation: .relu, residual: true, inPlace: true),
            ConvCase(h: 9, w: 29, c: 5, o: 40, kh: 5, kw: 5, stride: 2, prelu: true, residual: true, residualActivation: .relu6, inPlace: true)
        ]
        for t in cases { #expect(Self.check(K, t, &rng), "invalid case \(t)") }
    }

    /// The direct (k×k) and border paths with forced tiles of every lane width the level has
    /// (the 8-lane tiles of `avx512` included), channel tails of every block.
    @Test(arguments: KernelLevels.runnable) func directConvEveryLaneWidth(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 16)
        for lanes in Set(K.convTiles.compactMap(\.lanes)).sorted() {
            for shape in K.convTiles where shape.lanes == lanes && (shape.rows == 4 || shape.rows == 1) {
                for o in [lanes - 3, 3 * lanes, 3 * lanes + 5] where o >= 1 {
                    let t = ConvCase(
                        h: 19, w: 23, c: 3, o: o, kh: 3, kw: 3, stride: 2, activation: .relu6, prelu: o % 2 == 1,
                        residual: o % 3 == 0, tile: ConvTileShape(rows: shape.rows, maxVectors: min(shape.maxVectors, 3), lanes: lanes))
                    #expect(Self.check(K, t, &rng), "invalid case \(t)")
                    let dilated = ConvCase(
                        h: 13, w: 14, c: 5, o: o, kh: 3, kw: 3, dilation: 2, activation: .relu, residual: true,
                        tile: ConvTileShape(rows: shape.rows, maxVectors: 1, lanes: lanes))
                    #expect(Self.check(K, dilated, &rng), "invalid case \(dilated)")
                }
            }
        }
    }

    /// The cost model's lane width: where a 16-lane FMA costs two 8-lane ones (AMD Zen 4), a conv
    /// with 24 outputs takes 8-lane tiles (3 vectors, no idle lane instead of 2 × 16 with 8
    /// idle); 144 outputs (9 whole 16-lane vectors) keep 16 lanes. Elsewhere 16 lanes always.
    @Test(.enabled(if: ISALevel.supported.contains(.avx512), "this CPU lacks AVX-512: the avx512 level's lane choice is not run"))
    func convLaneWidthChoice() throws {
        let K = try KernelLevels.kernels(for: .avx512)
        func lanes(_ o: Int, c: Int) -> Int {
            let p = Conv2DParams(padding: .valid, activation: .relu6)
            let g = try! p.geometry(input: [1, 56, 56, c], filter: [o, 1, 1, c])
            let f = [Float](repeating: 0.5, count: o * c)
            return f.withUnsafeBufferPointer {
                K.conv(
                    params: p, geometry: g, filter: $0.baseAddress!, bias: nil, prelu: nil, residualActivation: .none,
                    residualChannels: nil, backend: .simd, tile: nil, channelMajorInput: false
                ).tileLanes
            }
        }
        #expect(lanes(24, c: 144) == (CPUInfo.halfRateWideVectors ? 8 : 16))
        #expect(lanes(144, c: 24) == 16)
        #expect(lanes(64, c: 64) == 16)
    }

    @Test func cpuSignature() {
        let s = CPUInfo.signature
        #if arch(x86_64)
            #expect(s.family >= 6, "CPUID family \(s.family)")
            #expect(!CPUInfo.halfRateWideVectors || (s.vendor == 1 && s.family == 0x19))
        #endif
    }

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

    // MARK: Pool, resize, elementwise

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

    @Test(arguments: KernelLevels.runnable) func elementwise(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 22)
        for c in [1, 3, 16, 19, 64] {
            let pixels = 13
            let n = pixels * c
            let a = SIMDTestBuffer.random(n, &rng), b = SIMDTestBuffer.random(n, &rng), alpha = SIMDTestBuffer.random(c, &rng)
            for act in Self.activations {
                let ref = SIMDTestBuffer(n)
                for i in 0..<n { ref.mutablePointer[i] = act.apply(a.pointer[i] + b.pointer[i]) }
                let y = SIMDTestBuffer(n, fill: .nan)
                K.add(a.pointer, b.pointer, output: y.mutablePointer, activation: act, range: 5..<n)
                K.add(a.pointer, b.pointer, output: y.mutablePointer, activation: act, range: 0..<5)
                SIMDTestBuffer.expectIdentical(y, ref, "add C=\(c) \(act)")

                let refP = SIMDTestBuffer(n)
                for i in 0..<n { let v = ref.pointer[i]; refP.mutablePointer[i] = v < 0 ? alpha.pointer[i % c] * v : v }
                let yp = SIMDTestBuffer(n, fill: .nan)
                K.addPrelu(
                    a.pointer, b.pointer, alpha: alpha.pointer, channels: c, output: yp.mutablePointer,
                    activation: act, pixels: 0..<pixels)
                SIMDTestBuffer.expectIdentical(yp, refP, "add+prelu C=\(c) \(act)")
            }
            let ref = SIMDTestBuffer(n)
            ReferenceKernels.prelu(
                input: TensorView(a.pointer, [1, 1, pixels, c]), alpha: TensorView(alpha.pointer, [1, 1, c]),
                output: MutableTensorView(ref.mutablePointer, [1, 1, pixels, c]))
            let y = a.copy()
            K.prelu(input: y.pointer, alpha: alpha.pointer, channels: c, output: y.mutablePointer, pixels: 0..<pixels)
            SIMDTestBuffer.expectIdentical(y, ref, "prelu in place C=\(c)")

        }
    }

    /// LEAKY_RELU with one scalar alpha: bitwise the reference kernel on every vector body and tail
    /// (sizes around each lane count), with ±0, ±inf, NaNs and denormals among the inputs, negative,
    /// zero and > 1 alphas, split at odd boundaries and in place.
    @Test(arguments: KernelLevels.runnable) func leakyRelu(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SIMDTestRNG(seed: 24)
        let specials: [Float] = [
            0, -0.0, .infinity, -.infinity, .nan, Float(bitPattern: 0xFFC0_0123), Float(bitPattern: 0x7FA0_0001),
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, -.greatestFiniteMagnitude
        ]
        var sizes = [0, 1, 2, 3, 5, 7, 100, 1031]
        for lanes in [4, 8, 16] { sizes += [lanes - 1, lanes, lanes + 1, 2 * lanes + 3] }
        for n in sizes.sorted() {
            let x = SIMDTestBuffer.random(n, &rng)
            for i in 0..<n where Int.random(in: 0..<4, using: &rng) == 0 {
                x.mutablePointer[i] = specials[Int.random(in: 0..<specials.count, using: &rng)]
            }
            for alpha: Float in [0.2, -1.25, 0, 1.5, Float.random(in: -2...2, using: &rng)] {
                let ref = SIMDTestBuffer(n)
                ReferenceKernels.leakyRelu(
                    LeakyReluParams(alpha: alpha), input: TensorView(x.pointer, [n]), output: MutableTensorView(ref.mutablePointer, [n]))
                let whole = SIMDTestBuffer(n, fill: .nan)
                K.leakyRelu(input: x.pointer, alpha: alpha, output: whole.mutablePointer, range: 0..<n)
                SIMDTestBuffer.expectIdentical(whole, ref, "\(level) leaky relu n \(n) alpha \(alpha)")
                let a = n / 3, b = n - n / 5
                let split = SIMDTestBuffer(n, fill: .nan)
                for r in [b..<n, 0..<a, a..<b] { K.leakyRelu(input: x.pointer, alpha: alpha, output: split.mutablePointer, range: r) }
                SIMDTestBuffer.expectIdentical(split, ref, "\(level) leaky relu n \(n) alpha \(alpha), split at \(a), \(b)")
                let inPlace = x.copy()
                K.leakyRelu(input: inPlace.pointer, alpha: alpha, output: inPlace.mutablePointer, range: 0..<n)
                SIMDTestBuffer.expectIdentical(inPlace, ref, "\(level) leaky relu n \(n) alpha \(alpha), in place")
            }
        }
    }

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

    @Test func partitionsCoverTheWork() {
        for count in [0, 1, 7, 64, 1000] {
            for parts in 1...5 {
                var next = 0
                for i in 0..<parts {
                    let r = WorkRange.part(i, of: parts, count: count)
                    #expect(r.lowerBound == next)
                    next = r.upperBound
                }
                #expect(next == count)
            }
        }
    }
}
