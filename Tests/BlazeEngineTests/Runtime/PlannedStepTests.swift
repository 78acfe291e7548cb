import Testing
@testable import BlazeEngine

/// The optimised plan's kernels (Runtime/Steps) against the reference kernels on seeded random
/// shapes: bitwise equal for every op but the GEMM-based ones (OpenBLAS sums in its own order:
/// parity tolerance against the reference, bitwise across thread counts).
@Suite struct PlannedStepTests {
    typealias T = KernelTensor
    typealias Kit = PlannedStepTestKit

    static func pick<E>(_ values: [E], _ rng: inout KernelTestRNG) -> E { values[Int.random(in: 0..<values.count, using: &rng)] }

    @Test func depthwiseMatchesReferenceBitwise() throws {
        var rng = KernelTestRNG(seed: 7)
        var checked = 0
        while checked < 60 {
            let k = Self.pick([1, 2, 3, 5], &rng), s = Self.pick([1, 2], &rng), d = Self.pick([1, 1, 2], &rng)
            let m = Self.pick([1, 1, 1, 2], &rng)
            let n = Int.random(in: 1...2, using: &rng), h = Int.random(in: 1...17, using: &rng), w = Int.random(in: 1...17, using: &rng)
            let c = Int.random(in: 1...21, using: &rng)
            let p = DepthwiseConv2DParams(
                strideH: s, strideW: s, dilationH: d, dilationW: d, depthMultiplier: m,
                padding: Self.pick([.same, .valid], &rng), activation: Self.pick(Activation.allCases, &rng))
            let op = Op.depthwiseConv2D(p)
            let x = T.random([n, h, w, c], &rng), f = T.random([1, k, k, c * m], &rng)
            let bias = Bool.random(using: &rng)
            let inputs = [x, f] + (bias ? [T.random([c * m], &rng)] : [])
            guard (try? op.inferOutputShape(inputs.map(\.shape))) != nil else { continue }
            try Kit.expectMatchesReferenceFused(op, inputs, "depthwise \(x.shape) k\(k) s\(s) d\(d) m\(m) \(p.padding) \(p.activation) bias \(bias)")
            checked += 1
        }
    }

    @Test func poolingMatchesReferenceBitwise() throws {
        var rng = KernelTestRNG(seed: 8)
        var checked = 0
        while checked < 60 {
            let p = Pool2DParams(
                filterH: Int.random(in: 1...3, using: &rng), filterW: Int.random(in: 1...3, using: &rng),
                strideH: Int.random(in: 1...3, using: &rng), strideW: Int.random(in: 1...3, using: &rng),
                padding: Self.pick([.same, .valid], &rng), activation: Self.pick(Activation.allCases, &rng))
            let op: Op = Bool.random(using: &rng) ? .maxPool2D(p) : .averagePool2D(p)
            let x = T.random(
                [
                    Int.random(in: 1...2, using: &rng), Int.random(in: 1...12, using: &rng),
                    Int.random(in: 1...12, using: &rng), Int.random(in: 1...19, using: &rng)
                ], &rng, in: -3...3)
            guard (try? op.inferOutputShape([x.shape])) != nil else { continue }
            try Kit.expectMatchesReferenceFused(op, [x], "\(op.name) \(x.shape) \(p)")
            checked += 1
        }
    }

    /// A random shape of `rank` dims in 1...6, each dim of `base` or 1 (so it broadcasts).
    static func broadcastOperand(_ base: [Int], _ rng: inout KernelTestRNG) -> [Int] {
        let drop = Int.random(in: 0...base.count, using: &rng)
        return base.dropFirst(drop).map { Bool.random(using: &rng) ? $0 : 1 }
    }

