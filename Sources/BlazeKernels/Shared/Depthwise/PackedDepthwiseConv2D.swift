/// DEPTHWISE_CONV_2D with weights packed once at load and a fused epilogue (bias, activation,
/// optional residual ADD + its activation, optional per-channel PReLU).
///
/// **Work units** are output rows: `workCount == batch · outH`; unit `r` is output row
/// `r % outH` of image `r / outH`, all channels. Any split of `0..<workCount` into contiguous
/// ranges run on any threads gives the same bytes as one run.
///
/// **Memory**: the object owns its packed weights (copied at init; the caller's filter, bias and
/// alpha may be freed afterwards) and is immutable after init, hence `@unchecked Sendable`.
/// `run` allocates nothing. `input` is `[N,H,W,C]`, `output` (and `residual`) `[N,OH,OW,C]`.
/// `output` must not overlap `input`; `residual` may be identical to `output` or disjoint.
///
/// **Speed paths**: multiplier 1, dilation 1, square 3×3 or 5×5 kernels with stride 1 or 2 use
/// unrolled register tiles of T output pixels × B channel vectors (8×1, 4×2 or 2×4, chosen per
/// layer to fit the row width): each kernel row's input columns are loaded once into registers;
/// columns in the padding are zeros (padding handled inside the kernel, no padded copy). Channels
/// are covered exactly by 16-, 8-, 4-lane vectors then scalars (C = 24 → 16 + 8; C = 42 →
/// 16+16+8+1+1). 3×3 and 5×5 layers the level picks (`DWShapes.prefersPixelMajor`: enough
/// widest vectors; at avx512 also a streamed input and few border pixels) instead run the
/// widest blocks a few output pixels at a time over all of them (`DWPixelMajor`, forced with
/// `tilePixels: 1`), the narrower tail blocks in tiles as above. Other shapes use a general vectorised path (any kernel, stride, dilation); depth
/// multiplier > 1 a scalar path.
import BlazeEngineCore

final class PackedDepthwiseConv2D: DepthwiseKernel, @unchecked Sendable {
    package let params: DepthwiseConv2DParams
    package let geometry: ConvGeometry

    /// Number of independent work units (output rows over the batch).
    package var workCount: Int { geometry.batch * geometry.outH }
    /// Multiply-adds × 2 of one full run (for throughput reports and split decisions).
    package var flops: Int { 2 * geometry.batch * geometry.outH * geometry.outW * geometry.outC * geometry.kernelH * geometry.kernelW }

    /// `count` consecutive channel blocks of `lanes` channels from `channel`, processed together
    /// by tiles of `tilePixels` pixels × `count` vectors. Block `b` is packed at
    /// `offset + b·stride`: weights `[KH·KW][lanes]`, bias `[lanes]`, alpha `[lanes]`.
    struct Group {
        var channel: Int
        var lanes: Int
        var count: Int
        var tilePixels: Int
        var offset: Int
        var stride: Int
    }

    enum Path { case k3s1, k3s2, k5s1, k5s2, general, multiplier }

    let storage: AlignedFloatBuffer
    let groups: [Group]
    let path: Path
    let epilogue: FusedEpilogue
    /// Output columns whose taps are all inside the image: `interiorLo..<interiorHi`.
    let interiorLo: Int, interiorHi: Int
    /// Multiplier path only: bias and alpha per output channel.
    let multiplierBias: Int, multiplierAlpha: Int
    /// Offset of 16 zero floats in `storage` (the padding's columns, for the border tiles).
    let zerosOffset: Int
    /// Widest-lane blocks run by `DWPixelMajor` (packed from offset 0, `groups[0].stride` apart);
    /// 0 when the layer runs in tiles only.
    let pixelMajorBlocks: Int
    /// Output pixels per chunk of a row: every channel group runs one chunk before the next
    /// chunk starts, so the chunk's input columns (all channels, K rows) stay in L1 across the
    /// groups. A multiple of 8, so every tile width (8, 4, 2) covers all but the last chunk exactly.
    let chunkPixels: Int

