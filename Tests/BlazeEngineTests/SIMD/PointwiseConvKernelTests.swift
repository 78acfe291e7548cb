import Testing
@testable import BlazeEngine

/// `conv` with 1×1 filters (pointwise, SIMD and BLAS backends) of every runnable level against
/// `ReferenceKernels.conv2D`: output tails, dot-product tails, channel-major input, every tile
/// shape, strips with a partial last vector (k×k too), channel-padded and in-place residuals.
@Suite struct PointwiseConvKernelTests: ConvKernelSuite {
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
}
