import Testing
@testable import BlazeEngine

/// PAD, RESHAPE, CONCATENATION, DEPTH_TO_SPACE, STRIDED_SLICE, TRANSPOSE, GATHER.
@Suite struct ReferenceShapeTests {
    typealias T = KernelTensor

    static func pad(_ p: PadParams, _ x: T) -> (shape: [Int], values: [Float]) {
        let shape = try! p.outputShape(x.shape)
        return (shape, KernelTestKit.run([x], out: shape) { v, out in ReferenceKernels.pad(p, input: v[0], output: out) })
    }

    static func slice(_ p: StridedSliceParams, _ x: T) -> (shape: [Int], values: [Float]) {
        let shape = try! p.outputShape(x.shape)
        return (shape, KernelTestKit.run([x], out: shape) { v, out in ReferenceKernels.stridedSlice(p, input: v[0], output: out) })
    }

    static func transpose(_ perm: [Int], _ x: T) -> (shape: [Int], values: [Float]) {
        let p = TransposeParams(perm: perm)
        let shape = try! p.outputShape(x.shape)
        return (shape, KernelTestKit.run([x], out: shape) { v, out in ReferenceKernels.transpose(p, input: v[0], output: out) })
    }

    static func gather(_ p: GatherParams, _ x: T) -> (shape: [Int], values: [Float]) {
        let shape = try! p.outputShape(x.shape)
        return (shape, KernelTestKit.run([x], out: shape) { v, out in ReferenceKernels.gather(p, input: v[0], output: out) })
    }

    @Test func gatherAlongEachAxis() {
        // [2,3,4] with v = 12i + 4j + k; repeated and reordered indices.
        let x = T.iota([2, 3, 4])
        let middle = Self.gather(GatherParams(axis: 1, indices: [2, 0, 2]), x)
        #expect(middle.shape == [2, 3, 4])
        KernelTestKit.expectClose(
            middle.values, [8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11, 20, 21, 22, 23, 12, 13, 14, 15, 20, 21, 22, 23], tolerance: 0)
        let last = Self.gather(GatherParams(axis: -1, indices: [3, 1]), x)
        #expect(last.shape == [2, 3, 2])
        KernelTestKit.expectClose(last.values, [3, 1, 7, 5, 11, 9, 15, 13, 19, 17, 23, 21], tolerance: 0)
        let first = Self.gather(GatherParams(axis: 0, indices: [1]), x)
        #expect(first.shape == [1, 3, 4])
        KernelTestKit.expectClose(first.values, Array(12..<24).map(Float.init), tolerance: 0)
        // An index outside the axis is a shape error, not a read out of bounds.
        #expect(throws: BlazeError.self) { try GatherParams(axis: 1, indices: [3]).outputShape([2, 3, 4]) }
        #expect(throws: BlazeError.self) { try GatherParams(axis: 1, indices: [-1]).outputShape([2, 3, 4]) }
        #expect(throws: BlazeError.self) { try GatherParams(axis: 3, indices: [0]).outputShape([2, 3, 4]) }
    }

    // MARK: PAD

    @Test func channelPad() {
        let r = Self.pad(PadParams(paddings: [[0, 0], [0, 0], [0, 0], [1, 2]]), T([1, 1, 2, 2], [1, 2, 3, 4]))
        #expect(r.shape == [1, 1, 2, 5])
        KernelTestKit.expectClose(r.values, [0, 1, 2, 0, 0, 0, 3, 4, 0, 0], tolerance: 0)
    }

    @Test func spatialPadWithValue() {
        let r = Self.pad(PadParams(paddings: [[0, 0], [1, 0], [0, 1], [0, 0]], value: -1), T([1, 2, 2, 1], [1, 2, 3, 4]))
        #expect(r.shape == [1, 3, 3, 1])
        KernelTestKit.expectClose(r.values, [-1, -1, -1, 1, 2, -1, 3, 4, -1], tolerance: 0)
        // Every dim padded, two channels.
        let all = Self.pad(PadParams(paddings: [[1, 0], [0, 1], [1, 0], [0, 1]]), T([1, 1, 1, 2], [5, 6]))
        #expect(all.shape == [2, 2, 2, 3])
        var expected = [Float](repeating: 0, count: 24)
        expected[((1 * 2 + 0) * 2 + 1) * 3 + 0] = 5
        expected[((1 * 2 + 0) * 2 + 1) * 3 + 1] = 6
        KernelTestKit.expectClose(all.values, expected, tolerance: 0)
    }