    /// - Parameters:
    ///   - filter: `[1, KH, KW, C·M]` as in the model.
    ///   - bias: `[C·M]` or nil.
    ///   - prelu: per-output-channel PReLU alpha `[C·M]`, or nil (a PRELU op fused after this one).
    ///   - residualActivation: activation of a fused ADD (applied only when `run` gets a residual).
    ///   - tilePixels: force the pixels per tile of the widest blocks (one of
    ///     `depthwiseTilePixels`; 1: `DWPixelMajor`, on 3×3 and 5×5 kernels only; for benchmarks and tests).
    package init(
        params: DepthwiseConv2DParams, geometry g: ConvGeometry, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, prelu: UnsafePointer<Float>? = nil,
        residualActivation: Activation = .none, tilePixels: Int? = nil
    ) {
        precondition(g.outC == g.inC * params.depthMultiplier, "depthwise geometry does not match multiplier")
        self.params = params
        self.geometry = g
        epilogue = FusedEpilogue(activation: params.activation, residualActivation: residualActivation, hasPrelu: prelu != nil)
        let taps = g.kernelH * g.kernelW
        let O = g.outC

        if params.depthMultiplier != 1 {
            path = .multiplier
            storage = AlignedFloatBuffer(count: taps * O + 2 * O)
            let p = storage.pointer
            p.update(from: filter, count: taps * O)
            if let bias { (p + taps * O).update(from: bias, count: O) }
            if let prelu { (p + taps * O + O).update(from: prelu, count: O) }
            groups = []
            pixelMajorBlocks = 0
            multiplierBias = taps * O; multiplierAlpha = taps * O + O
            zerosOffset = 0
            chunkPixels = g.outW
            interiorLo = 0; interiorHi = 0
            return
        }
        multiplierBias = 0; multiplierAlpha = 0
        // ox is interior when ox·s − padLeft ≥ 0 and ox·s − padLeft + (KW−1)·d ≤ W − 1.
        let span = (g.kernelW - 1) * g.dilationW
        let lo = (g.padLeft + g.strideW - 1) / g.strideW
        let hiIncl = g.inW - 1 - span + g.padLeft
        let hi = hiIncl < 0 ? 0 : hiIncl / g.strideW + 1
        interiorLo = min(lo, g.outW)
        interiorHi = max(interiorLo, min(hi, g.outW))

        let square = g.kernelH == g.kernelW && g.strideH == g.strideW && g.dilationH == 1 && g.dilationW == 1
        switch (square, g.kernelH, g.strideH) {
        case (true, 3, 1): path = .k3s1
        case (true, 3, 2): path = .k3s2
        case (true, 5, 1): path = .k5s1
        case (true, 5, 2): path = .k5s2
        default: path = .general
        }
        // Tile shape of the widest blocks: the fewest computed pixels per row (partial last tiles
        // are shifted back and recompute pixels), preferring tiles of several channel vectors
        // (`vectorsFactor`).
        let wide = g.inC / DWShapes.laneWidths[0]
        let pixelMajorKernel = path == .k3s1 || path == .k3s2 || path == .k5s1 || path == .k5s2
        let borderPixels = g.outW - (interiorHi - interiorLo)
        let pixelMajor =
            pixelMajorKernel && wide > 0
            && (tilePixels == 1 || (tilePixels == nil && DWShapes.prefersPixelMajor(g, wideVectors: wide, borderPixels: borderPixels)))
        pixelMajorBlocks = pixelMajor ? wide : 0
        let tilePixels = tilePixels == 1 ? nil : tilePixels
        let streaming = Self.streamsInput(g)
        var tileWide = DWShapes.tilePixels[0]
        if path != .general {
            var bestCost = Double.infinity
            for t in DWShapes.tilePixels {
                let b = DWShapes.tileVectors(pixels: t, path: path)
                if b == 0 || b > max(wide, 1) { continue }
                let computed = ((g.outW + t - 1) / t) * t
                // Fewer accumulators than the level needs leave the add/FMA latency exposed (the baseline's 4×1).
                let needed = DWShapes.latencyAccumulators
                let latency = Double(needed) / Double(min(needed, t * b))
                let cost = Double(max(computed, t)) * Self.vectorsFactor(b, streaming: streaming) * latency
                if cost < bestCost { bestCost = cost; tileWide = t }
            }
        }
        if let tilePixels {
            precondition(DWShapes.tilePixels.contains(tilePixels), "tilePixels must be one of \(DWShapes.tilePixels)")
            tileWide = tilePixels
        }

        // Exact channel cover by the widest vectors first, grouped for the tiles.
        var list: [Group] = []
        var c = 0, offset = 0
        for lanes in DWShapes.laneWidths {
            let stride = ((taps + 2) * lanes + 15) & ~15  // 64-byte aligned blocks
            var n = (g.inC - c) / lanes
            while n > 0 {
                let wideLanes = lanes == DWShapes.laneWidths[0]
                var t = wideLanes ? tileWide : DWShapes.tilePixels[0]
                if DWShapes.tileVectors(pixels: t, path: path) == 0 { t = DWShapes.tilePixels[0] }  // no such tile here
                // Narrower lanes (channel tails) always run one vector per tile; the widest lanes'
                // last vectors, fewer than the chosen tile takes, the tile of the most vectors ≤ n.
                var pixels = DWShapes.tilePixels[0], count = 1
                let chosen = DWShapes.tileVectors(pixels: t, path: path)
                if wideLanes && chosen <= n {
                    pixels = t; count = chosen
                } else if wideLanes {
                    for cand in DWShapes.tilePixels {
                        let v = DWShapes.tileVectors(pixels: cand, path: path)
                        if v <= n && v > count { pixels = cand; count = v }
                    }
                }
                list.append(Group(channel: c, lanes: lanes, count: count, tilePixels: pixels, offset: offset, stride: stride))
                c += count * lanes
                offset += count * stride
                n -= count
            }
        }
        groups = list
        // Zeros after the weights: what border tiles read for input columns in the padding (one
        // vector of at most 16 floats; pixel-major rows skip the padding's columns instead).
        storage = AlignedFloatBuffer(count: offset + 16)
        zerosOffset = offset
        let p = storage.pointer
        for gr in list {
            for b in 0..<gr.count {
                let base = gr.offset + b * gr.stride, ch = gr.channel + b * gr.lanes
                for t in 0..<taps {
                    for l in 0..<gr.lanes { p[base + t * gr.lanes + l] = filter[t * O + ch + l] }
                }
                for l in 0..<gr.lanes {
                    p[base + taps * gr.lanes + l] = bias?[ch + l] ?? 0
                    p[base + (taps + 1) * gr.lanes + l] = prelu?[ch + l] ?? 0
                }
            }
        }

        chunkPixels = pixelMajor ? g.outW : Self.chunkPixels(geometry: g)
    }

