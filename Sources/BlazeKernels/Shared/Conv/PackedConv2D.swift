import BlazeEngineCore
import COpenBLAS

/// CONV_2D (any kernel, stride, dilation, padding) and FULLY_CONNECTED with weights packed once
/// at load and a fused epilogue (bias, activation, optional residual ADD + its activation, optional
/// per-channel PReLU).
///
/// **Paths** (`kind`), chosen at init:
/// - `.pointwise`: 1×1, stride 1, no padding (and FULLY_CONNECTED): the batch·H·W pixels are one
///   `[P, C]` matrix; register tiles of MR pixels × NV·16 channels.
/// - `.direct`: any other conv, computed straight from the NHWC input (no im2col pass): a tile of
///   MR output pixels of one row walks the KH rows of its receptive field; border pixels (some
///   taps in the padding) are computed one by one over their valid taps.
/// - `.dotPointwise`: pointwise with O ≤ 6 outputs (detector heads): dot products over C.
/// - `.blasPointwise`: pointwise through OpenBLAS `sgemm` + a vectorised epilogue pass; chosen where
///   the level's cost model says OpenBLAS wins (`ConvTiles.pointwiseUsesBLAS`). Configures OpenBLAS (`OpenBLAS.ensureConfigured()`) at init.
/// The tile shape (MR, NV) is picked per layer at init from a cost model (`tileRows`, `tileVectors`).
///
/// **Work units** (`workCount`): pointwise: blocks of `pixelsPerUnit` pixels; direct: output rows
/// over the batch. When that gives fewer than 8 units (small spatial sizes), each is further split
/// into `channelGroups` groups of output-channel blocks: unit `u` is pixel unit/row `u / groups`,
/// channel group `u % groups`. Contiguous ranges may run on different threads concurrently.
///
/// **Memory**: owns its packed copy of filter, bias and alpha (the caller's buffers may be freed
/// after init); immutable after init, hence `@unchecked Sendable`; `run` allocates nothing.
/// `input` `[N,H,W,C]` (FC: `[rows, I]`), `output` `[N,OH,OW,O]`; `residual` has the output's
/// pixels with `residualChannels` channels each (default O: same layout as the output; fewer
/// models an ADD of a channel-padded tensor — channels past it get no residual but still the
/// residual activation). `output` must not overlap `input`; `residual` may be identical to
/// `output` (only when `residualChannels == O`) or disjoint.
final class PackedConv2D: ConvKernel, @unchecked Sendable {
    typealias Kind = ConvKernelPath
    typealias Backend = ConvBackend

    package let geometry: ConvGeometry
    package let kind: Kind
    /// Output pixels per tile, channel vectors per block and floats per vector of the SIMD tiles.
    package let tileRows: Int, tileVectors: Int, tileLanes: Int
    /// Pointwise: pixels per work unit.
    package let pixelsPerUnit: Int
    /// Output-channel groups per pixel unit / row (1 unless the spatial size is small).
    package let channelGroups: Int
    package let residualChannels: Int
    /// Pointwise only: the input is stored channel-major, `[C, P]` (a folded TRANSPOSE), pixel
    /// `p` channel `c` at `c·P + p`, instead of NHWC.
    package let channelMajorInput: Bool

    package var workCount: Int { spatialUnits * channelGroups }
    package var flops: Int {
        2 * geometry.batch * geometry.outH * geometry.outW * geometry.outC * geometry.kernelH * geometry.kernelW * geometry.inC
    }

    struct Block {
        var channel: Int  // first output channel (multiple of the lane count)
        var nv: Int  // vectors
        var offset: Int  // packed weights [K][nv·lanes]
    }

    let storage: AlignedFloatBuffer
    let blocks: [Block]
    let spatialUnits: Int
    let epilogue: FusedEpilogue
    let biasOffset: Int, alphaOffset: Int
    /// The epilogue's clamp bounds (activation lo, hi, residual activation lo, hi) in the storage.
    let boundsOffset: Int
    /// Pointwise: the last `dotTail` output channels are dot products (`DotTile`), packed at
    /// `dotOffset`; the blocks cover the others.
    let dotTail: Int, dotOffset: Int
    /// K = KH·KW·C.
    let depth: Int

