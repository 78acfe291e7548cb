import Testing
@testable import BlazeEngine

/// Hand-computed CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED cases for the reference kernels.
@Suite struct ReferenceConvTests {
    typealias T = KernelTensor

    static func conv(_ p: Conv2DParams, _ x: T, _ w: T, _ b: T? = nil) -> (shape: [Int], values: [Float]) {
        let shape = try! p.geometry(input: x.shape, filter: w.shape).outputShape
        let inputs = [x, w] + (b.map { [$0] } ?? [])
        let v = KernelTestKit.run(inputs, out: shape) { v, out in
            ReferenceKernels.conv2D(p, input: v[0], filter: v[1], bias: v.count > 2 ? v[2] : nil, output: out)
        }
        return (shape, v)
    }

    static func depthwise(_ p: DepthwiseConv2DParams, _ x: T, _ w: T, _ b: T? = nil) -> (shape: [Int], values: [Float]) {
        let shape = try! p.geometry(input: x.shape, filter: w.shape).outputShape
        let inputs = [x, w] + (b.map { [$0] } ?? [])
        let v = KernelTestKit.run(inputs, out: shape) { v, out in
            ReferenceKernels.depthwiseConv2D(p, input: v[0], filter: v[1], bias: v.count > 2 ? v[2] : nil, output: out)
        }
        return (shape, v)
    }

    /// 4×4 image 1…16, two 3×3 filters (all +1, all −1), bias [0, 50].
    static let grid4 = T.iota([1, 4, 4, 1], from: 1)
    static let plusMinus = T([2, 3, 3, 1], [Float](repeating: 1, count: 9) + [Float](repeating: -1, count: 9))

    // MARK: CONV_2D

    @Test func sameStride2EvenInputPadsAtTheEnd() {
        // out = ceil(4/2) = 2, total pad = (2−1)·2 + 3 − 4 = 1 → top/left 0, bottom/right 1.
        // (0,0): rows 0–2 × cols 0–2 = 54;  (0,1): rows 0–2 × cols 2–3 = 45
        // (1,0): rows 2–3 × cols 0–2 = 72;  (1,1): rows 2–3 × cols 2–3 = 54
        let r = Self.conv(Conv2DParams(strideH: 2, strideW: 2, padding: .same), Self.grid4, Self.plusMinus, T([2], [0, 50]))
        #expect(r.shape == [1, 2, 2, 2])
        KernelTestKit.expectClose(r.values, [54, -4, 45, 5, 72, -22, 54, -4])
    }

