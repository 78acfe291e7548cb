import Testing
@testable import BlazeEngine

/// MEAN / SUM / REDUCE_MAX / REDUCE_MIN and RESIZE_BILINEAR.
@Suite struct ReferenceReduceResizeTests {
    typealias T = KernelTensor

    static func reduce(_ p: ReduceParams, _ x: T) -> (shape: [Int], values: [Float]) {
        let shape = try! p.outputShape(x.shape)
        return (shape, KernelTestKit.run([x], out: shape) { v, out in ReferenceKernels.reduce(p, input: v[0], output: out) })
    }

    static func resize(_ p: ResizeBilinearParams, _ x: T) -> (shape: [Int], values: [Float]) {
        let shape = try! p.outputShape(x.shape)
        return (shape, KernelTestKit.run([x], out: shape) { v, out in ReferenceKernels.resizeBilinear(p, input: v[0], output: out) })
    }

    /// [2,3,4] with v = 12i + 4j + k.
    static let x234 = T.iota([2, 3, 4])

    // MARK: Reduce

    @Test func meanSingleAxis() {
        let r = Self.reduce(ReduceParams(.mean, axes: [1], keepDims: false), Self.x234)
        #expect(r.shape == [2, 4])
        KernelTestKit.expectClose(r.values, [4, 5, 6, 7, 16, 17, 18, 19])
        let k = Self.reduce(ReduceParams(.mean, axes: [1], keepDims: true), Self.x234)
        #expect(k.shape == [2, 1, 4])
        KernelTestKit.expectClose(k.values, [4, 5, 6, 7, 16, 17, 18, 19])
    }

    @Test func sumNegativeAxis() {
        // Σ_k (base + k) = 4·base + 6 with base = 12i + 4j.
        let r = Self.reduce(ReduceParams(.sum, axes: [-1], keepDims: true), Self.x234)
        #expect(r.shape == [2, 3, 1])
        KernelTestKit.expectClose(r.values, [6, 22, 38, 54, 70, 86], tolerance: 0)
        let n = Self.reduce(ReduceParams(.sum, axes: [-1], keepDims: false), Self.x234)
        #expect(n.shape == [2, 3])
        KernelTestKit.expectClose(n.values, [6, 22, 38, 54, 70, 86], tolerance: 0)
    }

    @Test func meanMultipleAxes() {
        // Over i and k: 4j + mean(12i) + mean(k) = 4j + 6 + 1.5. Duplicates and negatives are folded.
        for axes in [[0, 2], [2, 0, -1], [-3, -1]] {
            let r = Self.reduce(ReduceParams(.mean, axes: axes, keepDims: false), Self.x234)
            #expect(r.shape == [3])
            KernelTestKit.expectClose(r.values, [7.5, 11.5, 15.5], "axes \(axes)")
        }
        let k = Self.reduce(ReduceParams(.mean, axes: [0, 2], keepDims: true), Self.x234)
        #expect(k.shape == [1, 3, 1])
        KernelTestKit.expectClose(k.values, [7.5, 11.5, 15.5])
        // All axes → scalar.
        let all = Self.reduce(ReduceParams(.mean, axes: [0, 1, 2], keepDims: false), Self.x234)
        #expect(all.shape == [])
        KernelTestKit.expectClose(all.values, [11.5])
        let allKeep = Self.reduce(ReduceParams(.sum, axes: [0, 1, 2], keepDims: true), Self.x234)
        #expect(allKeep.shape == [1, 1, 1])
        KernelTestKit.expectClose(allKeep.values, [276], tolerance: 0)
    }

    @Test func contiguousRowsSumInEightLaneOrder() {
        // One row of 9 reducing into one output: lanes 0…7 get x0…x7, the tree adds (l0+l4)+(l2+l6)
        // and (l1+l5)+(l3+l7), then the tail x8. Float32 by hand (numpy.float32, step by step):
        // 1e8 + 4 rounds back to 1e8, 4 + 4 = 8 per other lane pair, (1e8 + 8) + 16 = 100000024, + 3
        // rounds to 100000024. In input order every +4 and the +3 would be lost (100000000).
        let x = T([1, 9], [1e8, 4, 4, 4, 4, 4, 4, 4, 3])
        let r = Self.reduce(ReduceParams(.sum, axes: [1], keepDims: false), x)
        KernelTestKit.expectClose(r.values, [100_000_024], tolerance: 0)
        // Rows shorter than 8 are the plain sum in order: 1e8 + 4 + 4 = 1e8 (each +4 a tie to even).
        let short = Self.reduce(ReduceParams(.sum, axes: [1], keepDims: false), T([1, 3], [1e8, 4, 4]))
        KernelTestKit.expectClose(short.values, [100_000_000], tolerance: 0)
        // MEAN of the same row: the sum divided by 9.
        let mean = Self.reduce(ReduceParams(.mean, axes: [1], keepDims: false), x)
        KernelTestKit.expectClose(mean.values, [Float(100_000_024) / 9], tolerance: 0)
    }