    /// - Parameters:
    ///   - filter: OHWI `[O, KH, KW, C]` as in the model.
    ///   - bias: `[O]` or nil.
    ///   - prelu: per-output-channel PReLU alpha `[O]`, or nil (a PRELU op fused after this one).
    ///   - residualActivation: activation of a fused ADD (applied only when `run` gets a residual).
    ///   - residualChannels: channels per pixel of the residual tensor (default `O`).
    ///   - tile: force a tile shape (MR pixels, NV vectors) instead of the cost model's choice —
    ///     for benchmarks; must be an instantiated shape (`availableTiles`).
    ///   - channelMajorInput: the input is `[C, P]` (pointwise only; always the SIMD tiles).
    package init(
        params: Conv2DParams, geometry g: ConvGeometry, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, prelu: UnsafePointer<Float>? = nil,
        residualActivation: Activation = .none, residualChannels: Int? = nil,
        backend: Backend = .automatic, tile: ConvTileShape? = nil, channelMajorInput: Bool = false
    ) {
        let pointwise =
            g.kernelH == 1 && g.kernelW == 1 && g.strideH == 1 && g.strideW == 1
            && g.padTop == 0 && g.padLeft == 0 && g.outH == g.inH && g.outW == g.inW
        precondition(!channelMajorInput || pointwise, "a channel-major input needs a pointwise conv")
        self.channelMajorInput = channelMajorInput
        let useBLAS: Bool
        switch backend {
        case _ where channelMajorInput: useBLAS = false
        case .automatic: useBLAS = pointwise && ConvTiles.pointwiseUsesBLAS(g)
        case .simd: useBLAS = false
        case .blas: useBLAS = pointwise
        }
        self.geometry = g
        self.residualChannels = residualChannels ?? g.outC
        precondition(self.residualChannels >= 0 && self.residualChannels <= g.outC, "residualChannels must be in 0...O")
        epilogue = FusedEpilogue(activation: params.activation, residualActivation: residualActivation, hasPrelu: prelu != nil)
        let O = g.outC
        let K = g.kernelH * g.kernelW * g.inC
        depth = K

        // Spatial extent the tiles run along, for the tile choice.
        let P = g.batch * g.outH * g.outW
        let rowPixels: Int
        // Few outputs: dot products over C beat channel-vector tiles that would waste most lanes
        // (docs/tuning.md, "Dot products for few outputs").
        let useDot = pointwise && !useBLAS && !channelMajorInput && ConvTiles.lanes > 1 && (O <= 2 || (O <= 6 && g.inC >= 192))
        if pointwise {
            kind = useBLAS ? .blasPointwise : (useDot ? .dotPointwise : .pointwise)
            rowPixels = P
        } else {
            kind = .direct
            rowPixels = PackedConv2D.interiorRange(g).count
        }

        // Tile choice: minimise estimated cycles over the instantiated shapes of every lane width
        // (costs in narrow vector operations). A narrower width must win by 15 %: it needs twice
        // the broadcasts per FMA, which the model does not count (docs/tuning.md, "8-lane tiles
        // at `avx512`").
        var best = (mr: 1, nv: 1, lanes: ConvTiles.lanes, cost: Double.infinity)
        for (lanes, shapes, scale) in [
            (ConvTiles.lanes, ConvTiles.shapes, ConvTiles.wideVectorCost), (ConvTiles.narrowLanes, ConvTiles.narrowShapes, 1.15)
        ] {
            if let (mr, nv, cost) = PackedConv2D.cheapestTile(shapes, nvec: (O + lanes - 1) / lanes, K: K, rowPixels: rowPixels),
                cost * scale < best.cost
            {
                best = (mr, nv, lanes, cost * scale)
            }
        }
        if let tile {
            let lanes = tile.lanes ?? ConvTiles.lanes
            precondition(
                tile.maxVectors >= 1 && tile.maxVectors <= ConvTiles.maxNV(mr: tile.rows, lanes: lanes), "tile \(tile) is not instantiated")
            best = (tile.rows, tile.maxVectors, lanes, 0)
        }
        let L = useBLAS || useDot ? ConvTiles.lanes : best.lanes
        let nvec = (O + L - 1) / L
        // A last vector with few real channels (O = 97: 1 of 16) costs a whole vector of FMAs per
        // pixel; dot products over K give those channels for K/L FMAs each.
        let tail = O % L
        dotTail =
            pointwise && !useBLAS && !useDot && !channelMajorInput && O > L && tail >= 1 && tail <= max(1, L / 4)
                && K >= 4 * ConvTiles.lanes && tile == nil ? tail : 0
        let tileVectorCount = (O - dotTail + L - 1) / L
        if dotTail > 0,
            let (mr, nv, _) = PackedConv2D.cheapestTile(
                L == ConvTiles.lanes ? ConvTiles.shapes : ConvTiles.narrowShapes, nvec: tileVectorCount, K: K, rowPixels: rowPixels)
        {
            best.mr = mr; best.nv = nv
        }
        tileRows = useBLAS ? 1 : best.mr
        tileVectors = useBLAS ? nvec : best.nv
        tileLanes = L

        // Blocks and packing. BLAS keeps the filter as is ([O, K] row-major, one "block").
        var list: [Block] = []
        var offset = 0
        // Dot-product rows (the dot path and the dot tail): K zero-padded to whole wide vectors.
        let dotDepth = Self.dotRowLength(K)
        if useBLAS {
            list.append(Block(channel: 0, nv: nvec, offset: 0))
            offset = (O * K + 15) & ~15
        } else if useDot {
            list.append(Block(channel: 0, nv: nvec, offset: 0))
            offset = (O * dotDepth + 15) & ~15
        } else {
            var v = 0
            while v < tileVectorCount {
                let nv = min(tileVectors, tileVectorCount - v)
                list.append(Block(channel: v * L, nv: nv, offset: offset))
                offset += K * nv * L
                offset = (offset + 15) & ~15
                v += nv
            }
        }
        blocks = list
        // Dot tail: `[dotTail][dotDepth]` rows of zero-padded weights.
        dotOffset = offset
        offset += (dotTail * dotDepth + 15) & ~15
        biasOffset = offset
        alphaOffset = offset + nvec * L
        boundsOffset = alphaOffset + nvec * L
        storage = AlignedFloatBuffer(count: boundsOffset + 4)
        let p = storage.pointer
        if useBLAS {
            p.update(from: filter, count: O * K)
        } else if useDot {
            for o in 0..<O { (p + o * dotDepth).update(from: filter + o * K, count: K) }
        } else {
            for b in list {
                let width = b.nv * L
                let dst = p + b.offset
                for k in 0..<K {
                    for l in 0..<width where b.channel + l < O {
                        dst[k * width + l] = filter[(b.channel + l) * K + k]
                    }
                }
            }
        }
        for t in 0..<dotTail {
            (p + dotOffset + t * dotDepth).update(from: filter + (O - dotTail + t) * K, count: K)
        }
        for o in 0..<O {
            p[biasOffset + o] = bias?[o] ?? 0
            p[alphaOffset + o] = prelu?[o] ?? 0
        }
        p[boundsOffset] = epilogue.activation.lo ?? -.infinity
        p[boundsOffset + 1] = epilogue.activation.hi ?? .infinity
        p[boundsOffset + 2] = epilogue.residualActivation.lo ?? -.infinity
        p[boundsOffset + 3] = epilogue.residualActivation.hi ?? .infinity

        // Work units.
        if pointwise {
            // Units of 8 tiles, up to 32 while at least 32 units remain: each unit pays the strip
            // setup once, which small-K layers feel, and fewer units load two threads unevenly
            // (docs/tuning.md, "Pointwise work units").
            let tilesPerUnit = 8 * min(4, max(1, P / (tileRows * 8 * 32)))
            pixelsPerUnit = useBLAS ? 128 : (useDot ? 64 : tileRows * tilesPerUnit)
            spatialUnits = (P + pixelsPerUnit - 1) / pixelsPerUnit
        } else {
            pixelsPerUnit = g.outW
            spatialUnits = g.batch * g.outH
        }
        channelGroups = (useBLAS || useDot || spatialUnits >= 8) ? 1 : min(list.count, (8 + spatialUnits - 1) / spatialUnits)
        if useBLAS { OpenBLAS.ensureConfigured() }
    }

