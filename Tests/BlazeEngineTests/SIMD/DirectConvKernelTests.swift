import Testing
@testable import BlazeEngine

/// `conv` with k×k filters (the direct and border paths) of every runnable level against
/// `ReferenceKernels.conv2D`: every filter shape, stride and padding, dilation, first layers,
/// every lane width.
@Suite struct DirectConvKernelTests: ConvKernelSuite {
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
}
