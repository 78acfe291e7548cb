import Testing
@testable import BlazeEngine

/// `GemmStep` (im2col + OpenBLAS sgemm/sgemv, the baseline level's unfused CONV_2D and
/// FULLY_CONNECTED) against ReferenceKernels on seeded random shapes, at 1 and 2 threads.
/// Tolerance: |gemm − ref| ≤ 1e-4 · max(1, max|ref|) per output tensor.
@Suite struct GemmKernelTests {
    typealias T = KernelTensor

    struct ConvCase: CustomStringConvertible {
        var n: Int, h: Int, w: Int, c: Int, o: Int, kh: Int, kw: Int
        var p: Conv2DParams
        var bias: Bool
        var description: String {
            "N\(n) \(h)×\(w)×\(c) → \(o), k\(kh)×\(kw) s\(p.strideH),\(p.strideW) d\(p.dilationH),\(p.dilationW) \(p.padding) \(p.activation) bias \(bias)"
        }
    }

    /// Runs both kernels; returns false if the geometry is invalid (kernel larger than a VALID input).
    @discardableResult
    static func check(
        _ cc: ConvCase, _ rng: inout KernelTestRNG, threads: Int = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let xs = [cc.n, cc.h, cc.w, cc.c], fs = [cc.o, cc.kh, cc.kw, cc.c]
        guard let g = try? cc.p.geometry(input: xs, filter: fs) else { return false }
        let x = T.random(xs, &rng), f = T.random(fs, &rng)
        let inputs = [x, f] + (cc.bias ? [T.random([cc.o], &rng)] : [])
        let ref = KernelTestKit.run(inputs, out: g.outputShape) { v, out in
            ReferenceKernels.conv2D(cc.p, input: v[0], filter: v[1], bias: v.count > 2 ? v[2] : nil, output: out)
        }
        let scratchCount = GemmStep.scratchCount(g)
        let gemm = KernelTestKit.run(inputs, out: g.outputShape) { v, out in
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: max(scratchCount, 1))
            defer { scratch.deallocate() }
            GemmStep(
                conv: g, activation: cc.p.activation, input: v[0].data, filter: v[1].data, bias: v.count > 2 ? v[2].data : nil,
                output: out.data, scratch: scratch, threads: threads
            ).execute(WorkerPool(threadCount: threads))
        }
        KernelTestKit.expectCloseToReference(gemm, ref, "conv \(cc)", sourceLocation: sourceLocation)
        return true
    }

    @Test func scratchCounts() throws {
        let pointwise = try Conv2DParams(padding: .same).geometry(input: [1, 8, 8, 4], filter: [16, 1, 1, 4])
        #expect(GemmStep.scratchCount(pointwise) == 0)
        let strided1x1 = try Conv2DParams(strideH: 2, strideW: 2, padding: .valid).geometry(input: [1, 8, 8, 4], filter: [16, 1, 1, 4])
        #expect(GemmStep.scratchCount(strided1x1) == 4 * 4 * 4)
        let k3 = try Conv2DParams(strideH: 2, strideW: 2, padding: .same).geometry(input: [2, 7, 5, 3], filter: [8, 3, 3, 3])
        // batch 2 × 4×3 output pixels × K = 3·3·3.
        #expect(GemmStep.scratchCount(k3) == 2 * 4 * 3 * 27)
    }

    @Test func namedShapes() {
        var rng = KernelTestRNG(seed: 1)
        let cases: [ConvCase] = [
            // 1×1 stride 1 (direct sgemm), batch 2, with and without bias/activation.
            ConvCase(n: 2, h: 5, w: 7, c: 17, o: 9, kh: 1, kw: 1, p: Conv2DParams(padding: .same, activation: .relu6), bias: true),
            ConvCase(n: 1, h: 1, w: 1, c: 1, o: 1, kh: 1, kw: 1, p: Conv2DParams(padding: .valid), bias: false),
            // 1×1 stride 2 goes through im2col.
            ConvCase(n: 2, h: 7, w: 6, c: 5, o: 3, kh: 1, kw: 1, p: Conv2DParams(strideH: 2, strideW: 2, padding: .same), bias: true),
            // 3×3 stride 2 SAME, even and odd inputs (asymmetric padding), first-layer-like C = 3.
            ConvCase(n: 1, h: 8, w: 8, c: 3, o: 16, kh: 3, kw: 3, p: Conv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .relu), bias: true),
            ConvCase(n: 2, h: 7, w: 5, c: 3, o: 8, kh: 3, kw: 3, p: Conv2DParams(strideH: 2, strideW: 2, padding: .same), bias: true),
            // 5×5 SAME and VALID.
            ConvCase(n: 1, h: 7, w: 7, c: 6, o: 5, kh: 5, kw: 5, p: Conv2DParams(padding: .same), bias: true),
            ConvCase(n: 2, h: 6, w: 7, c: 2, o: 4, kh: 5, kw: 5, p: Conv2DParams(padding: .valid, activation: .reluMinus1To1), bias: false),
            // Dilation, non-square kernel and strides.
            ConvCase(n: 1, h: 7, w: 7, c: 4, o: 3, kh: 3, kw: 3, p: Conv2DParams(dilationH: 2, dilationW: 2, padding: .same), bias: true),
            ConvCase(n: 1, h: 6, w: 5, c: 3, o: 2, kh: 2, kw: 3, p: Conv2DParams(strideH: 1, strideW: 2, padding: .same), bias: false)
        ]
        for cc in cases {
            #expect(Self.check(cc, &rng), "\(cc) has invalid geometry")
        }
        // The same cases split across two threads.
        for cc in cases { Self.check(cc, &rng, threads: 2) }
    }

    @Test func randomConvShapes() {
        var rng = KernelTestRNG(seed: 0x5EED_C0DE)
        var checked = 0
        while checked < 150 {
            let k = [1, 1, 2, 3, 3, 5].randomElement(using: &rng)!
            let kw = Bool.random(using: &rng) ? k : [1, 3, 5].randomElement(using: &rng)!
            let p = Conv2DParams(
                strideH: Int.random(in: 1...2, using: &rng), strideW: Int.random(in: 1...2, using: &rng),
                dilationH: Int.random(in: 0..<4, using: &rng) == 0 ? 2 : 1,
                dilationW: Int.random(in: 0..<4, using: &rng) == 0 ? 2 : 1,
                padding: Bool.random(using: &rng) ? .same : .valid,
                activation: Activation.allCases.randomElement(using: &rng)!)
            let cc = ConvCase(
                n: Int.random(in: 1...2, using: &rng), h: Int.random(in: 1...7, using: &rng), w: Int.random(in: 1...7, using: &rng),
                c: Int.random(in: 1...17, using: &rng), o: Int.random(in: 1...17, using: &rng),
                kh: k, kw: kw, p: p, bias: Bool.random(using: &rng))
            if Self.check(cc, &rng) { checked += 1 }
        }
    }

    @Test func randomFullyConnected() {
        var rng = KernelTestRNG(seed: 42)
        for _ in 0..<60 {
            let rows = Int.random(in: 1...5, using: &rng), i = Int.random(in: 1...40, using: &rng), o = Int.random(in: 1...20, using: &rng)
            let keep = Bool.random(using: &rng)
            let p = FullyConnectedParams(activation: Activation.allCases.randomElement(using: &rng)!, keepNumDims: keep)
            let xs = keep ? [1, rows, i] : [rows * i]
            let ws = [o, i]
            let outShape = try! p.outputShape(input: xs, weights: ws)
            let inputs = [T.random(xs, &rng), T.random(ws, &rng)] + (Bool.random(using: &rng) ? [T.random([o], &rng)] : [])
            let ref = KernelTestKit.run(inputs, out: outShape) { v, out in
                ReferenceKernels.fullyConnected(p, input: v[0], weights: v[1], bias: v.count > 2 ? v[2] : nil, output: out)
            }
            let gemm = KernelTestKit.run(inputs, out: outShape) { v, out in
                GemmStep(
                    fullyConnected: p.activation, input: v[0].data, inputCount: v[0].count, weights: v[1].data,
                    weightsShape: v[1].shape, bias: v.count > 2 ? v[2].data : nil, output: out.data
                )
                .execute(WorkerPool(threadCount: 1))
            }
            KernelTestKit.expectCloseToReference(gemm, ref, "fc rows \(rows) I \(i) O \(o) keep \(keep) bias \(inputs.count > 2)")
        }
    }
}