    @Test func binaryAndPreluMatchReferenceBitwise() throws {
        var rng = KernelTestRNG(seed: 9)
        for i in 0..<80 {
            let rank = Int.random(in: 1...5, using: &rng)
            let out = (0..<rank).map { _ in Int.random(in: 1...(i < 40 ? 6 : 40), using: &rng) }
            let aShape = Bool.random(using: &rng) ? out : Self.broadcastOperand(out, &rng)
            let bShape = Self.broadcastOperand(out, &rng)
            guard let full = ShapeMath.broadcast(aShape, bShape), full == out else { continue }
            let a = T.random(aShape, &rng, in: -4...4), b = T.random(bShape, &rng, in: -4...4)
            let kind = Self.pick(BinaryKind.allCases, &rng)
            let op = Op.binary(BinaryParams(kind, activation: Self.pick(Activation.allCases, &rng)))
            try Kit.expectMatchesReference(op, [a, b], inPlace: aShape == out ? 0 : nil, "\(kind.name) \(aShape) \(bShape)")
            if bShape == out {
                try Kit.expectMatchesReference(op, [a, b], inPlace: 1, "\(kind.name) \(aShape) \(bShape) in place over b")
            }
        }
        // PRELU with per-channel, per-pixel and scalar alpha.
        for alphaShape in [[5], [1, 1, 5], [7, 9, 5], [1]] {
            let x = T.random([2, 7, 9, 5], &rng, in: -2...2), alpha = T.random(alphaShape, &rng)
            try Kit.expectMatchesReference(.prelu, [x, alpha], inPlace: 0, "PRELU alpha \(alphaShape)")
        }
        // Large enough to be split across threads.
        let big = T.random([1, 64, 64, 24], &rng), channel = T.random([24], &rng)
        try Kit.expectMatchesReference(.binary(BinaryParams(.add, activation: .relu6)), [big, channel], inPlace: 0, "ADD large")
        try Kit.expectMatchesReference(.prelu, [big, channel], inPlace: 0, "PRELU large")
    }

    @Test func unaryMatchesReferenceBitwise() throws {
        var rng = KernelTestRNG(seed: 10)
        for kind in UnaryKind.allCases {
            for shape in [[1], [3, 5], [1, 40, 40, 17]] {
                let range: ClosedRange<Float> = (kind == .sqrt || kind == .rsqrt) ? 0.01...9 : -6...6
                try Kit.expectMatchesReference(.unary(kind), [T.random(shape, &rng, in: range)], inPlace: 0, "\(kind.name) \(shape)")
            }
        }
    }