    @Test func fusedReluAndRelu6() {
        let relu = Self.conv(
            Conv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .relu),
            Self.grid4, Self.plusMinus, T([2], [0, 50]))
        KernelTestKit.expectClose(relu.values, [54, 0, 45, 5, 72, 0, 54, 0])
        let relu6 = Self.conv(
            Conv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .relu6),
            Self.grid4, Self.plusMinus, T([2], [0, 50]))
        KernelTestKit.expectClose(relu6.values, [6, 0, 6, 5, 6, 0, 6, 0])
        let n1 = Self.conv(
            Conv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .reluMinus1To1),
            Self.grid4, Self.plusMinus, T([2], [0, 50]))
        KernelTestKit.expectClose(n1.values, [1, -1, 1, 1, 1, -1, 1, -1])
    }

    @Test func sameStride1OddSizeTwoChannels() {
        // Channel 0 = 1…9 through a centre tap (identity); channel 1 = 1 through an all-ones 3×3,
        // so it adds the number of in-image taps: 4 at corners, 6 on edges, 9 in the centre.
        var x = [Float]()
        for v in 1...9 { x += [Float(v), 1] }
        var w = [Float](repeating: 0, count: 18)
        for tap in 0..<9 { w[tap * 2 + 1] = 1 }
        w[4 * 2] = 1
        let r = Self.conv(Conv2DParams(padding: .same), T([1, 3, 3, 2], x), T([1, 3, 3, 2], w))
        #expect(r.shape == [1, 3, 3, 1])
        KernelTestKit.expectClose(r.values, [5, 8, 7, 10, 14, 12, 11, 14, 13])
    }

    @Test func validStride2OddSize() {
        // 5×5 image v = 5r + c, 2×2 filter [[1,2],[3,4]], VALID stride 2 → 2×2 output,
        // each = v + 2(v+1) + 3(v+5) + 4(v+6) = 10v + 41 at v ∈ {0, 2, 10, 12}.
        let r = Self.conv(Conv2DParams(strideH: 2, strideW: 2, padding: .valid), T.iota([1, 5, 5, 1]), T([1, 2, 2, 1], [1, 2, 3, 4]))
        #expect(r.shape == [1, 2, 2, 1])
        KernelTestKit.expectClose(r.values, [41, 61, 141, 161])
    }

    @Test func dilation() {
        // 3×3 ones with dilation 2 reads rows/cols {0,2,4}: Σ(5r + c) = 90 + 18 = 108.
        let ones = T.filled([1, 3, 3, 1], 1)
        let valid = Self.conv(Conv2DParams(dilationH: 2, dilationW: 2, padding: .valid), T.iota([1, 5, 5, 1]), ones)
        #expect(valid.shape == [1, 1, 1, 1])
        KernelTestKit.expectClose(valid.values, [108])
        // SAME: effective kernel 5, pad 2 each side; e.g. (0,0) reads rows/cols {0,2} → 0+2+10+12 = 24.
        let same = Self.conv(Conv2DParams(dilationH: 2, dilationW: 2, padding: .same), T.iota([1, 5, 5, 1]), ones)
        #expect(same.shape == [1, 5, 5, 1])
        KernelTestKit.expectClose(
            same.values,
            [
                24, 28, 42, 28, 32, 44, 48, 72, 48, 52, 66, 72, 108, 72, 78,
                44, 48, 72, 48, 52, 64, 68, 102, 68, 72
            ])
    }

    @Test func batchAndMixedStrides() {
        // Batch 2 (second image = first + 100) with a 1×1 filter [2] and stride (2,1): rows 0 and 2.
        let x = T([2, 3, 2, 1], [0, 1, 2, 3, 4, 5, 100, 101, 102, 103, 104, 105])
        let r = Self.conv(Conv2DParams(strideH: 2, strideW: 1, padding: .valid), x, T([1, 1, 1, 1], [2]), T([1], [1]))
        #expect(r.shape == [2, 2, 2, 1])
        KernelTestKit.expectClose(r.values, [1, 3, 9, 11, 201, 203, 209, 211])
    }

    // MARK: DEPTHWISE_CONV_2D

    /// 3×3 image, channel 0 = 1…9, channel 1 = 10·(1…9).
    static let dw3: T = {
        var x = [Float]()
        for v in 1...9 { x += [Float(v), Float(10 * v)] }
        return T([1, 3, 3, 2], x)
    }()

    @Test func depthwise3x3Stride1() {
        // Channel 0: all-ones 3×3 (neighbourhood sums, zero padding). Channel 1: centre tap only.
        var w = [Float](repeating: 0, count: 18)
        for tap in 0..<9 { w[tap * 2] = 1 }
        w[4 * 2 + 1] = 1
        let r = Self.depthwise(DepthwiseConv2DParams(padding: .same), Self.dw3, T([1, 3, 3, 2], w), T([2], [0, 0.5]))
        #expect(r.shape == [1, 3, 3, 2])
        let sums: [Float] = [12, 21, 16, 27, 45, 33, 24, 39, 28]
        var expected = [Float]()
        for i in 0..<9 { expected += [sums[i], Float(10 * (i + 1)) + 0.5] }
        KernelTestKit.expectClose(r.values, expected)
    }

    @Test func depthwise3x3Stride2EvenInput() {
        // Same SAME asymmetry as CONV_2D: 4×4 → 2×2 with the extra pad row/column at the end.
        let r = Self.depthwise(DepthwiseConv2DParams(strideH: 2, strideW: 2, padding: .same), Self.grid4, T.filled([1, 3, 3, 1], 1))
        #expect(r.shape == [1, 2, 2, 1])
        KernelTestKit.expectClose(r.values, [54, 45, 72, 54])
    }

    @Test func depthwise5x5Strides1And2() {
        let x = T.iota([1, 5, 5, 1]), ones = T.filled([1, 5, 5, 1], 1)
        let s1 = Self.depthwise(DepthwiseConv2DParams(padding: .same), x, ones)
        KernelTestKit.expectClose(
            s1.values,
            [
                54, 78, 105, 90, 72, 102, 144, 190, 160, 126, 165, 230, 300, 250, 195,
                162, 224, 290, 240, 186, 144, 198, 255, 210, 162
            ])
        // Stride 2: out 3×3, total pad (3−1)·2 + 5 − 5 = 4 → 2 on each side.
        let s2 = Self.depthwise(DepthwiseConv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .relu6), x, ones)
        #expect(s2.shape == [1, 3, 3, 1])
        KernelTestKit.expectClose(s2.values, [Float](repeating: 6, count: 9))
        let s2raw = Self.depthwise(DepthwiseConv2DParams(strideH: 2, strideW: 2, padding: .same), x, ones)
        KernelTestKit.expectClose(s2raw.values, [54, 105, 72, 165, 300, 195, 144, 255, 162])
    }

    @Test func depthwiseMultiplier2() {
        // 1×1 filter [1,2,3,4]: output channel c·2+m = x[c] · w[c·2+m].
        let x = T([1, 1, 2, 2], [1, 10, 2, 20])
        let r = Self.depthwise(DepthwiseConv2DParams(depthMultiplier: 2, padding: .valid), x, T([1, 1, 1, 4], [1, 2, 3, 4]))
        #expect(r.shape == [1, 1, 2, 4])
        KernelTestKit.expectClose(r.values, [1, 2, 30, 40, 2, 4, 60, 80])

        // 3×3 stride 2 SAME on 3×3 (pad 1 each side; windows centred on the corners), M = 2:
        // oc0 = ch0 ones, oc1 = ch0 centre ×2, oc2 = ch1 centre, oc3 = ch1 top-left tap.
        var w = [Float](repeating: 0, count: 36)
        for tap in 0..<9 { w[tap * 4] = 1 }
        w[4 * 4 + 1] = 2; w[4 * 4 + 2] = 1; w[0 * 4 + 3] = 1
        let s2 = Self.depthwise(
            DepthwiseConv2DParams(strideH: 2, strideW: 2, depthMultiplier: 2, padding: .same),
            Self.dw3, T([1, 3, 3, 4], w), T([4], [0, 0, 0, 1]))
        #expect(s2.shape == [1, 2, 2, 4])
        KernelTestKit.expectClose(s2.values, [12, 2, 10, 1, 16, 6, 30, 1, 24, 14, 70, 1, 28, 18, 90, 51])
    }

    // MARK: FULLY_CONNECTED

    @Test func fullyConnectedKeepNumDims() {
        let x = T([1, 2, 3], [1, 2, 3, 4, 5, 6])
        let w = T([2, 3], [1, 0, -1, 0.5, 0.5, 0.5])
        let b = T([2], [1, -1])
        func fc(_ p: FullyConnectedParams, _ x: T, bias: T?) -> (shape: [Int], values: [Float]) {
            let shape = try! p.outputShape(input: x.shape, weights: w.shape)
            let v = KernelTestKit.run([x, w] + (bias.map { [$0] } ?? []), out: shape) { v, out in
                ReferenceKernels.fullyConnected(p, input: v[0], weights: v[1], bias: v.count > 2 ? v[2] : nil, output: out)
            }
            return (shape, v)
        }
        let keep = fc(FullyConnectedParams(keepNumDims: true), x, bias: b)
        #expect(keep.shape == [1, 2, 2])
        KernelTestKit.expectClose(keep.values, [-1, 2, -1, 6.5])
        let flat = fc(FullyConnectedParams(), x, bias: b)
        #expect(flat.shape == [2, 2])
        KernelTestKit.expectClose(flat.values, [-1, 2, -1, 6.5])
        let relu = fc(FullyConnectedParams(activation: .relu), T([1, 6], x.values), bias: nil)
        #expect(relu.shape == [2, 2])
        KernelTestKit.expectClose(relu.values, [0, 3, 0, 7.5])
    }

    // MARK: TRANSPOSE_CONV_BIAS

    /// Stride 2, 2×2 filter, VALID: every input pixel writes its own 2×2 block `v · filter + bias`.
    @Test func transposeConvBlocks() {
        let p = TransposeConv2DParams(strideH: 2, strideW: 2, padding: .valid)
        let r = KernelTestKit.run(
            [T([1, 2, 2, 1], [1, 2, 3, 4]), T([1, 2, 2, 1], [1, 10, 100, 1000]), T([1], [0.5])],
            out: [1, 4, 4, 1]
        ) { v, out in
            ReferenceKernels.transposeConv2D(p, input: v[0], filter: v[1], bias: v[2], output: out)
        }
        let expected: [Float] = [1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30, 4, 40, 300, 3000, 400, 4000].map { $0 + 0.5 }
        KernelTestKit.expectClose(r, expected, tolerance: 0)
    }

    /// Overlapping taps and the SAME crop by hand: H 2, kernel 3, stride 2 gives the full column
    /// [1, 2, 3 + 2·1, 2·2, 2·3] = [1, 2, 5, 4, 6]; SAME crops max(0, 3 − 1 mod 2 − 1) = 1 row,
    /// none of it at the start (1 / 2 = 0), leaving [1, 2, 5, 4]. Two output channels (the second
    /// filter is doubled).
    @Test func transposeConvSameCropsOverlaps() throws {
        let p = TransposeConv2DParams(strideH: 2, strideW: 1, padding: .same)
        #expect(try p.geometry(input: [1, 2, 1, 1], filter: [2, 3, 1, 1]).outputShape == [1, 4, 1, 2])
        let r = KernelTestKit.run([T([1, 2, 1, 1], [1, 2]), T([2, 3, 1, 1], [1, 2, 3, 2, 4, 6])], out: [1, 4, 1, 2]) { v, out in
            ReferenceKernels.transposeConv2D(p, input: v[0], filter: v[1], bias: nil, output: out)
        }
        KernelTestKit.expectClose(r, [1, 2, 2, 4, 5, 10, 4, 8], tolerance: 0)
        // H 3: (3 − 1) mod 2 = 0, so SAME crops 2 rows of the full 7, one at the start.
        let g3 = try p.geometry(input: [1, 3, 1, 1], filter: [2, 3, 1, 1])
        #expect(g3.outputShape == [1, 5, 1, 2] && g3.padTop == 1)
        let valid = TransposeConv2DParams(strideH: 2, strideW: 1, padding: .valid)
        #expect(try valid.geometry(input: [1, 2, 1, 1], filter: [2, 3, 1, 1]).outputShape == [1, 5, 1, 2])
    }
}
