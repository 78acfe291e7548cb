/// Vectorised elementwise kernels (no packing needed). Each takes an explicit sub-range so a
/// thread pool can split it; ranges are in *elements* for `add` and in *pixels* (rows of
/// `channels` floats) for the per-channel ones. Outputs may be exactly equal to an input pointer
/// (in place) but must not partially overlap one. Nothing allocates.
public enum SIMDElementwise {
    typealias Vec = ConvTiles.Vec

    /// ADD of two same-shape tensors with fused activation: `out[i] = act(a[i] + b[i])`, `i ∈ range`.
    public static func add(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                           activation: Activation = .none, range: Range<Int>) {
        let act = ActivationBounds(activation)
        let L = Vec.laneCount
        var i = range.lowerBound
        let end = range.upperBound
        while i &+ L <= end {
            act.apply(Vec.load(a + i).add(Vec.load(b + i))).store(output + i)
            i &+= L
        }
        while i < end {
            output[i] = act.apply(a[i] + b[i])
            i &+= 1
        }
    }

    /// ADD with fused activation, then PReLU with per-channel `alpha[channels]` (the BlazeBlock
    /// tail `ADD → PRELU`): tensors are `[pixels, channels]`, computes pixels `pixels`.
    public static func addPrelu(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, alpha: UnsafePointer<Float>,
                                channels C: Int, output: UnsafeMutablePointer<Float>, activation: Activation = .none,
                                pixels: Range<Int>) {
        let act = ActivationBounds(activation)
        let L = Vec.laneCount
        for p in pixels {
            let o = p &* C
            var c = 0
            while c &+ L <= C {
                act.apply(Vec.load(a + (o &+ c)).add(Vec.load(b + (o &+ c)))).prelu(Vec.load(alpha + c)).store(output + (o &+ c))
                c &+= L
            }
            while c < C {
                output[o &+ c] = act.apply(a[o &+ c] + b[o &+ c]).prelu(alpha[c])
                c &+= 1
            }
        }
    }

    /// PRELU with per-channel alpha: `out = x < 0 ? alpha[c]·x : x` over `[pixels, channels]`.
    public static func prelu(input: UnsafePointer<Float>, alpha: UnsafePointer<Float>, channels C: Int,
                             output: UnsafeMutablePointer<Float>, pixels: Range<Int>) {
        let L = Vec.laneCount
        for p in pixels {
            let o = p &* C
            var c = 0
            while c &+ L <= C {
                Vec.load(input + (o &+ c)).prelu(Vec.load(alpha + c)).store(output + (o &+ c))
                c &+= L
            }
            while c < C {
                output[o &+ c] = input[o &+ c].prelu(alpha[c])
                c &+= 1
            }
        }
    }

    /// PAD of the channel dimension only (`[N,H,W,C] → [N,H,W,before+C+after]`, filled with
    /// `value`), for pixels `pixels` (over N·H·W). Output must not overlap the input.
    public static func padChannels(input: UnsafePointer<Float>, channels C: Int, before: Int, after: Int, value: Float = 0,
                                   output: UnsafeMutablePointer<Float>, pixels: Range<Int>) {
        let OC = before &+ C &+ after
        for p in pixels {
            let dst = output + p &* OC
            if before > 0 { dst.update(repeating: value, count: before) }
            (dst + before).update(from: input + p &* C, count: C)
            if after > 0 { (dst + (before &+ C)).update(repeating: value, count: after) }
        }
    }

    /// Bias + epilogue over `[rows, channels]` in place (the BLAS path of `PackedConv2D`).
    /// `forceResidualActivation`: the residual was already accumulated into `y` (in-place BLAS).
    static func convEpilogue(_ y: UnsafeMutablePointer<Float>, rows: Int, channels C: Int, bias: UnsafePointer<Float>,
                             alpha: UnsafePointer<Float>, residual: UnsafePointer<Float>?, residualChannels: Int,
                             epilogue e: FusedEpilogue, forceResidualActivation: Bool) {
        let L = Vec.laneCount
        for r in 0..<rows {
            let row = y + r &* C
            let res = residual.map { $0 + r &* residualChannels }
            var c = 0
            while c &+ L <= C {
                var v = e.activation.apply(Vec.load(row + c).add(Vec.load(bias + c)))
                if let res {
                    let rv: Vec = c &+ L <= residualChannels ? Vec.load(res + c)
                        : (c < residualChannels ? Vec.load(res + c, count: residualChannels &- c) : Vec.zero)
                    v = e.residualActivation.apply(v.add(rv))
                } else if forceResidualActivation {
                    v = e.residualActivation.apply(v)
                }
                if e.hasPrelu { v = v.prelu(Vec.load(alpha + c)) }
                v.store(row + c)
                c &+= L
            }
            while c < C {
                var v = e.activation.apply(row[c] + bias[c])
                if let res {
                    v = e.residualActivation.apply(v + (c < residualChannels ? res[c] : 0))
                } else if forceResidualActivation {
                    v = e.residualActivation.apply(v)
                }
                if e.hasPrelu { v = v.prelu(alpha[c]) }
                row[c] = v
                c &+= 1
            }
        }
    }
}