    @Test func dataMovementMatchesReferenceBitwise() throws {
        var rng = KernelTestRNG(seed: 11)
        // PAD: spatial and channel pads, ranks 1–4, non-zero value.
        for _ in 0..<30 {
            let rank = Int.random(in: 1...4, using: &rng)
            let shape = (0..<rank).map { _ in Int.random(in: 1...6, using: &rng) }
            let pads = (0..<rank).map { _ in [Int.random(in: 0...3, using: &rng), Int.random(in: 0...3, using: &rng)] }
            let op = Op.pad(PadParams(paddings: pads, value: Self.pick([0, -1.5], &rng)))
            try Kit.expectMatchesReference(op, [T.random(shape, &rng)], "PAD \(shape) \(pads)")
        }
        try Kit.expectMatchesReference(
            .pad(PadParams(paddings: [[0, 0], [1, 2], [2, 1], [0, 8]])), [T.random([1, 48, 48, 24], &rng)],
            "PAD large")
        // CONCATENATION along every axis, with and without activation.
        for axis in -4..<4 {
            let base = [2, 3, 4, 5]
            let a = axis < 0 ? axis + 4 : axis
            var s1 = base, s2 = base
            s1[a] = 2; s2[a] = 3
            let op = Op.concatenation(ConcatenationParams(axis: axis, activation: Self.pick(Activation.allCases, &rng)))
            try Kit.expectMatchesReference(op, [T.random(base, &rng), T.random(s1, &rng, in: -9...9), T.random(s2, &rng)], "CONCAT axis \(axis)")
        }
        // DEPTH_TO_SPACE.
        for b in 1...3 {
            try Kit.expectMatchesReference(.depthToSpace(DepthToSpaceParams(blockSize: b)), [T.random([2, 5, 3, b * b * 3], &rng)], "D2S \(b)")
        }
        try Kit.expectMatchesReference(.depthToSpace(DepthToSpaceParams(blockSize: 2)), [T.random([1, 48, 48, 32], &rng)], "D2S large")
        // TRANSPOSE.
        for perm in [[0, 2, 1], [2, 0, 1], [1, 0], [0, 1, 3, 2], [3, 2, 1, 0]] {
            let shape = (0..<perm.count).map { _ in Int.random(in: 1...7, using: &rng) }
            try Kit.expectMatchesReference(.transpose(TransposeParams(perm: perm)), [T.random(shape, &rng)], "TRANSPOSE \(perm)")
        }
        try Kit.expectMatchesReference(.transpose(TransposeParams(perm: [0, 2, 1])), [T.random([1, 146, 256], &rng)], "TRANSPOSE large")
        // STRIDED_SLICE: positive/negative strides, masks, shrink.
        let x = T.random([3, 8, 9, 4], &rng)
        let slices: [StridedSliceParams] = [
            StridedSliceParams(begin: [0, 1, 2, 0], end: [3, 7, 9, 4], strides: [1, 2, 3, 1]),
            StridedSliceParams(begin: [2, 7, 8, 3], end: [0, 0, 0, 0], strides: [-1, -2, -1, -1], endMask: 0b1111),
            StridedSliceParams(begin: [1, 0, 0, 0], end: [2, 8, 9, 4], strides: [1, 1, 1, 2], shrinkAxisMask: 0b0001),
            StridedSliceParams(begin: [0, 0], end: [0, 4], strides: [1, 1], beginMask: 0b01, endMask: 0b01)
        ]
        for p in slices {
            try Kit.expectMatchesReference(.stridedSlice(p), [x], "STRIDED_SLICE \(p)")
        }
        // RESIZE_BILINEAR: up/down, align corners, half-pixel centers.
        for (oh, ow) in [(12, 16), (3, 5), (7, 7)] {
            for (align, half) in [(false, false), (true, false), (false, true)] {
                let op = Op.resizeBilinear(ResizeBilinearParams(height: oh, width: ow, alignCorners: align, halfPixelCenters: half))
                try Kit.expectMatchesReference(op, [T.random([2, 6, 8, 3], &rng)], "RESIZE \(oh)x\(ow) align \(align) half \(half)")
            }
        }
        // MEAN / SUM / REDUCE_MAX / REDUCE_MIN over various axes.
        for kind in ReduceKind.allCases {
            for (axes, keep) in [([1, 2], true), ([1, 2], false), ([-1], false), ([0, 3], true), ([2], false), ([0, 1, 2, 3], false)] {
                let op = Op.reduce(ReduceParams(kind, axes: axes, keepDims: keep))
                try Kit.expectMatchesReference(op, [T.random([2, 5, 6, 7], &rng)], "\(kind.name) \(axes) keep \(keep)")
            }
        }
        // Contiguous rows into one output (RowSum's lane order), lengths around the 8-lane chunks.
        for shape in [[1, 1, 97, 64], [3, 37], [2, 4, 9], [5, 8], [4, 16, 1], [2, 3, 1, 17]] {
            for kind in [ReduceKind.mean, .sum] {
                let axes = shape.count == 3 && shape[2] == 9 ? [1, 2] : [shape.count - 1]
                let op = Op.reduce(ReduceParams(kind, axes: axes, keepDims: true))
                try Kit.expectMatchesReference(op, [T.random(shape, &rng)], "\(kind.name) \(shape) \(axes)")
            }
        }
        // RESHAPE (a copy when not aliased).
        try Kit.expectMatchesReference(.reshape(ReshapeParams(shape: [6, 4])), [T.random([2, 3, 4], &rng)], "RESHAPE")
    }

    /// TRANSPOSE_CONV_BIAS: the gather step sums in its own order (SIMD dot products over channels),
    /// so within tolerance of the scatter reference; odd sizes, overlapping and gapped taps.
    @Test func transposeConvMatchesReference() throws {
        var rng = KernelTestRNG(seed: 16)
        for _ in 0..<40 {
            let kh = Int.random(in: 1...4, using: &rng), kw = Int.random(in: 1...4, using: &rng)
            let sh = Int.random(in: 1...3, using: &rng), sw = Int.random(in: 1...3, using: &rng)
            let n = Int.random(in: 1...2, using: &rng), h = Int.random(in: 1...9, using: &rng), w = Int.random(in: 1...11, using: &rng)
            let c = Self.pick([1, 3, 8, 13, 16, 21], &rng), o = Self.pick([1, 2, 5, 9], &rng)
            let p = TransposeConv2DParams(strideH: sh, strideW: sw, padding: Self.pick([.same, .valid], &rng))
            let bias = Bool.random(using: &rng)
            let inputs = [T.random([n, h, w, c], &rng), T.random([o, kh, kw, c], &rng)] + (bias ? [T.random([o], &rng)] : [])
            try Kit.expectMatchesReferenceFused(.transposeConv2D(p), inputs, "transpose conv \(inputs[0].shape) k\(kh)×\(kw) s\(sh)×\(sw) o\(o) \(p.padding) bias \(bias)")
        }
        // The selfie segmentation shape: 2×2 stride 2 from 16 channels to 1, large enough to split.
        let p = TransposeConv2DParams(strideH: 2, strideW: 2, padding: .same)
        try Kit.expectMatchesReferenceFused(
            .transposeConv2D(p),
            [
                T.random([1, 64, 64, 16], &rng), T.random([1, 2, 2, 16], &rng),
                T.random([1], &rng)
            ], "transpose conv large")
    }