    @Test func padRank1And5() {
        let r1 = Self.pad(PadParams(paddings: [[2, 1]], value: 9), T([2], [1, 2]))
        KernelTestKit.expectClose(r1.values, [9, 9, 1, 2, 9], tolerance: 0)
        let r5 = Self.pad(PadParams(paddings: [[0, 0], [0, 1], [0, 0], [1, 0], [0, 0]]), T.iota([1, 1, 2, 1, 2], from: 1))
        #expect(r5.shape == [1, 2, 2, 2, 2])
        KernelTestKit.expectClose(r5.values, [0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0], tolerance: 0)
    }

    // MARK: RESHAPE / CONCATENATION

    @Test func copyReshape() {
        let r = KernelTestKit.run([T.iota([2, 3])], out: [3, 2]) { v, out in ReferenceKernels.copy(input: v[0], output: out) }
        KernelTestKit.expectClose(r, [0, 1, 2, 3, 4, 5], tolerance: 0)
    }

    @Test func concatenationNegativeAxis() {
        let a = T([2, 1], [1, 2]), b = T([2, 2], [3, 4, 5, 6])
        let p = ConcatenationParams(axis: -1)
        let r = KernelTestKit.run([a, b], out: [2, 3]) { v, out in ReferenceKernels.concatenation(p, inputs: v, output: out) }
        KernelTestKit.expectClose(r, [1, 3, 4, 2, 5, 6], tolerance: 0)

        // NHWC channel concat of three inputs (axis −1 == 3), fused relu.
        let x = T([1, 1, 2, 1], [-1, 1]), y = T([1, 1, 2, 2], [2, 3, 4, -5]), z = T([1, 1, 2, 1], [6, 7])
        let q = ConcatenationParams(axis: -1, activation: .relu)
        let r2 = KernelTestKit.run([x, y, z], out: [1, 1, 2, 4]) { v, out in ReferenceKernels.concatenation(q, inputs: v, output: out) }
        KernelTestKit.expectClose(r2, [0, 2, 3, 6, 1, 4, 0, 7], tolerance: 0)

        // Axis −3 of rank 3 (outermost), and axis 1 in the middle.
        let m = ConcatenationParams(axis: -3)
        let r3 = KernelTestKit.run([T.iota([1, 2, 2]), T.iota([1, 2, 2], from: 10)], out: [2, 2, 2]) { v, out in
            ReferenceKernels.concatenation(m, inputs: v, output: out)
        }
        KernelTestKit.expectClose(r3, [0, 1, 2, 3, 10, 11, 12, 13], tolerance: 0)
        let mid = ConcatenationParams(axis: 1)
        let r4 = KernelTestKit.run([T.iota([2, 1, 2]), T.iota([2, 2, 2], from: 10)], out: [2, 3, 2]) { v, out in
            ReferenceKernels.concatenation(mid, inputs: v, output: out)
        }
        KernelTestKit.expectClose(r4, [0, 1, 10, 11, 12, 13, 2, 3, 14, 15, 16, 17], tolerance: 0)
    }

    // MARK: DEPTH_TO_SPACE

    @Test func depthToSpace() {
        // TensorFlow's documented example: [1,1,1,4] → [1,2,2,1] keeps the order.
        let p = DepthToSpaceParams(blockSize: 2)
        let r = KernelTestKit.run([T([1, 1, 1, 4], [1, 2, 3, 4])], out: [1, 2, 2, 1]) { v, out in
            ReferenceKernels.depthToSpace(p, input: v[0], output: out)
        }
        KernelTestKit.expectClose(r, [1, 2, 3, 4], tolerance: 0)
        // [1,1,2,8] → [1,2,4,2]: out[0, by, 2w+bx, c] = in[0, 0, w, (2by+bx)·2 + c].
        let r2 = KernelTestKit.run([T.iota([1, 1, 2, 8])], out: [1, 2, 4, 2]) { v, out in
            ReferenceKernels.depthToSpace(p, input: v[0], output: out)
        }
        KernelTestKit.expectClose(r2, [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15], tolerance: 0)
    }

    // MARK: STRIDED_SLICE

    /// 3×4 matrix v = 4r + c.
    static let m34 = T.iota([3, 4])