    @Test func globalAveragePoolNHWC() {
        // MEAN over H, W of [1,2,2,3] (0…11), keepDims.
        let r = Self.reduce(ReduceParams(.mean, axes: [1, 2], keepDims: true), T.iota([1, 2, 2, 3]))
        #expect(r.shape == [1, 1, 1, 3])
        KernelTestKit.expectClose(r.values, [4.5, 5.5, 6.5])
    }

    @Test func reduceMax() {
        // All negative so the identity must be the lowest float, not 0: −(v + 1), max over i, j = −(k + 1).
        let x = T([2, 3, 4], Self.x234.values.map { -$0 - 1 })
        let r = Self.reduce(ReduceParams(.max, axes: [0, 1], keepDims: false), x)
        #expect(r.shape == [4])
        KernelTestKit.expectClose(r.values, [-1, -2, -3, -4], tolerance: 0)
        let m = Self.reduce(ReduceParams(.max, axes: [-2], keepDims: true), Self.x234)
        #expect(m.shape == [2, 1, 4])
        KernelTestKit.expectClose(m.values, [8, 9, 10, 11, 20, 21, 22, 23], tolerance: 0)
    }

    @Test func reduceMin() {
        // All positive so the identity must be the greatest float, not 0: min over i, j of v + 1 is k + 1.
        let x = T([2, 3, 4], Self.x234.values.map { $0 + 1 })
        let r = Self.reduce(ReduceParams(.min, axes: [0, 1], keepDims: false), x)
        #expect(r.shape == [4])
        KernelTestKit.expectClose(r.values, [1, 2, 3, 4], tolerance: 0)
        // Over the last axis (the gesture embedder's use): 12i + 4j.
        let m = Self.reduce(ReduceParams(.min, axes: [-1], keepDims: false), Self.x234)
        #expect(m.shape == [2, 3])
        KernelTestKit.expectClose(m.values, [0, 4, 8, 12, 16, 20], tolerance: 0)
    }

    // MARK: Resize bilinear

    static let quad = T([1, 2, 2, 1], [1, 2, 3, 4])

    @Test func resizeHalfPixelCenters() {
        // scale 0.5, source s = 0.5·o − 0.25 → −0.25, 0.25, 0.75, 1.25. Rows/cols interpolate [1,2]
        // to [1, 1.25, 1.75, 2] (the −0.25 and 1.25 ends clamp to the edge value), and rows add
        // 0, 0.5, 1.5, 2.
        let r = Self.resize(ResizeBilinearParams(height: 4, width: 4, halfPixelCenters: true), Self.quad)
        #expect(r.shape == [1, 4, 4, 1])
        KernelTestKit.expectClose(
            r.values,
            [
                1, 1.25, 1.75, 2,
                1.5, 1.75, 2.25, 2.5,
                2.5, 2.75, 3.25, 3.5,
                3, 3.25, 3.75, 4
            ])
    }

    @Test func resizeAlignCorners() {
        // scale (2−1)/(3−1) = 0.5 → s = 0, 0.5, 1.
        let r = Self.resize(ResizeBilinearParams(height: 3, width: 3, alignCorners: true), Self.quad)
        KernelTestKit.expectClose(r.values, [1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4])
        // Downscale 4 → 2 with align corners: picks the corners exactly (scale 3).
        let big = T.iota([1, 4, 4, 1])
        let d = Self.resize(ResizeBilinearParams(height: 2, width: 2, alignCorners: true), big)
        KernelTestKit.expectClose(d.values, [0, 3, 12, 15])
    }

    @Test func resizeDefaultAndChannels() {
        // No flags: scale 2/3, s = 0, 2/3, 4/3 (→ clamps to index 1).
        let r = Self.resize(ResizeBilinearParams(height: 3, width: 3), Self.quad)
        let expected: [Float] = [1, 5.0 / 3, 2, 7.0 / 3, 3, 10.0 / 3, 3, 11.0 / 3, 4]  // typed: Swift 6.2.3 infers [Any]
        KernelTestKit.expectClose(r.values, expected, tolerance: 1e-6)
        // Two channels and batch 2, 1×2 → 1×4 half-pixel: per channel [a, .75a+.25b, .25a+.75b, b].
        let x = T([2, 1, 2, 2], [0, 10, 4, 20, 1, 1, 1, 1])
        let c = Self.resize(ResizeBilinearParams(height: 1, width: 4, halfPixelCenters: true), x)
        #expect(c.shape == [2, 1, 4, 2])
        KernelTestKit.expectClose(c.values, [0, 10, 1, 12.5, 3, 17.5, 4, 20, 1, 1, 1, 1, 1, 1, 1, 1])
        // Half-pixel downscale 4 → 2: s = 0.5, 2.5 → midpoints.
        let dn = Self.resize(ResizeBilinearParams(height: 1, width: 2, halfPixelCenters: true), T([1, 1, 4, 1], [0, 2, 4, 8]))
        KernelTestKit.expectClose(dn.values, [1, 6])
    }
}
