/// TRANSPOSE_CONV_BIAS as a gather: each output pixel sums, over the filter taps that reach it,
/// the dot product of one input pixel with one filter row. Split by output rows; the filter is
/// repacked once to `[KH,KW,O,C]` so every dot product reads contiguous memory. Not a hot op
/// (MediaPipe uses it once, as a final upsampling), so it stays a plain loop.
final class TransposeConvStep: ParallelJob {
    let x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>
    let g: TransposeConvGeometry
    /// Filter as `[KH,KW,O,C]`.
    let packed: [Float]
    let bias: [Float]
    let parts: Int

    init(
        _ p: TransposeConv2DParams, input: TensorView, filter: TensorView, bias b: TensorView?,
        output: MutableTensorView, threads: Int
    ) throws {
        g = try p.geometry(input: input.shape, filter: filter.shape)
        x = input.data; y = output.data
        let O = g.outC, KH = g.kernelH, KW = g.kernelW, C = g.inC
        var packed = [Float](repeating: 0, count: O * KH * KW * C)
        for o in 0..<O {
            for ky in 0..<KH {
                for kx in 0..<KW {
                    for c in 0..<C {
                        packed[((ky * KW + kx) * O + o) * C + c] = filter.data[((o * KH + ky) * KW + kx) * C + c]
                    }
                }
            }
        }
        self.packed = packed
        bias = b.map { Array(UnsafeBufferPointer(start: $0.data, count: O)) } ?? [Float](repeating: 0, count: O)
        let rows = g.batch * g.outH
        parts = Parallelism.tasks(
            units: rows, work: output.count * KH * KW * C / max(g.strideH * g.strideW, 1),
            minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(rows: WorkerPool.part(index, of: parts, count: g.batch * g.outH)) }

    func run(rows: Range<Int>) {
        let H = g.inH, W = g.inW, C = g.inC, O = g.outC, KW = g.kernelW, OH = g.outH, OW = g.outW
        let sh = g.strideH, sw = g.strideW
        packed.withUnsafeBufferPointer { wp in
            bias.withUnsafeBufferPointer { bp in
                let w = wp.baseAddress!
                for r in rows {
                    let n = r / OH, oy = r % OH
                    // Input row iy reaches output row oy through filter row ky = oy + padTop − iy·sh.
                    let vy = oy &+ g.padTop
                    for ox in 0..<OW {
                        let out = y + (r &* OW &+ ox) &* O
                        for o in 0..<O { out[o] = bp[o] }
                        let vx = ox &+ g.padLeft
                        var ky = vy % sh
                        while ky < g.kernelH {
                            let iy = (vy &- ky) / sh
                            if iy < 0 { break }
                            if iy < H {
                                var kx = vx % sw
                                while kx < KW {
                                    let ix = (vx &- kx) / sw
                                    if ix < 0 { break }
                                    if ix < W {
                                        let xp = x + ((n &* H &+ iy) &* W &+ ix) &* C
                                        let taps = w + (ky &* KW &+ kx) &* O &* C
                                        for o in 0..<O { out[o] += Self.dot(xp, taps + o &* C, C) }
                                    }
                                    kx &+= sw
                                }
                            }
                            ky &+= sh
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc = SIMD8<Float>()
        var i = 0
        while i &+ 8 <= n {
            acc +=
                UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
                * UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
            i &+= 8
        }
        var total = acc.sum()
        while i < n { total += a[i] * b[i]; i &+= 1 }
        return total
    }
}