    /// Whether the input is larger than the level's `DWShapes.streamedInputBytes`, so the layer
    /// streams it from L3 or memory.
    static func streamsInput(_ g: ConvGeometry) -> Bool { g.inH * g.inW * g.inC * 4 > DWShapes.streamedInputBytes }

    /// Relative cost per computed pixel of a tile of `b` channel vectors: 1 for one vector, the
    /// level's `DWShapes.twoVectorsFactor` for two and `fourVectorsFactor` for four.
    static func vectorsFactor(_ b: Int, streaming: Bool) -> Double {
        switch b {
        case 1: 1
        case 2: DWShapes.twoVectorsFactor
        default: streaming ? DWShapes.fourVectorsFactor.streamed : DWShapes.fourVectorsFactor.cached
        }
    }

    /// Whole rows for inputs that do not stream (`streamsInput`; in L2, each group's strided
    /// loads hit L2 whatever the order). Larger inputs stream from L3 or memory, and there the
    /// groups' loads of a chunk together cover every cache line of its columns, which the
    /// hardware prefetchers follow: the largest multiple of 8 output pixels whose input columns
    /// over all channels and kernel rows fit in 24 KB (half of a small L1), at least 8.
    static func chunkPixels(geometry g: ConvGeometry) -> Int {
        if !streamsInput(g) { return g.outW }
        let budget = 24 * 1024 / 4
        let perColumn = max(1, g.inC * g.kernelH)
        var chunk = 8
        while chunk < g.outW {
            let next = chunk + 8
            let columns = (next - 1) * g.strideW + (g.kernelW - 1) * g.dilationW + 1
            if columns * perColumn > budget { break }
            chunk = next
        }
        return chunk
    }