    /// MediaPipe's face-attention ops: the plan runs their reference kernels, so bitwise equal.
    @Test func mediaPipeOpsMatchReference() throws {
        var rng = KernelTestRNG(seed: 17)
        let l2tm = LandmarksToTransformMatrixParams(
            leftRotationIndex: 3, rightRotationIndex: 7, targetRotationRadians: 0.25,
            outputHeight: 16, outputWidth: 12, scaleX: 1.5, scaleY: 1.25, subset: [0, 4, 9, 2, 5, 8])
        try Kit.expectMatchesReference(.landmarksToTransformMatrix(l2tm), [T.random([1, 10, 3], &rng)], "LANDMARKS_TO_TRANSFORM_MATRIX")
        let m = T([1, 4, 4], [0.9, -0.3, 0, 2.5, 0.35, 1.1, 0, -1, 0, 0, 1, 0, 0, 0, 0, 1])
        try Kit.expectMatchesReference(
            .transformTensorBilinear(TransformTensorBilinearParams(outputHeight: 7, outputWidth: 9)),
            [T.random([1, 11, 13, 5], &rng), m], "TRANSFORM_TENSOR_BILINEAR")
        try Kit.expectMatchesReference(.transformLandmarks, [T.random([1, 9, 3], &rng), m], "TRANSFORM_LANDMARKS")
    }

    /// SOFTMAX (the plan runs its reference kernel) and GATHER (its own copy step): bitwise equal.
    @Test func classifierHeadOpsMatchReference() throws {
        var rng = KernelTestRNG(seed: 18)
        for (shape, beta) in [([1, 8], Float(1)), ([3, 9], 0.5), ([2, 4, 5], 2), ([1, 1], 1)] {
            try Kit.expectMatchesReference(.softmax(SoftmaxParams(beta: beta)), [T.random(shape, &rng)], "SOFTMAX \(shape) beta \(beta)")
        }
        for (shape, axis, indices) in [([1, 21, 3], 1, [0, 1, 5, 9, 13, 17]), ([2, 3, 4], -1, [3, 3, 0]), ([5, 2], 0, [4, 0, 2, 1])] {
            try Kit.expectMatchesReference(
                .gather(GatherParams(axis: axis, indices: indices)), [T.random(shape, &rng)], "GATHER \(shape) axis \(axis) \(indices)")
        }
    }

    /// LEAKY_RELU (its level kernel through `LeakyReluStep`): bitwise equal at 1–3 threads and in
    /// place, small sizes and ones large enough to split (parts with vector tails), at the level
    /// `BLAZE_ISA` selects.
    @Test func leakyReluMatchesReference() throws {
        var rng = KernelTestRNG(seed: 19)
        for (shape, alpha) in [([1, 7, 9, 13], Float(0.2)), ([50_003], -1.25), ([1, 1], 0), ([2, 131, 257], 1.5), ([3, 0, 2], 0.1)] {
            var x = T.random(shape, &rng, in: -4...4)
            for i in stride(from: 0, to: x.values.count, by: 7) { x.values[i] = [0, -0.0, .infinity, -.infinity, .nan][i % 5] }
            try Kit.expectMatchesReference(.leakyRelu(LeakyReluParams(alpha: alpha)), [x], inPlace: 0, "LEAKY_RELU \(shape) alpha \(alpha)")
        }
    }