    @Test func sliceNegativeIndexAndStride() {
        // Rows 1–2, columns from 3 down to (excluding) 0.
        let r = Self.slice(StridedSliceParams(begin: [1, -1], end: [3, 0], strides: [1, -1]), Self.m34)
        #expect(r.shape == [2, 3])
        KernelTestKit.expectClose(r.values, [7, 6, 5, 11, 10, 9], tolerance: 0)
        // Whole tensor reversed on both axes, column stride −2, via masks.
        let rev = Self.slice(StridedSliceParams(begin: [0, 0], end: [0, 0], strides: [-1, -2], beginMask: 3, endMask: 3), Self.m34)
        #expect(rev.shape == [3, 2])
        KernelTestKit.expectClose(rev.values, [11, 9, 7, 5, 3, 1], tolerance: 0)
    }

    @Test func sliceMasks() {
        // beginMask bit 0 ignores begin[0] = 2; endMask bit 1 ignores end[1] = 0.
        let r = Self.slice(StridedSliceParams(begin: [2, 1], end: [2, 0], strides: [1, 1], beginMask: 1, endMask: 2), Self.m34)
        #expect(r.shape == [2, 3])
        KernelTestKit.expectClose(r.values, [1, 2, 3, 5, 6, 7], tolerance: 0)
        // Fewer begin entries than dims: remaining dims are taken whole.
        let x = T.iota([2, 3, 4])
        let r2 = Self.slice(StridedSliceParams(begin: [1], end: [2], strides: [1]), x)
        #expect(r2.shape == [1, 3, 4])
        KernelTestKit.expectClose(r2.values, (12..<24).map(Float.init), tolerance: 0)
        // offset = true: end is relative to begin.
        let o = Self.slice(StridedSliceParams(begin: [1, 1], end: [2, 2], strides: [1, 1], offset: true), Self.m34)
        KernelTestKit.expectClose(o.values, [5, 6, 9, 10], tolerance: 0)
    }

    @Test func sliceShrinkAxis() {
        // Row 1, columns 0 and 2; axis 0 shrunk away.
        let r = Self.slice(StridedSliceParams(begin: [1, 0], end: [2, 4], strides: [1, 2], shrinkAxisMask: 1), Self.m34)
        #expect(r.shape == [2])
        KernelTestKit.expectClose(r.values, [4, 6], tolerance: 0)
        // Negative index shrink on the last axis of an NHWC tensor: last channel.
        let x = T.iota([1, 2, 2, 3])
        let last = Self.slice(
            StridedSliceParams(
                begin: [0, 0, 0, -1], end: [0, 0, 0, 0], strides: [1, 1, 1, 1],
                beginMask: 7, endMask: 7, shrinkAxisMask: 8), x)
        #expect(last.shape == [1, 2, 2])
        KernelTestKit.expectClose(last.values, [2, 5, 8, 11], tolerance: 0)
    }

    // MARK: TRANSPOSE

    @Test func transposeRank3() {
        // out[k, i, j] = in[i, j, k] = 12i + 4j + k.
        let r = Self.transpose([2, 0, 1], T.iota([2, 3, 4]))
        #expect(r.shape == [4, 2, 3])
        KernelTestKit.expectClose(
            r.values,
            [
                0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
                2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23
            ], tolerance: 0)
        let swap = Self.transpose([1, 0, 2], T.iota([2, 2, 2]))
        KernelTestKit.expectClose(swap.values, [0, 1, 4, 5, 2, 3, 6, 7], tolerance: 0)
    }

    @Test func transposeRank4() {
        // NHWC [1,2,3,2] → NCHW: v = (3h + w)·2 + c.
        let r = Self.transpose([0, 3, 1, 2], T.iota([1, 2, 3, 2]))
        #expect(r.shape == [1, 2, 2, 3])
        KernelTestKit.expectClose(r.values, [0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11], tolerance: 0)
        // Full reversal [3,2,1,0] of [2,1,2,3] against index arithmetic.
        let s = [2, 1, 2, 3]
        let t = Self.transpose([3, 2, 1, 0], T.iota(s))
        #expect(t.shape == [3, 2, 1, 2])
        var expected = [Float]()
        for d3 in 0..<3 {
            for d2 in 0..<2 {
                for d1 in 0..<1 {
                    for d0 in 0..<2 {
                        expected.append(Float(((d0 * 1 + d1) * 2 + d2) * 3 + d3))
                    }
                }
            }
        }
        KernelTestKit.expectClose(t.values, expected, tolerance: 0)
    }
}