    /// Tile pixels used for the widest channel blocks (the level's vector width; 1: `DWPixelMajor`).
    package var tilePixels: Int { pixelMajorBlocks > 0 ? 1 : groups.first?.tilePixels ?? 1 }
    /// Computes output rows `rows` (a sub-range of `0..<workCount`).
    package func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        residual: UnsafePointer<Float>?, rows: Range<Int>
    ) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= workCount, "depthwise rows \(rows) outside 0..<\(workCount)")
        switch path {
        case .multiplier: runMultiplier(input, output, residual, rows)
        case .k3s1: runRows(DWRowK<3, 1>.self, input, output, residual, rows)
        case .k3s2: runRows(DWRowK<3, 2>.self, input, output, residual, rows)
        case .k5s1: runRows(DWRowK<5, 1>.self, input, output, residual, rows)
        case .k5s2: runRows(DWRowK<5, 2>.self, input, output, residual, rows)
        case .general: runRows(DWRowGeneral.self, input, output, residual, rows)
        }
    }

    // MARK: - Row driver

    @inline(__always)
    private func runRows<R: DWRowKernel>(
        _: R.Type, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ rows: Range<Int>
    ) {
        let g = geometry
        let C = g.inC
        let taps = g.kernelH * g.kernelW
        let base = UnsafePointer(storage.pointer)
        for r in rows {
            let n = r / g.outH, oy = r - n * g.outH
            let iy0 = oy &* g.strideH &- g.padTop
            // Valid ky: 0 ≤ iy0 + ky·d < H.
            var kyLo = 0
            while kyLo < g.kernelH && iy0 &+ kyLo &* g.dilationH < 0 { kyLo &+= 1 }
            var kyHi = g.kernelH
            while kyHi > kyLo && iy0 &+ (kyHi &- 1) &* g.dilationH >= g.inH { kyHi &-= 1 }
            let rowResidual: UnsafePointer<Float>? = if let residual { residual + r &* g.outW &* C } else { nil }
            var job = DWRowJob(
                image: input + n &* g.inH &* g.inW &* C,
                out: output + r &* g.outW &* C,
                residual: rowResidual,
                weights: base, bias: base, alpha: base, blockStride: 0,
                iy0: iy0, kyLo: kyLo, kyHi: kyHi,
                W: g.inW, C: C, OW: g.outW, KW: g.kernelW, KH: g.kernelH,
                strideW: g.strideW, dilationH: g.dilationH, dilationW: g.dilationW, padLeft: g.padLeft,
                interiorLo: interiorLo, interiorHi: interiorHi, zeros: base + zerosOffset, epilogue: epilogue,
                pixelLo: 0, pixelHi: 0)
            if pixelMajorBlocks > 0 {
                job.pixelLo = 0
                job.pixelHi = g.outW
                job.blockStride = groups[0].stride
                DWShapes.pixelMajorRow(job, blocks: pixelMajorBlocks, kernel: g.kernelW, stride: g.strideW)
            }
            var px = 0
            while px < g.outW {
                job.pixelLo = px
                job.pixelHi = min(g.outW, px &+ chunkPixels)
                for gr in groups where pixelMajorBlocks == 0 || gr.lanes != DWShapes.laneWidths[0] {
                    job.weights = base + gr.offset
                    job.bias = base + (gr.offset &+ taps &* gr.lanes)
                    job.alpha = base + (gr.offset &+ (taps &+ 1) &* gr.lanes)
                    job.blockStride = gr.stride
                    R.run(job, group: gr)
                }
                px = job.pixelHi
            }
        }
    }

    private func runMultiplier(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ rows: Range<Int>
    ) {
        let g = geometry
        let C = g.inC, O = g.outC, M = params.depthMultiplier
        let w = UnsafePointer(storage.pointer)
        let bias = w + multiplierBias, alpha = w + multiplierAlpha
        let e = epilogue
        for r in rows {
            let n = r / g.outH, oy = r - n * g.outH
            let image = input + n &* g.inH &* g.inW &* C
            let iy0 = oy &* g.strideH &- g.padTop
            for ox in 0..<g.outW {
                let ix0 = ox &* g.strideW &- g.padLeft
                let o = (r &* g.outW &+ ox) &* O
                for oc in 0..<O {
                    let c = oc / M
                    var total: Float = 0
                    for ky in 0..<g.kernelH {
                        let iy = iy0 &+ ky &* g.dilationH
                        if iy < 0 || iy >= g.inH { continue }
                        for kx in 0..<g.kernelW {
                            let ix = ix0 &+ kx &* g.dilationW
                            if ix < 0 || ix >= g.inW { continue }
                            total += image[(iy &* g.inW &+ ix) &* C &+ c] * w[(ky &* g.kernelW &+ kx) &* O &+ oc]
                        }
                    }
                    let res: Float? = if let residual { residual[o &+ oc] } else { nil }
                    output[o &+ oc] = e.apply(total, bias: bias[oc], residual: res, alpha: alpha[oc])
                }
            }
        }
    }
}