    /// FULLY_CONNECTED as a pointwise conv over `rows` input rows of `weights.shape[1]` floats.
    /// - Parameters: weights `[O, I]`, bias `[O]` or nil; the input holds `rows · I` floats.
    package convenience init(
        fullyConnected p: FullyConnectedParams, rows: Int, inputSize I: Int, outputSize O: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        prelu: UnsafePointer<Float>? = nil, backend: Backend = .automatic
    ) {
        let g = ConvGeometry(
            batch: 1, inH: rows, inW: 1, inC: I, outH: rows, outW: 1, outC: O,
            kernelH: 1, kernelW: 1, strideH: 1, strideW: 1, dilationH: 1, dilationW: 1,
            padTop: 0, padLeft: 0)
        self.init(
            params: Conv2DParams(padding: .valid, activation: p.activation), geometry: g, filter: weights,
            bias: bias, prelu: prelu, backend: backend)
    }

    /// The (MR, NV) of `shapes` with the fewest estimated cycles for `nvec` channel vectors over
    /// `rowPixels` pixels of depth `K`, and that cost (nil: no shape fits).
    static func cheapestTile(_ shapes: [TileShape], nvec: Int, K: Int, rowPixels: Int) -> (mr: Int, nv: Int, cost: Double)? {
        var best: (mr: Int, nv: Int, cost: Double)? = nil
        for s in shapes {
            let mr = s.mr
            if mr > max(1, rowPixels) { continue }
            for nvMain in 1...s.maxNV where nvMain <= nvec || nvMain == 1 {
                var cost = 0.0
                var v = 0
                while v < nvec {
                    let nv = min(nvMain, nvec - v)
                    let tiles = Double((max(rowPixels, 1) + mr - 1) / mr)
                    cost += tiles * (Double(K) * ConvTiles.stepCost(mr: mr, nv: nv) + ConvTiles.tileOverhead(mr: mr, nv: nv))
                    v += nv
                }
                if cost < (best?.cost ?? .infinity) * 0.999 { best = (mr, nvMain, cost) }
            }
        }
        return best
    }

