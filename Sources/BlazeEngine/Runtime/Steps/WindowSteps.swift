/// DEPTHWISE_CONV_2D, MAX_POOL_2D and AVERAGE_POOL_2D bound to their memory, split across threads
/// by output rows. Each output element is computed with exactly the arithmetic of the reference
/// kernel (same taps, same order, no FMA contraction), so results are bitwise those of
/// `ReferenceKernels` whatever the split. Channels are the innermost loop (vectorisable); the
/// output row itself is the accumulator.
final class DepthwiseStep: ParallelJob {
    let g: ConvGeometry
    let multiplier: Int
    let activation: Activation
    let x: UnsafePointer<Float>, w: UnsafePointer<Float>, bias: UnsafePointer<Float>?
    let y: UnsafeMutablePointer<Float>
    /// Output rows (`batch · outH`) and how many parts they are cut into.
    let rows: Int, parts: Int

    init(_ p: DepthwiseConv2DParams, geometry g: ConvGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
         bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, threads: Int) {
        self.g = g
        multiplier = p.depthMultiplier
        activation = p.activation
        x = input; w = filter; self.bias = bias; y = output
        rows = g.batch * g.outH
        let macs = rows * g.outW * g.outC * g.kernelH * g.kernelW
        parts = Parallelism.tasks(units: rows, work: macs, minWork: 8192, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(rows: WorkerPool.part(index, of: parts, count: rows)) }

    func run(rows: Range<Int>) {
        let H = g.inH, W = g.inW, C = g.inC, O = g.outC, KW = g.kernelW
        for r in rows {
            let n = r / g.outH, oy = r % g.outH
            let image = x + n &* H &* W &* C
            let iy0 = oy &* g.strideH &- g.padTop
            var out = y + r &* g.outW &* O
            for ox in 0..<g.outW {
                let ix0 = ox &* g.strideW &- g.padLeft
                out.update(repeating: 0, count: O)
                for ky in 0..<g.kernelH {
                    let iy = iy0 &+ ky &* g.dilationH
                    if iy < 0 || iy >= H { continue }
                    for kx in 0..<KW {
                        let ix = ix0 &+ kx &* g.dilationW
                        if ix < 0 || ix >= W { continue }
                        let xp = image + (iy &* W &+ ix) &* C
                        let wp = w + (ky &* KW &+ kx) &* O
                        if multiplier == 1 {
                            for c in 0..<O { out[c] += xp[c] * wp[c] }
                        } else {
                            var oc = 0
                            for c in 0..<C {
                                let v = xp[c]
                                for _ in 0..<multiplier { out[oc] += v * wp[oc]; oc &+= 1 }
                            }
                        }
                    }
                }
                Elementwise.biasActivation(out, count: O, bias: bias, activation: activation)
                out += O
            }
        }
    }
}

final class PoolStep: ParallelJob {
    let g: ConvGeometry
    let average: Bool
    let activation: Activation
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let rows: Int, parts: Int

    init(_ p: Pool2DParams, geometry g: ConvGeometry, average: Bool, input: UnsafePointer<Float>,
         output: UnsafeMutablePointer<Float>, threads: Int) {
        self.g = g
        self.average = average
        activation = p.activation
        x = input; y = output
        rows = g.batch * g.outH
        let work = rows * g.outW * g.outC * g.kernelH * g.kernelW
        parts = Parallelism.tasks(units: rows, work: work, minWork: 16384, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(rows: WorkerPool.part(index, of: parts, count: rows)) }

    func run(rows: Range<Int>) {
        let H = g.inH, W = g.inW, C = g.inC
        for r in rows {
            let n = r / g.outH, oy = r % g.outH
            let image = x + n &* H &* W &* C
            let iy0 = oy &* g.strideH &- g.padTop
            let yStart = max(0, -iy0), yEnd = min(g.kernelH, H &- iy0)
            var out = y + r &* g.outW &* C
            for ox in 0..<g.outW {
                let ix0 = ox &* g.strideW &- g.padLeft
                let xStart = max(0, -ix0), xEnd = min(g.kernelW, W &- ix0)
                let cells = max(yEnd &- yStart, 0) &* max(xEnd &- xStart, 0)
                precondition(cells > 0, "POOL_2D window entirely outside the image")
                out.update(repeating: average ? 0 : -Float.greatestFiniteMagnitude, count: C)
                var ky = yStart
                while ky < yEnd {
                    var kx = xStart
                    while kx < xEnd {
                        let xp = image + ((iy0 &+ ky) &* W &+ (ix0 &+ kx)) &* C
                        if average {
                            for c in 0..<C { out[c] += xp[c] }
                        } else {
                            for c in 0..<C { let v = xp[c]; out[c] = v > out[c] ? v : out[c] }
                        }
                        kx &+= 1
                    }
                    ky &+= 1
                }
                if average {
                    let d = Float(cells)
                    for c in 0..<C { out[c] = out[c] / d }
                }
                Elementwise.activation(out, count: C, activation)
                out += C
            }
        }
    }
}