/// Everything one output row of one channel group needs. `image`, `out`, `residual` are at
/// channel 0; `weights`/`bias`/`alpha` at the group's first block, blocks `blockStride` apart.
struct DWRowJob {
    var image: UnsafePointer<Float>
    var out: UnsafeMutablePointer<Float>
    var residual: UnsafePointer<Float>?
    var weights: UnsafePointer<Float>
    var bias: UnsafePointer<Float>
    var alpha: UnsafePointer<Float>
    var blockStride: Int
    var iy0: Int, kyLo: Int, kyHi: Int
    var W: Int, C: Int, OW: Int, KW: Int, KH: Int
    var strideW: Int, dilationH: Int, dilationW: Int, padLeft: Int
    var interiorLo: Int, interiorHi: Int
    /// At least 16 zero floats.
    var zeros: UnsafePointer<Float>
    var epilogue: FusedEpilogue
    /// The output pixels to compute: `pixelLo..<pixelHi` of the row.
    var pixelLo: Int, pixelHi: Int
}

protocol DWRowKernel {
    static func run(_ job: DWRowJob, group: PackedDepthwiseConv2D.Group)
}

/// T output pixels × B channel vectors (blocks `blockStride` apart in the packed weights, `L`
/// channels apart in the tensors).
enum DWTiles<V: KernelVector, let K: Int, let S: Int, let T: Int, let B: Int> {
    /// Input columns one tile reads per kernel row.
    static var span: Int { (T &- 1) &* S &+ K }

    /// Pixels `pixelLo..<pixelHi` of one output row of one channel group: the out-of-line unit,
    /// so the row's job is passed once (not copied for every tile) and the tiles are inlined
    /// into one loop.
    @inline(never)
    static func row(_ j: DWRowJob, channel: Int) {
        let hi = j.pixelHi
        var ox0 = j.pixelLo
        while ox0 < hi {
            var start = ox0, storeFrom = 0
            if ox0 &+ T > hi && hi >= T {  // last partial tile: shift back, store only the new pixels
                start = hi &- T
                storeFrom = ox0 &- start
            }
            if start >= j.interiorLo && start &+ T <= j.interiorHi {
                interiorTile(j, channel: channel, ox0: start, storeFrom: storeFrom)
            } else {
                borderTile(j, channel: channel, ox0: start, storeFrom: storeFrom, storeTo: hi &- start < T ? hi &- start : T)
            }
            ox0 = start &+ T
        }
    }

    @_transparent
    static func interiorTile(_ j: DWRowJob, channel: Int, ox0: Int, storeFrom: Int) {
        tile(j, channel: channel, ox0: ox0, storeFrom: storeFrom, storeTo: T, checked: false)
    }

    @_transparent
    static func borderTile(_ j: DWRowJob, channel: Int, ox0: Int, storeFrom: Int, storeTo: Int) {
        tile(j, channel: channel, ox0: ox0, storeFrom: storeFrom, storeTo: storeTo, checked: true)
    }

