import BlazeEngineCore

/// MAX_POOL_2D / AVERAGE_POOL_2D (any window, stride, padding — TFLite semantics: the window is
/// clipped to the image), vectorised over channels, with fused activation. Work units are output
/// rows (`workCount = batch · outH`). No packing; a value type, freely shareable.
struct Pool2DKernel: RowKernel {
    package let params: Pool2DParams
    package let geometry: ConvGeometry
    package let isAverage: Bool
    package var workCount: Int { geometry.batch * geometry.outH }

    package init(params: Pool2DParams, geometry: ConvGeometry, average: Bool = false) {
        self.params = params; self.geometry = geometry; self.isAverage = average
    }

    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= workCount, "pool rows \(rows) outside 0..<\(workCount)")
        typealias V = ConvTiles.Vec
        if isAverage { runRows(input, output, rows, V.self, average: true) } else { runRows(input, output, rows, V.self, average: false) }
    }

    @inline(__always)
    private func runRows<V: KernelVector>(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ rows: Range<Int>, _: V.Type, average: Bool
    ) {
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
                    // Whole window inside (almost every pixel).
                    let first = image + (iy0 &* W &+ ix0) &* C, out = output + (r &* g.outW &+ ox) &* C
                    switch (g.kernelH, g.kernelW) {
                    case (2, 2): MaxPoolWindow<V, 2, 2>.pixel(first, out, C: C, rowStride: W &* C, act, kh: 2, kw: 2)
                    case (3, 3): MaxPoolWindow<V, 3, 3>.pixel(first, out, C: C, rowStride: W &* C, act, kh: 3, kw: 3)
                    default: MaxPoolWindow<V, 0, 0>.pixel(first, out, C: C, rowStride: W &* C, act, kh: g.kernelH, kw: g.kernelW)
                    }
                    continue
                }
                let window = PoolWindow(
                    first: image + ((iy0 &+ yStart) &* W &+ ix0 &+ xStart) &* C,
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

/// One output pixel of a max pooling whose KH×KW window lies inside the image (KH = KW = 0: the
/// window is `kh`×`kw`, known at run time only; constant sizes unroll the window, whose loop control cost
/// more than its loads on 2×2 windows of 16 channels). Channels in the widest vectors; a channel
/// tail is one more vector ending at C, overlapping the previous one (max pooling is per
/// channel, so the overlap is written twice with the same values).
private enum MaxPoolWindow<V: KernelVector, let KH: Int, let KW: Int> {
    @inline(__always)
    static func pixel(
        _ first: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, C: Int, rowStride: Int,
        _ act: ActivationBounds, kh: Int, kw: Int
    ) {
        let L = V.laneCount
        let kh = KH > 0 ? KH : kh, kw = KW > 0 ? KW : kw
        var c = 0
        while c < C {
            let cc = min(c, C &- L)
            var acc = V.load(first + cc)
            var rowp = first + cc
            for y in 0..<kh {
                for x in 0..<kw where y > 0 || x > 0 { acc = acc.maxPool(V.load(rowp + x &* C)) }
                rowp += rowStride
            }
            act.apply(acc).store(out + cc)
            c = cc &+ L
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