/// MAX_POOL_2D / AVERAGE_POOL_2D (any window, stride, padding — TFLite semantics: the window is
/// clipped to the image), vectorised over channels, with fused activation. Work units are output
/// rows (`workCount = batch · outH`). No packing; a value type, freely shareable.
public struct Pool2DKernel: Sendable {
    public let params: Pool2DParams
    public let geometry: ConvGeometry
    public let isAverage: Bool
    public var workCount: Int { geometry.batch * geometry.outH }

    public init(params: Pool2DParams, geometry: ConvGeometry, average: Bool = false) {
        self.params = params; self.geometry = geometry; self.isAverage = average
    }

    public func partition(_ part: Int, of parts: Int) -> Range<Int> { simdPartition(workCount, part: part, of: parts) }

    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= workCount, "pool rows \(rows) outside 0..<\(workCount)")
        #if BLAZE_TUNED
        if isAverage { runRows(input, output, rows, SIMD16<Float>.self, average: true) } else { runRows(input, output, rows, SIMD16<Float>.self, average: false) }
        #else
        if isAverage { runRows(input, output, rows, SIMD4<Float>.self, average: true) } else { runRows(input, output, rows, SIMD4<Float>.self, average: false) }
        #endif
    }

    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, output: output, rows: 0..<workCount)
    }

    @inline(__always)
    private func runRows<V: KernelVector>(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
                                          _ rows: Range<Int>, _: V.Type, average: Bool) {
        let g = geometry
        let H = g.inH, W = g.inW, C = g.inC
        let act = ActivationBounds(params.activation)
        for r in rows {
            let n = r / g.outH, oy = r - n * g.outH
            let image = input + n &* H &* W &* C
            let iy0 = oy &* g.strideH &- g.padTop
            let yStart = max(0, -iy0), yEnd = min(g.kernelH, H &- iy0)
            for ox in 0..<g.outW {
                let ix0 = ox &* g.strideW &- g.padLeft
                let xStart = max(0, -ix0), xEnd = min(g.kernelW, W &- ix0)
                let cells = (yEnd &- yStart) &* (xEnd &- xStart)
                precondition(cells > 0, "POOL_2D window entirely outside the image")
                var c = 0
                if !average && cells == g.kernelH &* g.kernelW && C >= V.laneCount {
                    // Whole window inside (almost every pixel): the widest vectors inline; a channel
                    // tail is one more vector ending at C, overlapping the previous one (max pooling
                    // is per channel, so the overlap is written twice with the same values).
                    let first = image + (iy0 &* W &+ ix0) &* C, out = output + (r &* g.outW &+ ox) &* C
                    while c < C {
                        let cc = min(c, C &- V.laneCount)
                        var acc = V(splat: -Float.greatestFiniteMagnitude)
                        var rowp = first + cc
                        for _ in 0..<g.kernelH {
                            var p = rowp
                            for _ in 0..<g.kernelW { acc = acc.maxPool(V.load(p)); p += C }
                            rowp += W &* C
                        }
                        act.apply(acc).store(out + cc)
                        c = cc &+ V.laneCount
                    }
                    continue
                }
                let window = PoolWindow(first: image + ((iy0 &+ yStart) &* W &+ ix0 &+ xStart) &* C,
                                        out: output + (r &* g.outW &+ ox) &* C,
                                        rows: yEnd &- yStart, columns: xEnd &- xStart, C: C, rowStride: W &* C,
                                        scale: 1 / Float(cells), average: average, act: act)
                // Channels covered by the widest vectors first, then 8, 4 and 1 (C = 28 → 16 + 8 + 4).
                window.pool(V.self, &c)
                window.pool(SIMD8<Float>.self, &c)
                window.pool(SIMD4<Float>.self, &c)
                window.pool(Float.self, &c)
            }
        }
    }
}

/// One output pixel of a pooling: its valid window in the NHWC input.
private struct PoolWindow {
    let first: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>
    let rows: Int, columns: Int, C: Int, rowStride: Int
    let scale: Float
    let average: Bool
    let act: ActivationBounds