    /// Output pixels `ox0 + t`, `t < T`; stores `storeFrom..<storeTo`. `checked`: input columns
    /// outside the row are zeros (padding); pixels past the row end are computed but not stored.
    @_transparent
    static func tile(_ j: DWRowJob, channel: Int, ox0: Int, storeFrom: Int, storeTo: Int, checked: Bool) {
        let L = V.laneCount
        let C = j.C, W = j.W
        let rowStride = W &* C
        let ix0 = ox0 &* S &- j.padLeft
        // Comparisons rather than `max`/`min` here and in `row`: their `Int` specialisations were
        // left in every level module as the same weak stdlib symbols (check_isa_isolation.sh).
        let qLo = checked && ix0 < 0 ? -ix0 : 0
        let qHi = checked && W &- ix0 < span ? W &- ix0 : span
        // One accumulator array per channel vector; the B loop is unrolled by hand (LLVM kept a
        // `for b in 0..<B` loop rolled, with the accumulators in memory).
        var acc0 = InlineArray<T, V> { _ in V.zero }, acc1 = acc0, acc2 = acc0, acc3 = acc0
        var rp = j.image + ((j.iy0 &+ j.kyLo) &* rowStride &+ ix0 &* C &+ channel)
        var wp = j.weights + j.kyLo &* K &* L
        let bs = j.blockStride
        for _ in j.kyLo..<j.kyHi {
            kernelRow(&acc0, rp, wp, C: C, qLo: qLo, qHi: qHi, zeros: j.zeros, checked: checked)
            if B > 1 { kernelRow(&acc1, rp + L, wp + bs, C: C, qLo: qLo, qHi: qHi, zeros: j.zeros, checked: checked) }
            if B > 2 { kernelRow(&acc2, rp + 2 &* L, wp + 2 &* bs, C: C, qLo: qLo, qHi: qHi, zeros: j.zeros, checked: checked) }
            if B > 3 { kernelRow(&acc3, rp + 3 &* L, wp + 3 &* bs, C: C, qLo: qLo, qHi: qHi, zeros: j.zeros, checked: checked) }
            rp += rowStride
            wp += K &* L
        }
        store(acc0, j, block: 0, channel: channel, ox0: ox0, storeFrom: storeFrom, storeTo: storeTo)
        if B > 1 { store(acc1, j, block: 1, channel: channel, ox0: ox0, storeFrom: storeFrom, storeTo: storeTo) }
        if B > 2 { store(acc2, j, block: 2, channel: channel, ox0: ox0, storeFrom: storeFrom, storeTo: storeTo) }
        if B > 3 { store(acc3, j, block: 3, channel: channel, ox0: ox0, storeFrom: storeFrom, storeTo: storeTo) }
    }

    /// One kernel row of one channel vector: load the `span` input columns once (zeros outside
    /// `qLo..<qHi` when checked), then K·T FMAs. Interior tiles of levels with few registers
    /// (`DWShapes.columnsInRegisters == false`) instead read each column in its FMA (a memory
    /// operand): T·K loads, but only the accumulators and one weight vector live in registers.
    @_transparent
    static func kernelRow(
        _ acc: inout InlineArray<T, V>, _ cp: UnsafePointer<Float>, _ wb: UnsafePointer<Float>,
        C: Int, qLo: Int, qHi: Int, zeros: UnsafePointer<Float>, checked: Bool
    ) {
        let L = V.laneCount
        if !checked && !DWShapes.columnsInRegisters {
            for kx in 0..<K {
                let wv = V.load(wb + kx &* L)
                for t in 0..<T { acc[t] = acc[t].madd(V.load(cp + (t &* S &+ kx) &* C), wv) }
            }
            return
        }
        var cols = InlineArray<20, V> { _ in V.zero }
        for q in 0..<span {
            if checked {
                // Columns in the padding read zeros: a pointer select, no branch, no blend.
                cols[q] = V.load(q >= qLo && q < qHi ? cp + q &* C : zeros)
            } else {
                cols[q] = V.load(cp + q &* C)
            }
        }
        for kx in 0..<K {
            let wv = V.load(wb + kx &* L)
            for t in 0..<T { acc[t] = acc[t].madd(cols[t &* S &+ kx], wv) }
        }
    }

