import Testing
@testable import BlazeEngine

/// Hand-computed MAX_POOL_2D / AVERAGE_POOL_2D cases.
@Suite struct ReferencePoolTests {
    typealias T = KernelTensor

    static func pool(_ p: Pool2DParams, _ x: T, average: Bool) -> (shape: [Int], values: [Float]) {
        let shape = try! p.geometry(input: x.shape).outputShape
        let v = KernelTestKit.run([x], out: shape) { v, out in
            if average { ReferenceKernels.averagePool2D(p, input: v[0], output: out) } else { ReferenceKernels.maxPool2D(p, input: v[0], output: out) }
        }
        return (shape, v)
    }

    @Test func maxPoolValid() {
        let r = Self.pool(
            Pool2DParams(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .valid),
            T.iota([1, 4, 4, 1], from: 1), average: false)
        #expect(r.shape == [1, 2, 2, 1])
        KernelTestKit.expectClose(r.values, [6, 8, 14, 16], tolerance: 0)
    }

    @Test func maxPoolSameIgnoresPadding() {
        // All values negative (−1…−16): a zero-valued pad cell would win if padding were counted.
        // 3×3 stride 2 SAME on 4×4: windows rows/cols {0–2, 2–3}.
        let x = T([1, 4, 4, 1], (1...16).map { -Float($0) })
        let r = Self.pool(Pool2DParams(filterH: 3, filterW: 3, strideH: 2, strideW: 2, padding: .same), x, average: false)
        #expect(r.shape == [1, 2, 2, 1])
        KernelTestKit.expectClose(r.values, [-1, -3, -9, -11], tolerance: 0)

        // 3×3 stride 1 SAME on 3×3 (1…9), two channels (second = −value).
        var v = [Float]()
        for i in 1...9 { v += [Float(i), -Float(i)] }
        let r2 = Self.pool(Pool2DParams(filterH: 3, filterW: 3, strideH: 1, strideW: 1, padding: .same), T([1, 3, 3, 2], v), average: false)
        let ch0: [Float] = [5, 6, 6, 8, 9, 9, 8, 9, 9]
        let ch1: [Float] = [-1, -1, -2, -1, -1, -2, -4, -4, -5]
        KernelTestKit.expectClose(r2.values, zip(ch0, ch1).flatMap { [$0, $1] }, tolerance: 0)
    }

    @Test func maxPoolFusedActivation() {
        let r = Self.pool(
            Pool2DParams(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .valid, activation: .relu6),
            T.iota([1, 4, 4, 1], from: 1), average: false)
        KernelTestKit.expectClose(r.values, [6, 6, 6, 6], tolerance: 0)
    }

    @Test func averagePoolSameDividesByValidCells() {
        // 3×3 stride 1 SAME on 3×3 (1…9): sums [12,21,16,27,45,33,24,39,28] over 4/6/9 cells.
        // Channel 1 is constant 2: the average stays 2 everywhere only if pads are not counted.
        var v = [Float]()
        for i in 1...9 { v += [Float(i), 2] }
        let r = Self.pool(Pool2DParams(filterH: 3, filterW: 3, strideH: 1, strideW: 1, padding: .same), T([1, 3, 3, 2], v), average: true)
        let ch0: [Float] = [3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7]
        KernelTestKit.expectClose(r.values, ch0.flatMap { [$0, 2] })

        // 3×3 stride 2 SAME on 4×4 (1…16): sums [54,45,72,54] over [9,6,6,4] cells.
        let r2 = Self.pool(
            Pool2DParams(filterH: 3, filterW: 3, strideH: 2, strideW: 2, padding: .same),
            T.iota([1, 4, 4, 1], from: 1), average: true)
        KernelTestKit.expectClose(r2.values, [6, 7.5, 12, 13.5])
    }

    @Test func averagePoolValidBatch() {
        // Batch 2, 2×2 stride 2 VALID on 2×4: image 0 = 0…7, image 1 = 8…15.
        let r = Self.pool(Pool2DParams(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .valid), T.iota([2, 2, 4, 1]), average: true)
        #expect(r.shape == [2, 1, 2, 1])
        KernelTestKit.expectClose(r.values, [2.5, 4.5, 10.5, 12.5])
    }
}