    /// Pools channels `c, c + L, …` while a whole vector of `L` lanes fits; advances `c`.
    @inline(__always)
    func pool<V: KernelVector>(_: V.Type, _ c: inout Int) {
        let L = V.laneCount
        while c &+ L <= C {
            var acc = average ? V.zero : V(splat: -Float.greatestFiniteMagnitude)
            var rowp = first + c
            for _ in 0..<rows {
                var p = rowp
                for _ in 0..<columns {
                    acc = average ? acc.add(V.load(p)) : acc.maxPool(V.load(p))
                    p += C
                }
                rowp += rowStride
            }
            if average { acc = acc.mul(V(splat: scale)) }
            act.apply(acc).store(out + c)
            c &+= L
        }
    }
}

/// RESIZE_BILINEAR (TFLite float semantics, incl. alignCorners / halfPixelCenters), vectorised
/// over channels, with the same arithmetic order as the reference (bit-identical). Source
/// columns are tabulated at init. Work units are output rows (`workCount = batch · height`).
/// Immutable after init (`@unchecked Sendable`); `run` allocates nothing.
public final class ResizeBilinearKernel: @unchecked Sendable {
    public let params: ResizeBilinearParams
    public let inputShape: [Int]
    public var workCount: Int { batch * params.height }
    let batch: Int, H: Int, W: Int, C: Int
    let heightScale: Float
    let xs: [(lo: Int, hi: Int, frac: Float)]

    /// - Parameter inputShape: `[N, H, W, C]`.
    public init(params: ResizeBilinearParams, inputShape: [Int]) {
        precondition(inputShape.count == 4, "RESIZE_BILINEAR needs NHWC")
        self.params = params; self.inputShape = inputShape
        batch = inputShape[0]; H = inputShape[1]; W = inputShape[2]; C = inputShape[3]
        heightScale = ReferenceKernels.resizeScale(input: H, output: params.height, alignCorners: params.alignCorners)
        let ws = ReferenceKernels.resizeScale(input: W, output: params.width, alignCorners: params.alignCorners)
        xs = (0..<params.width).map { ox in
            let (lo, hi, s) = ReferenceKernels.resizeSource(ox, scale: ws, halfPixel: params.halfPixelCenters, size: inputShape[2])
            return (lo, hi, s - Float(lo))
        }
    }

    public func partition(_ part: Int, of parts: Int) -> Range<Int> { simdPartition(workCount, part: part, of: parts) }

    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, output: output, rows: 0..<workCount)
    }

    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= workCount, "resize rows \(rows) outside 0..<\(workCount)")
        typealias V = ConvTiles.Vec
        let L = V.laneCount
        let OH = params.height, OW = params.width
        let C = self.C, W = self.W
        xs.withUnsafeBufferPointer { xs in
            for r in rows {
                let n = r / OH, oy = r - n * OH
                let image = input + n &* H &* W &* C
                let (y0, y1, inY) = ReferenceKernels.resizeSource(oy, scale: heightScale, halfPixel: params.halfPixelCenters, size: H)
                let dy = inY - Float(y0)
                let out = output + r &* OW &* C
                for ox in 0..<OW {
                    let (x0, x1, dx) = xs[ox]
                    let p00 = image + (y0 &* W &+ x0) &* C, p10 = image + (y1 &* W &+ x0) &* C
                    let p01 = image + (y0 &* W &+ x1) &* C, p11 = image + (y1 &* W &+ x1) &* C
                    // Same association as the reference: v·(1−dy)·(1−dx) + … left to right.
                    let wa = 1 - dy, wb = dy, wx0 = 1 - dx, wx1 = dx
                    let o = out + ox &* C
                    var c = 0
                    while c &+ L <= C {
                        let a = V.load(p00 + c).mul(V(splat: wa)).mul(V(splat: wx0))
                        let b = V.load(p10 + c).mul(V(splat: wb)).mul(V(splat: wx0))
                        let d = V.load(p01 + c).mul(V(splat: wa)).mul(V(splat: wx1))
                        let e = V.load(p11 + c).mul(V(splat: wb)).mul(V(splat: wx1))
                        a.add(b).add(d).add(e).store(o + c)
                        c &+= L
                    }
                    while c < C {
                        o[c] = p00[c] * wa * wx0 + p10[c] * wb * wx0 + p01[c] * wa * wx1 + p11[c] * wb * wx1
                        c &+= 1
                    }
                }
            }
        }
    }
}