    /// Epilogue and stores of one channel vector. Unrolled by hand with constant indices (a
    /// `for t in 0..<T` loop stayed rolled, which kept the accumulators in stack memory: zeroed
    /// with 32-byte stores and reloaded as 64-byte vectors, a store-forwarding stall per tile).
    @_transparent
    static func store(_ acc: InlineArray<T, V>, _ j: DWRowJob, block b: Int, channel: Int, ox0: Int, storeFrom: Int, storeTo: Int) {
        precondition(T <= 8, "depthwise tiles have at most 8 pixels")
        let L = V.laneCount
        let bias = V.load(j.bias + b &* j.blockStride), alpha = V.load(j.alpha + b &* j.blockStride)
        let out = j.out + (channel &+ b &* L &+ ox0 &* j.C)
        let res: UnsafePointer<Float>? = if let r = j.residual { r + (channel &+ b &* L &+ ox0 &* j.C) } else { nil }
        let p = PixelStore(out: out, residual: res, C: j.C, from: storeFrom, to: storeTo, bias: bias, alpha: alpha, epilogue: j.epilogue)
        if T > 0 { p.store(acc[0], 0) }
        if T > 1 { p.store(acc[1], 1) }
        if T > 2 { p.store(acc[2], 2) }
        if T > 3 { p.store(acc[3], 3) }
        if T > 4 { p.store(acc[4], 4) }
        if T > 5 { p.store(acc[5], 5) }
        if T > 6 { p.store(acc[6], 6) }
        if T > 7 { p.store(acc[7], 7) }
    }

    /// Where and how one tile's pixels are stored.
    struct PixelStore {
        let out: UnsafeMutablePointer<Float>
        let residual: UnsafePointer<Float>?
        let C: Int, from: Int, to: Int
        let bias: V, alpha: V
        let epilogue: FusedEpilogue

        @_transparent
        func store(_ acc: V, _ t: Int) {
            guard t >= from && t < to else { return }
            let o = t &* C
            let r: UnsafePointer<Float>? = if let residual { residual + o } else { nil }
            epilogue.apply(acc, bias: bias, residualAt: r, alpha: alpha).store(out + o)
        }
    }
}

/// Any kernel size, stride and dilation: one output pixel at a time, valid taps only.
enum DWRowGeneral: DWRowKernel {
    @inline(__always)
    static func run(_ j: DWRowJob, group g: PackedDepthwiseConv2D.Group) {
        for b in 0..<g.count {
            var jb = j
            jb.weights = j.weights + b &* j.blockStride
            jb.bias = j.bias + b &* j.blockStride
            jb.alpha = j.alpha + b &* j.blockStride
            let channel = g.channel &+ b &* g.lanes
            DWShapes.generalPixels(lanes: g.lanes, jb, channel: channel)
        }
    }

    @inline(never)
    static func pixels<V: KernelVector>(_: V.Type, _ j: DWRowJob, channel: Int) {
        let L = V.laneCount
        let C = j.C, W = j.W, KW = j.KW
        let rowStride = W &* C
        let bias = V.load(j.bias), alpha = V.load(j.alpha)
        let e = j.epilogue
        for ox in j.pixelLo..<j.pixelHi {
            let ix0 = ox &* j.strideW &- j.padLeft
            var acc0 = V.zero, acc1 = V.zero
            var ky = j.kyLo
            while ky < j.kyHi {
                let rp = j.image + ((j.iy0 &+ ky &* j.dilationH) &* rowStride &+ channel)
                let wp = j.weights + ky &* KW &* L
                var kx = 0
                while kx < KW {
                    let ix = ix0 &+ kx &* j.dilationW
                    if ix >= 0 && ix < W {
                        if kx & 1 == 0 {
                            acc0 = acc0.madd(V.load(rp + ix &* C), V.load(wp + kx &* L))
                        } else {
                            acc1 = acc1.madd(V.load(rp + ix &* C), V.load(wp + kx &* L))
                        }
                    }
                    kx &+= 1
                }
                ky &+= 1
            }
            let o = ox &* C &+ channel
            let res: UnsafePointer<Float>? = if let r = j.residual { r + o } else { nil }
            e.apply(acc0.add(acc1), bias: bias, residualAt: res, alpha: alpha).store(j.out + o)
        }
    }
}