    /// Floats per packed dot-product weight row: `K` zero-padded to whole `ConvTiles.Vec`s.
    static func dotRowLength(_ K: Int) -> Int { ((K + ConvTiles.lanes - 1) / ConvTiles.lanes) * ConvTiles.lanes }

    /// Output columns whose taps are all inside the image.
    static func interiorRange(_ g: ConvGeometry) -> Range<Int> {
        let span = (g.kernelW - 1) * g.dilationW
        let lo = min((g.padLeft + g.strideW - 1) / g.strideW, g.outW)
        let hiIncl = g.inW - 1 - span + g.padLeft
        let hi = hiIncl < 0 ? 0 : min(hiIncl / g.strideW + 1, g.outW)
        return lo..<max(lo, hi)
    }

    /// Computes work units `work` (a sub-range of `0..<workCount`).
    package func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        residual: UnsafePointer<Float>?, work: Range<Int>
    ) {
        precondition(work.lowerBound >= 0 && work.upperBound <= workCount, "conv work \(work) outside 0..<\(workCount)")
        precondition(
            residual.map { UnsafeRawPointer($0) != UnsafeRawPointer(output) || residualChannels == geometry.outC } ?? true,
            "an in-place residual must have the output's layout")
        if work.isEmpty { return }
        switch kind {
        case .pointwise: runPointwise(input, output, residual, work)
        case .dotPointwise: runDot(input, output, residual, work)
        case .direct: runDirect(input, output, residual, work)
        case .blasPointwise: runBLAS(input, output, residual, work)
        }
    }

    // MARK: - Paths

    @inline(__always)
    private func blockRange(group: Int) -> Range<Int> {
        let n = blocks.count
        return (n * group / channelGroups)..<(n * (group + 1) / channelGroups)
    }

    @inline(__always)
    private func baseJob(output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?) -> ConvTileJob {
        let base = UnsafePointer(storage.pointer)
        return ConvTileJob(
            a: base, lda: 0, count1: 1, strideA1: 0, strideW1: 0, count2: 1, strideA2: 0, strideW2: 0,
            length: 0, w: base, out: output, ldo: geometry.outC, outLanes: 0,
            residual: residual, ldr: residualChannels, resLanes: 0,
            bias: base, alpha: base, storeFrom: 0, storeTo: 0,
            mode: epilogue.tileMode(residual: residual != nil), bounds: base + boundsOffset)
    }

    @inline(__always)
    private func setBlock(_ j: inout ConvTileJob, _ b: Block) {
        let base = UnsafePointer(storage.pointer)
        j.outLanes = min(b.nv * tileLanes, geometry.outC - b.channel)
        j.resLanes = max(0, min(b.nv * tileLanes, residualChannels - b.channel))
        j.spill =
            b.channel == 0 && b.nv * tileLanes >= geometry.outC && 2 * geometry.outC >= b.nv * tileLanes
            && residualChannels == geometry.outC
        j.bias = base + biasOffset + b.channel
        j.alpha = base + alphaOffset + b.channel
    }

    /// Whether every lane of block `b`'s vectors is a real output (and residual) channel (`setBlock` first).
    @inline(__always)
    private func isWhole(_ j: ConvTileJob, _ b: Block) -> Bool {
        let width = b.nv * tileLanes
        return j.outLanes == width && (j.residual == nil || j.resLanes == width)
    }

    /// How many of a row's `whole` tiles block `b` runs as a strip (`setBlock` first): all when its
    /// vectors are whole. A partial last vector is read and written whole, reaching into the next
    /// pixel (`ConvTileJob.tailLanes`): that needs one channel group (the next pixel's other
    /// channels are this thread's), a reach of at most one pixel, every other vector whole, and
    /// a pixel after the strip — so its last tile runs on its own.
    @inline(__always)
    private func stripTiles(_ j: ConvTileJob, _ b: Block, whole: Int) -> Int {
        if isWhole(j, b) { return whole }
        let end = b.channel + b.nv * tileLanes
        let reach = channelGroups == 1 && end <= 2 * geometry.outC && (j.residual == nil || end <= 2 * residualChannels)
        let inner = (b.nv - 1) * tileLanes
        return reach && (j.residual == nil || j.resLanes >= inner) ? max(0, whole - 1) : 0
    }

    /// The strip-tail fields of `j` (`ConvTileJob.tailLanes`, `tailResLanes`) for a strip whose
    /// last block is `b`.
    @inline(__always)
    private func setStripTail(_ j: inout ConvTileJob, last b: Block) {
        let L = tileLanes
        let inner = (b.nv - 1) * L
        j.tailLanes = min(b.nv * L, geometry.outC - b.channel) - inner
        j.tailResLanes = j.residual == nil ? L : min(L, max(0, residualChannels - b.channel - inner))
    }

    /// How many leading blocks of `range` can run as one sweep of `whole` tiles
    /// (`ConvTileJob.stripBlocks`): as wide as the first, whole, packed equally far apart; or one
    /// block with a partial last vector (`stripTiles`). `setBlock` runs on `j`.
    @inline(__always)
    private func sweepBlockCount(_ range: Range<Int>, whole: Int, _ j: inout ConvTileJob) -> Int {
        let first = blocks[range.lowerBound]
        setBlock(&j, first)
        if !isWhole(j, first) { return stripTiles(j, first, whole: whole) > 0 ? 1 : 0 }
        var n = 0
        for bi in range {
            let b = blocks[bi]
            setBlock(&j, b)
            let stride = n > 0 ? blocks[range.lowerBound + 1].offset - first.offset : 0
            guard b.nv == first.nv, isWhole(j, b), b.offset == first.offset + n * stride else { break }
            n += 1
        }
        return n
    }

    private func runPointwise(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ work: Range<Int>
    ) {
        let g = geometry
        let P = g.batch * g.outH * g.outW
        let C = g.inC, O = g.outC
        let mr = tileRows
        let base = UnsafePointer(storage.pointer)
        var j = baseJob(output: output, residual: residual)
        // NHWC: one K segment of C contiguous floats per pixel. Channel-major: C floats P apart.
        let pixelStride = channelMajorInput ? 1 : C
        j.lda = pixelStride
        j.length = C
        j.strideK = channelMajorInput ? P : 1
        j.storeTo = mr
        for u in work {
            let pu = u / channelGroups, group = u - pu * channelGroups
            let p0 = pu * pixelsPerUnit, p1 = min(P, p0 + pixelsPerUnit)
            let whole = (p1 - p0) / mr
            let range = blockRange(group: group)
            // Runs of full-width blocks go as one strip each, tile by tile: each tile's pixels get
            // all the run's channels before the next tile starts, so the output is written in one
            // forward sweep (docs/tuning.md, "Forward sweep").
            var first = range.lowerBound
            while whole > 0 && first < range.upperBound {
                let swept = sweepBlockCount(first..<range.upperBound, whole: whole, &j)
                if swept > 0 {
                    let b = blocks[first]
                    setStripTail(&j, last: blocks[first + swept - 1])
                    setBlock(&j, b)
                    let tiles = stripTiles(j, b, whole: whole)
                    j.w = base + b.offset
                    j.storeFrom = 0
                    j.storeTo = mr
                    j.a = input + p0 &* pixelStride
                    j.out = output + p0 &* O + b.channel
                    j.residual = residual.map { $0 + p0 &* residualChannels + b.channel }
                    j.stripBlocks = swept
                    j.blockWeightStride = swept > 1 ? blocks[first + 1].offset - b.offset : 0
                    // While this run's tiles compute, they prefetch the next run's weights (the next channel
                    // group of a small-spatial layer), else its first tile waits on memory for all of them:
                    // in the net a 7×7 layer's 0.9 MB of weights come from L3 or DRAM on every inference
                    // (docs/tuning.md, "Weights prefetched a run ahead").
                    j.prefetchAhead = first + swept < blocks.count ? blocks[first + swept].offset - b.offset : 0
                    ConvTiles.run(lanes: tileLanes, mr: mr, nv: b.nv, j, strip: tiles)
                    j.stripBlocks = 1
                    j.prefetchAhead = 0
                }
                first += max(swept, 1)
            }
            // What the strips left: every pixel of a block no strip takes, the tiles after the
            // others' strips (the last partial tile; also the last whole one after a partial-vector strip).
            for bi in range {
                let b = blocks[bi]
                setBlock(&j, b)
                j.w = base + b.offset
                var p = p0 + stripTiles(j, b, whole: whole) * mr
                while p < p1 {
                    let start = min(p, P - mr)  // keep the tile full (P ≥ mr by construction)
                    j.storeFrom = p - start
                    j.storeTo = min(mr, p1 - start)
                    j.a = input + start &* pixelStride
                    j.out = output + start &* O + b.channel
                    j.residual = residual.map { $0 + start &* residualChannels + b.channel }
                    ConvTiles.run(lanes: tileLanes, mr: mr, nv: b.nv, j)
                    p = start + mr
                }
            }
            if dotTail > 0 && group == channelGroups - 1 {
                runDotTail(input, output, residual, pixels: p0..<p1)
            }
        }
    }

    /// The last `dotTail` channels of pixels `pixels`.
    private func runDotTail(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, pixels: Range<Int>
    ) {
        let weights = UnsafePointer(storage.pointer) + dotOffset
        runDotChannels(input, output, residual, weights: weights, first: geometry.outC - dotTail, count: dotTail, pixels: pixels)
    }

    private func runDot(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ work: Range<Int>
    ) {
        let g = geometry
        let P = g.batch * g.outH * g.outW
        let pixels = (work.lowerBound * pixelsPerUnit)..<min(P, work.upperBound * pixelsPerUnit)
        runDotChannels(input, output, residual, weights: UnsafePointer(storage.pointer), first: 0, count: g.outC, pixels: pixels)
    }

    /// Output channels `first..<first + count` (`count` 1...6) of pixels `pixels`, each a dot
    /// product of a pixel's input channels with a zero-padded weight row of `weights`.
    private func runDotChannels(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ residual: UnsafePointer<Float>?,
        weights: UnsafePointer<Float>, first: Int, count: Int, pixels: Range<Int>
    ) {
        let C = geometry.inC, O = geometry.outC
        let base = UnsafePointer(storage.pointer)
        let cpad = Self.dotRowLength(C)
        typealias V = ConvTiles.Vec
        // One specialisation per channel count (N channels, U pixels a tile).
        @inline(__always)
        func dot<let N: Int, let U: Int>(_: DotTile<V, N, U>.Type) {
            DotTile<V, N, U>.pixels(
                pixels, x: input, C: C, w: weights, cpad: cpad, out: output + first, ldo: O,
                residual: residual.map { $0 + first }, ldr: residualChannels, resLanes: max(0, residualChannels - first),
                bias: base + biasOffset + first, alpha: base + alphaOffset + first, epilogue: epilogue)
        }
        switch count {
        case 1: dot(DotTile<V, 1, 4>.self)
        case 2: dot(DotTile<V, 2, 4>.self)
        case 3: dot(DotTile<V, 3, 4>.self)
        case 4: dot(DotTile<V, 4, 4>.self)
        case 5: dot(DotTile<V, 5, 2>.self)
        default: dot(DotTile<V, 6, 2>.self)
        }
    }

    private func runDirect(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ work: Range<Int>
    ) {
        let g = geometry
        let C = g.inC, O = g.outC, W = g.inW, KW = g.kernelW
        let L = tileLanes
        let mr = tileRows
        let interior = PackedConv2D.interiorRange(g)
        let base = UnsafePointer(storage.pointer)
        var j = baseJob(output: output, residual: residual)
        j.lda = g.strideW &* C
        j.strideA1 = g.dilationH &* W &* C
        let contiguousRow = g.dilationW == 1
        for u in work {
            let r = u / channelGroups, group = u - r * channelGroups
            let n = r / g.outH, oy = r - n * g.outH
            let image = input + n &* g.inH &* W &* C
            let iy0 = oy &* g.strideH &- g.padTop
            var kyLo = 0
            while kyLo < g.kernelH && iy0 &+ kyLo &* g.dilationH < 0 { kyLo &+= 1 }
            var kyHi = g.kernelH
            while kyHi > kyLo && iy0 &+ (kyHi &- 1) &* g.dilationH >= g.inH { kyHi &-= 1 }
            j.count1 = kyHi - kyLo
            let rowIn = image + (iy0 &+ kyLo &* g.dilationH) &* W &* C  // input row of the first valid ky
            let rowOut = output + r &* g.outW &* O
            let rowRes = residual.map { $0 + r &* g.outW &* residualChannels }
            for bi in blockRange(group: group) {
                let b = blocks[bi]
                setBlock(&j, b)
                let wk = b.nv &* L
                let wBlock = base + b.offset + kyLo &* KW &* C &* wk
                j.strideW1 = KW &* C &* wk
                for ox in 0..<interior.lowerBound {
                    borderPixel(j, ox: ox, rowIn: rowIn, wBlock: wBlock, wk: wk, rowOut: rowOut, rowRes: rowRes, channel: b.channel, nv: b.nv)
                }
                if interior.count >= mr {
                    j.w = wBlock
                    if contiguousRow {
                        j.count2 = 1; j.length = KW &* C
                    } else {
                        j.count2 = KW; j.length = C
                        j.strideA2 = g.dilationW &* C; j.strideW2 = C &* wk
                    }
                    var ox = interior.lowerBound
                    let whole = interior.count / mr
                    let tiles = stripTiles(j, b, whole: whole)
                    if tiles > 0 {
                        setStripTail(&j, last: b)
                        j.storeFrom = 0
                        j.storeTo = mr
                        j.a = rowIn + (ox &* g.strideW &- g.padLeft) &* C
                        j.out = rowOut + ox &* O + b.channel
                        j.residual = rowRes.map { $0 + ox &* residualChannels + b.channel }
                        ConvTiles.run(lanes: tileLanes, mr: mr, nv: b.nv, j, strip: tiles)
                        ox += tiles * mr
                    }
                    while ox < interior.upperBound {
                        let start = min(ox, interior.upperBound - mr)
                        j.storeFrom = ox - start
                        j.storeTo = mr
                        j.a = rowIn + (start &* g.strideW &- g.padLeft) &* C
                        j.out = rowOut + start &* O + b.channel
                        j.residual = rowRes.map { $0 + start &* residualChannels + b.channel }
                        ConvTiles.run(lanes: tileLanes, mr: mr, nv: b.nv, j)
                        ox = start + mr
                    }
                } else {
                    for ox in interior {
                        borderPixel(j, ox: ox, rowIn: rowIn, wBlock: wBlock, wk: wk, rowOut: rowOut, rowRes: rowRes, channel: b.channel, nv: b.nv)
                    }
                }
                for ox in interior.upperBound..<g.outW {
                    borderPixel(j, ox: ox, rowIn: rowIn, wBlock: wBlock, wk: wk, rowOut: rowOut, rowRes: rowRes, channel: b.channel, nv: b.nv)
                }
            }
        }
    }

    /// One output pixel of a direct conv over its valid taps only (border / narrow rows).
    @inline(__always)
    private func borderPixel(
        _ j: ConvTileJob, ox: Int, rowIn: UnsafePointer<Float>, wBlock: UnsafePointer<Float>, wk: Int,
        rowOut: UnsafeMutablePointer<Float>, rowRes: UnsafePointer<Float>?, channel: Int, nv: Int
    ) {
        let g = geometry
        let C = g.inC, W = g.inW, KW = g.kernelW
        let ix0 = ox &* g.strideW &- g.padLeft
        var kxLo = 0
        while kxLo < KW && ix0 &+ kxLo &* g.dilationW < 0 { kxLo &+= 1 }
        var kxHi = KW
        while kxHi > kxLo && ix0 &+ (kxHi &- 1) &* g.dilationW >= W { kxHi &-= 1 }
        var pj = j
        pj.a = rowIn + (ix0 &+ kxLo &* g.dilationW) &* C
        pj.w = wBlock + kxLo &* C &* wk
        if g.dilationW == 1 {
            pj.count2 = 1; pj.length = (kxHi - kxLo) &* C
        } else {
            pj.count2 = kxHi - kxLo; pj.length = C
            pj.strideA2 = g.dilationW &* C; pj.strideW2 = C &* wk
        }
        pj.out = rowOut + ox &* g.outC + channel
        pj.residual = rowRes.map { $0 + ox &* residualChannels + channel }
        pj.storeFrom = 0; pj.storeTo = 1
        ConvTiles.run(lanes: tileLanes, mr: 1, nv: nv, pj)
    }

    private func runBLAS(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ work: Range<Int>
    ) {
        let g = geometry
        let P = g.batch * g.outH * g.outW
        // One sgemm per work unit: OpenBLAS rounds differently for different M, so fixed units keep
        // any split of the work bit-identical to one run.
        for u in work {
            let p0 = u * pixelsPerUnit, p1 = min(P, p0 + pixelsPerUnit)
            if p1 > p0 { runBLASRows(input, output, residual, p0..<p1) }
        }
    }

    private func runBLASRows(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ pixels: Range<Int>
    ) {
        let g = geometry
        let C = g.inC, O = g.outC
        let p0 = pixels.lowerBound, p1 = pixels.upperBound
        let rows = p1 - p0
        let base = UnsafePointer(storage.pointer)
        let y = output + p0 &* O
        // In place (residual == output) the residual must be added before the activation can be
        // applied, which needs act == none: y = X·Wᵀ + residual via beta = 1.
        let inPlace = residual.map { UnsafeRawPointer($0) == UnsafeRawPointer(output) } ?? false
        if inPlace && !epilogue.activation.clamps {
            cblas_sgemm(
                CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(O), Int32(C),
                1, input + p0 &* C, Int32(C), base, Int32(C), 1, y, Int32(O))
            SIMDElementwise.convEpilogue(
                y, rows: rows, channels: O, bias: base + biasOffset, alpha: base + alphaOffset,
                residual: nil, residualChannels: 0, epilogue: epilogue, forceResidualActivation: true)
            return
        }
        if inPlace {
            // Activation before the in-place residual: fall back to the SIMD tiles for this call.
            fallbackPointwise(input, output, residual, p0..<p1)
            return
        }
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(O), Int32(C),
            1, input + p0 &* C, Int32(C), base, Int32(C), 0, y, Int32(O))
        SIMDElementwise.convEpilogue(
            y, rows: rows, channels: O, bias: base + biasOffset, alpha: base + alphaOffset,
            residual: residual.map { $0 + p0 &* residualChannels }, residualChannels: residualChannels,
            epilogue: epilogue, forceResidualActivation: false)
    }

    /// Pointwise pixels `pixels` with the 1×NV SIMD tile straight from the `[O, K]` BLAS copy
    /// (rare: in-place residual with an activation in the BLAS path).
    private func fallbackPointwise(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ pixels: Range<Int>
    ) {
        let g = geometry
        let C = g.inC, O = g.outC
        let w = UnsafePointer(storage.pointer)
        let bias = w + biasOffset, alpha = w + alphaOffset
        let e = epilogue
        for p in pixels {
            let x = input + p &* C
            for o in 0..<O {
                let f = w + o &* C
                var total: Float = 0
                for c in 0..<C { total += x[c] * f[c] }
                let res: Float? = residual.map { o < residualChannels ? $0[p &* residualChannels &+ o] : 0 }
                output[p &* O &+ o] = e.apply(total, bias: bias[o], residual: res, alpha: alpha[o])
            }
        }
    }
}