    @Test func gemmConvolutionWithinToleranceAndBitwiseAcrossThreads() throws {
        var rng = KernelTestRNG(seed: 12)
        var cases: [(x: [Int], f: [Int], p: Conv2DParams)] = [
            ([1, 64, 64, 16], [32, 3, 3, 16], Conv2DParams(padding: .same, activation: .relu)),  // row pieces, im2col
            ([1, 48, 48, 32], [64, 1, 1, 32], Conv2DParams(padding: .same)),  // row pieces, pointwise
            ([1, 96, 96, 3], [24, 3, 3, 3], Conv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .relu6)),
            ([1, 2, 2, 256], [700, 1, 1, 256], Conv2DParams(padding: .valid)),  // column pieces
            ([1, 3, 3, 96], [640, 2, 2, 96], Conv2DParams(strideH: 1, strideW: 1, padding: .same)),  // column pieces + im2col
            ([2, 9, 7, 5], [6, 3, 3, 5], Conv2DParams(strideH: 2, strideW: 1, dilationH: 2, dilationW: 1, padding: .same))
        ]
        for _ in 0..<20 {
            let k = Self.pick([1, 3, 5], &rng)
            cases.append(
                (
                    [
                        Int.random(in: 1...2, using: &rng), Int.random(in: k...20, using: &rng), Int.random(in: k...20, using: &rng),
                        Int.random(in: 1...20, using: &rng)
                    ], [Int.random(in: 1...40, using: &rng), k, k, 0],
                    Conv2DParams(
                        strideH: Self.pick([1, 2], &rng), strideW: Self.pick([1, 2], &rng),
                        padding: Self.pick([.same, .valid], &rng), activation: Self.pick(Activation.allCases, &rng))
                ))
        }
        for (xs, fs0, p) in cases {
            var fs = fs0
            fs[3] = xs[3]
            let inputs = [T.random(xs, &rng), T.random(fs, &rng), T.random([fs[0]], &rng)]
            let op = Op.conv2D(p)
            let ref = try Kit.reference(op, inputs)
            let one = try Kit.planned(op, inputs, threads: 1)
            KernelTestKit.expectCloseToReference(one, ref, "conv \(xs) \(fs)")
            for threads in [2, 3, 5] {
                Kit.expectBitwise(try Kit.planned(op, inputs, threads: threads), one, "conv \(xs) \(fs) threads \(threads) vs 1")
            }
        }
    }

    @Test func fullyConnectedWithinToleranceAndBitwiseAcrossThreads() throws {
        var rng = KernelTestRNG(seed: 13)
        for (x, w) in [([1, 1152], [63, 1152]), ([1, 600], [1000, 600]), ([300, 64], [20, 64]), ([4, 2, 16], [7, 16])] {
            let op = Op.fullyConnected(FullyConnectedParams(activation: .relu))
            let inputs = [T.random(x, &rng), T.random(w, &rng), T.random([w[0]], &rng)]
            let ref = try Kit.reference(op, inputs)
            let one = try Kit.planned(op, inputs, threads: 1)
            KernelTestKit.expectCloseToReference(one, ref, "FC \(x) \(w)")
            for threads in [2, 3] {
                Kit.expectBitwise(try Kit.planned(op, inputs, threads: threads), one, "FC \(x) \(w) threads \(threads)")
            }
        }
    }

    @Test func gemmSplitCoversTheCutDimension() {
        for (m, n, k) in [(1, 1, 1), (9216, 24, 27), (2304, 64, 32), (576, 128, 128), (36, 1404, 1024), (1, 1000, 600), (4096, 4096, 8)] {
            let s = GemmSplit(m: m, n: n, k: k)
            #expect(GemmSplit.allowedPieces.contains(s.pieces))
            #expect(s.alongColumns == (n > m))
            var next = 0
            for i in 0..<s.pieces {
                let r = s.range(i)
                #expect(r.lowerBound == next)
                #expect(i == s.pieces - 1 || r.upperBound % 16 == 0)
                next = r.upperBound
            }
            #expect(next == s.length)
        }
        #expect(GemmSplit(m: 9216, n: 24, k: 27).pieces > 1)
        #expect(GemmSplit(m: 16, n: 16, k: 16).pieces == 1)
    }
}
