// The register-blocked micro-kernel shared by every `PackedConv2D` path: MR output pixels ×
// NV vectors of output channels, accumulated over a "K walk" that covers a pointwise row
// (one segment of C floats), or the receptive field of a k×k conv directly in the NHWC input
// (KH segments of KW·C contiguous floats; KH·KW segments of C with dilation) — so the direct
// conv needs no im2col buffer.
//
// Weights of one block are packed `[K][NV·lanes]` (K = KH·KW·C in OHWI order), so each K step
// loads NV weight vectors, broadcasts one input value per pixel and does MR·NV FMAs.

/// One micro-kernel call: MR pixels (rows `a + m·lda`) × one channel block.
struct ConvTileJob {
    /// First pixel, first K element of the walk.
    var a: UnsafePointer<Float>
    /// Distance between consecutive pixels of the tile in the input (C, or strideW·C).
    var lda: Int
    /// K walk: `count1` × `count2` segments of `length` contiguous floats; segment starts advance
    /// by `strideA1/strideA2` in the input and `strideW1/strideW2` in the packed weights.
    var count1: Int, strideA1: Int, strideW1: Int
    var count2: Int, strideA2: Int, strideW2: Int
    var length: Int
    /// Input distance between consecutive K elements of a segment: 1 (NHWC), or the pixel count
    /// for a channel-major pointwise input.
    var strideK: Int = 1
    /// Packed weights at the first K element of the walk.
    var w: UnsafePointer<Float>
    /// Output of pixel 0 at the block's first channel; pixels are `ldo` apart.
    var out: UnsafeMutablePointer<Float>
    var ldo: Int
    /// Valid output channels from the block start (the last vector may be partial).
    var outLanes: Int
    /// Residual of pixel 0 at the block's first channel, pixels `ldr` apart; `resLanes` channels
    /// from the block start exist (fewer than `outLanes` for a channel-padded residual).
    var residual: UnsafePointer<Float>?
    var ldr: Int
    var resLanes: Int
    /// Packed bias / alpha at the block's first channel (padded to whole vectors).
    var bias: UnsafePointer<Float>
    var alpha: UnsafePointer<Float>
    /// Pixels `storeFrom..<storeTo` of the tile are written (the others were shifted in to keep
    /// the tile full and belong to a neighbouring tile).
    var storeFrom: Int, storeTo: Int
    /// The block holds every output channel, at least half of its last vector (and the residual,
    /// if any, has them all too): a whole-vector store past `outLanes` then only touches the next
    /// pixel's channels, which the tile stores afterwards (see `ConvFinish`).
    var spill: Bool = false
    /// Fusion flags (see `ConvFinish`).
    var mode: Int
    /// Clamp bounds in memory (±∞ when absent): activation lo, hi, residual activation lo, hi.
    /// Read in the epilogue, not held in registers across the K loop: two to four bound vectors
    /// live through it made 16-register tiles (6×2 of 8 lanes) spill accumulators on every K step.
    var bounds: UnsafePointer<Float>
    /// Strips only (`ConvStrip`): blocks of NV vectors computed for each tile before the next
    /// tile, their packed weights `blockWeightStride` floats apart and channels NV·lanes apart.
    var stripBlocks: Int = 1
    var blockWeightStride: Int = 0
    /// Contiguous K segments prefetch two cache lines per four K steps, `prefetchAhead` floats
    /// past the current weights (0: the current lines, nothing new). Strips point it at the next
    /// run of blocks, a different pair of lines per tile (`ConvStrip`).
    var prefetchAhead: Int = 0
    /// Strips only: the real output channels and residual channels of the last vector of the
    /// strip's last block (`lanes` and `lanes` when whole; every other vector is whole in both).
    /// A partial one is read and written as whole vectors: each pixel's reaches into the next
    /// pixel's first channels, which must exist and belong to the same thread (`PackedConv2D`),
    /// and the store blends the real lanes over what is in memory there. The default (`.max`)
    /// reads as whole.
    var tailLanes: Int = .max, tailResLanes: Int = .max
}

enum ConvTile<V: KernelVector, let MR: Int, let NV: Int> {
    /// K loop, then the epilogue specialised for the layer's fusion (`j.mode`). The epilogue runs
    /// out of line on a copy of the accumulators: then every accumulator access here has a
    /// constant index and they stay in registers (an inlined, flag-testing epilogue made LLVM keep
    /// some shapes' accumulators on the stack and store them on every K step).
    @inline(never)
    static func run(_ j: ConvTileJob) {
        let acc = accumulate(j, a: j.a)
        // The epilogue gets a copy by address: passing `acc` itself by address made LLVM store some
        // shapes' accumulators on every K step, and passing it `borrowing` cost a memcpy call per
        // tile; the copy is written straight from the registers.
        var result = acc
        switch j.mode {
        case 0: ConvFinish<V, MR, NV, 0>.run(&result, j)
        case 1: ConvFinish<V, MR, NV, 1>.run(&result, j)
        case 2: ConvFinish<V, MR, NV, 2>.run(&result, j)
        case 3: ConvFinish<V, MR, NV, 3>.run(&result, j)
        case 4: ConvFinish<V, MR, NV, 4>.run(&result, j)
        case 5: ConvFinish<V, MR, NV, 5>.run(&result, j)
        case 6: ConvFinish<V, MR, NV, 6>.run(&result, j)
        case 7: ConvFinish<V, MR, NV, 7>.run(&result, j)
        case 10: ConvFinish<V, MR, NV, 10>.run(&result, j)
        case 11: ConvFinish<V, MR, NV, 11>.run(&result, j)
        case 14: ConvFinish<V, MR, NV, 14>.run(&result, j)
        default: ConvFinish<V, MR, NV, 15>.run(&result, j)
        }
    }

    /// `count` whole tiles in a row (pixel tile `i` starts `i·MR` pixels after `j`'s), each over
    /// `j.stripBlocks` blocks of NV vectors, all pixels stored and every lane of the vectors a
    /// real channel but in the last vector of the last block (`j.tailLanes`, `j.tailResLanes`):
    /// one call and the fusion switch for the whole strip, the epilogue inlined. Small-K layers (K = 8…32) spent as long
    /// in a per-tile call as in its K loop.
    @inline(__always)
    static func runStrip(_ j: ConvTileJob, count: Int) {
        // Strips with a partial last vector are separate specialisations (flag 16): its lane
        // handling inlined into every strip made LLVM keep whole strips' accumulators in memory.
        let tail = j.tailLanes < V.laneCount || (j.mode & 2 != 0 && j.tailResLanes < V.laneCount)
        switch j.mode | (tail ? 16 : 0) {
        case 0: ConvStrip<V, MR, NV, 0>.run(j, count: count)
        case 1: ConvStrip<V, MR, NV, 1>.run(j, count: count)
        case 2: ConvStrip<V, MR, NV, 2>.run(j, count: count)
        case 3: ConvStrip<V, MR, NV, 3>.run(j, count: count)
        case 4: ConvStrip<V, MR, NV, 4>.run(j, count: count)
        case 5: ConvStrip<V, MR, NV, 5>.run(j, count: count)
        case 6: ConvStrip<V, MR, NV, 6>.run(j, count: count)
        case 7: ConvStrip<V, MR, NV, 7>.run(j, count: count)
        case 10: ConvStrip<V, MR, NV, 10>.run(j, count: count)
        case 11: ConvStrip<V, MR, NV, 11>.run(j, count: count)
        case 14: ConvStrip<V, MR, NV, 14>.run(j, count: count)
        case 15: ConvStrip<V, MR, NV, 15>.run(j, count: count)
        case 16: ConvStrip<V, MR, NV, 16>.run(j, count: count)
        case 17: ConvStrip<V, MR, NV, 17>.run(j, count: count)
        case 18: ConvStrip<V, MR, NV, 18>.run(j, count: count)
        case 19: ConvStrip<V, MR, NV, 19>.run(j, count: count)
        case 20: ConvStrip<V, MR, NV, 20>.run(j, count: count)
        case 21: ConvStrip<V, MR, NV, 21>.run(j, count: count)
        case 22: ConvStrip<V, MR, NV, 22>.run(j, count: count)
        case 23: ConvStrip<V, MR, NV, 23>.run(j, count: count)
        case 26: ConvStrip<V, MR, NV, 26>.run(j, count: count)
        case 27: ConvStrip<V, MR, NV, 27>.run(j, count: count)
        case 30: ConvStrip<V, MR, NV, 30>.run(j, count: count)
        default: ConvStrip<V, MR, NV, 31>.run(j, count: count)
        }
    }

    /// `run(j)`, or `runStrip(j, count: strip)` when `strip` is given (the levels' one dispatch).
    @inline(__always)
    static func dispatch(_ j: ConvTileJob, strip: Int?) {
        if let strip { runStrip(j, count: strip) } else { run(j) }
    }

    /// The K walk of one tile whose pixel 0 is at `a`.
    @inline(__always)
    static func accumulate(_ j: ConvTileJob, a: UnsafePointer<Float>) -> InlineArray<MR, InlineArray<NV, V>> {
        let L = V.laneCount
        let wk = NV &* L
        let lda = j.lda
        // The accumulators start at the bias (the epilogue adds none). Closure-initialised arrays
        // are built in registers; `InlineArray(repeating:)` was an out-of-line call that zeroed
        // memory (plus a memcpy of the result for some shapes).
        let bias: InlineArray<NV, V> = levelInlineArray { V.load(j.bias + $0 &* L) }
        var acc: InlineArray<MR, InlineArray<NV, V>> = levelInlineArray { _ in bias }
        var a1 = a, w1 = j.w
        for _ in 0..<j.count1 {
            var a2 = a1, w2 = w1
            for _ in 0..<j.count2 {
                var ap = a2, wp = w2
                var n = j.length
                // Contiguous segments go four K steps per iteration: the pixels' input addresses
                // are then formed once per four steps instead of once per step, a chain of
                // MR − 1 dependent adds per step (docs/tuning.md, "Four K steps per iteration").
                if j.strideK == 1 {
                    while n >= 4 {
                        prefetchForRead(UnsafeRawPointer(wp + j.prefetchAhead))
                        prefetchForRead(UnsafeRawPointer(wp + j.prefetchAhead + 16))
                        step(&acc, a: ap, lda: lda, w: wp)
                        step(&acc, a: ap + 1, lda: lda, w: wp + wk)
                        step(&acc, a: ap + 2, lda: lda, w: wp + 2 &* wk)
                        step(&acc, a: ap + 3, lda: lda, w: wp + 3 &* wk)
                        ap += 4
                        wp += 4 &* wk
                        n &-= 4
                    }
                }
                for _ in 0..<n {
                    step(&acc, a: ap, lda: lda, w: wp)
                    ap += j.strideK
                    wp += wk
                }
                a2 += j.strideA2
                w2 += j.strideW2
            }
            a1 += j.strideA1
            w1 += j.strideW1
        }
        return acc
    }

    /// One K step: NV weight vectors at `w`, one broadcast input value per pixel (`a`, pixels
    /// `lda` apart), MR·NV FMAs.
    @inline(__always)
    static func step(_ acc: inout InlineArray<MR, InlineArray<NV, V>>, a: UnsafePointer<Float>, lda: Int, w: UnsafePointer<Float>) {
        var wv = InlineArray<NV, V> { _ in V.zero }
        for v in 0..<NV { wv[v] = V.load(w + v &* V.laneCount) }
        for m in 0..<MR {
            let x = V(splat: a[m &* lda])
            for v in 0..<NV { acc[m][v] = acc[m][v].madd(x, wv[v]) }
        }
    }
}

/// `ConvTile.runStrip` for fusion flags `F` (see `ConvFinish`; 16: partial tail): tile by tile,
/// and within a tile block by block (block `b`'s weights `b·blockWeightStride` floats after `j.w`,
/// its bias, alpha, output and residual `b·NV·lanes` channels after the first block's). The last
/// vector of the last block may be partial (`ConvTileJob.tailLanes`, `tailResLanes`).
///
/// With several fused steps or a partial tail the epilogue runs in two passes: the accumulators
/// are stored as they are (to the output, or to a scratch tile when the residual is the output),
/// then a loop over the tile's pixels reads them back and finishes them. In one pass LLVM did not
/// unroll that loop, indexed the accumulators by pixel, and so kept them in memory: a stack
/// store after every FMA of the K loop (8×2 tiles with residual + ReLU: 2.2× the time).
enum ConvStrip<V: KernelVector, let MR: Int, let NV: Int, let F: Int> {
    @inline(never)
    static func run(_ j: ConvTileJob, count: Int) {
        // Two passes where one pass kept the accumulators on the stack (disassembly, avx512 and
        // avx2): a partial tail; three or more fused steps; two with 8 or more rows, or an
        // activation with PReLU. Elsewhere (4×4 with residual + ReLU, the palm nets' layers) one
        // pass compiled to registers and the second pass only cost time (palm_detection_full 1.03×).
        let steps = (F & 15).nonzeroBitCount
        if F & 16 != 0 || steps >= 3 || (steps == 2 && (MR >= 8 || F & 5 == 5)) {
            var scratch = InlineArray<MR, InlineArray<NV, ConvScratchVector<V>>>(
                repeating: InlineArray(repeating: ConvScratchVector(value: V.zero)))
            withUnsafeMutablePointer(to: &scratch) {
                tiles(j, count: count, scratch: UnsafeMutableRawPointer($0).assumingMemoryBound(to: Float.self))
            }
        } else {
            tiles(j, count: count, scratch: nil)
        }
    }

    @inline(__always)
    static func tiles(_ j: ConvTileJob, count: Int, scratch: UnsafeMutablePointer<Float>?) {
        let L = V.laneCount
        let clamp = F & 1 != 0, residual = F & 2 != 0, prelu = F & 4 != 0, residualClamp = F & 8 != 0
        let partialTail = F & 16 != 0
        var a = j.a, out = j.out
        var res = residual ? j.residual! : j.bias
        let aStep = MR &* j.lda, oStep = MR &* j.ldo, rStep = residual ? MR &* j.ldr : 0
        let width = NV &* L
        let lastBlock = j.stripBlocks &- 1
        // The first pass's destination: a scratch tile when the residual is the output.
        let inPlace = residual && UnsafeRawPointer(j.residual!) == UnsafeRawPointer(j.out)
        let scratchStride = inPlace ? width : j.ldo
        for t in 0..<count {
            var jb = j
            // Four K steps of weights are NV·L/4 lines; tile t prefetches lines 2t and 2t + 1 of each
            // (mod that), so any strip of NV·L/8 tiles or more fetches every line of the next run.
            if j.prefetchAhead != 0 { jb.prefetchAhead = j.prefetchAhead &+ ((2 &* t) % max(1, NV &* L / 4)) &* 16 }
            for b in 0..<j.stripBlocks {
                let c = b &* width
                jb.w = j.w + b &* j.blockWeightStride
                jb.bias = j.bias + c
                let acc = ConvTile<V, MR, NV>.accumulate(jb, a: a)
                // Loaded after the K loop, per tile: the stores to `out` may alias `bounds`, so LLVM
                // cannot hoist them into registers held across the loop.
                let lo = V(splat: j.bounds[0]), hi = V(splat: j.bounds[1])
                let lo2 = V(splat: j.bounds[2]), hi2 = V(splat: j.bounds[3])
                guard let scratch else {
                    for m in 0..<MR {
                        let o = out + (m &* j.ldo &+ c)
                        let r = res + (m &* j.ldr &+ c)
                        for v in 0..<NV {
                            var y = acc[m][v]
                            if clamp { y = y.clampedBelow(lo).clampedAbove(hi) }
                            if residual { y = y.add(V.load(r + v &* L)) }
                            if residualClamp { y = y.clampedBelow(lo2).clampedAbove(hi2) }
                            if prelu { y = y.prelu(V.load(j.alpha + (c &+ v &* L))) }
                            y.store(o + v &* L)
                        }
                    }
                    continue
                }
                // The partial vector (`tail`): whole-vector loads with the lanes past the real
                // channels masked off, stored blended over memory (see `tailLanes`).
                let first = inPlace ? scratch : out + c
                for m in 0..<MR {
                    let d = first + m &* scratchStride
                    for v in 0..<NV {
                        let tail = v == NV &- 1 && partialTail && b == lastBlock
                        var y = acc[m][v]
                        if tail { y = y.blended(over: V.load(d + v &* L), lanes: j.tailLanes) }
                        y.store(d + v &* L)
                    }
                }
                for m in 0..<MR {
                    let d = first + m &* scratchStride
                    let o = out + (m &* j.ldo &+ c)
                    let r = res + (m &* j.ldr &+ c)
                    for v in 0..<NV {
                        let tail = v == NV &- 1 && partialTail && b == lastBlock
                        var y = V.load(d + v &* L)
                        if clamp { y = y.clampedBelow(lo).clampedAbove(hi) }
                        if residual {
                            let rv = V.load(r + v &* L)
                            y = y.add(tail ? rv.zeroing(fromLane: j.tailResLanes) : rv)
                        }
                        if residualClamp { y = y.clampedBelow(lo2).clampedAbove(hi2) }
                        if prelu { y = y.prelu(V.load(j.alpha + (c &+ v &* L))) }
                        let p = o + v &* L
                        if tail { y = y.blended(over: V.load(p), lanes: j.tailLanes) }
                        y.store(p)
                    }
                }
            }
            a += aStep
            out += oStep
            res += rStep
        }
    }
}

/// A vector of a strip's scratch tile. A type of this module, so the scratch's `InlineArray`
/// specialisations are named per level: built from `SIMD16<Float>` alone, one level's copy was
/// linked for all (the ISA isolation check caught a baseline caller of the AVX-512 one).
struct ConvScratchVector<V: KernelVector> {
    var value: V
}

/// The epilogue of an MR×NV tile for fusion flags `F` (`ConvTileJob.mode`): bit 0 activation
/// clamp, bit 1 residual add, bit 2 PReLU, bit 3 residual activation clamp. Full tiles (all pixels
/// stored, whole vectors) take a straight-line path; edge tiles a general one.
enum ConvFinish<V: KernelVector, let MR: Int, let NV: Int, let F: Int> {
    @inline(never)
    static func run(_ acc: inout InlineArray<MR, InlineArray<NV, V>>, _ j: ConvTileJob) {
        let L = V.laneCount
        let clamp = F & 1 != 0, residual = F & 2 != 0, prelu = F & 4 != 0, residualClamp = F & 8 != 0
        var alpha = InlineArray<NV, V> { _ in V.zero }
        if prelu { for v in 0..<NV { alpha[v] = V.load(j.alpha + v &* L) } }
        let lo = V(splat: j.bounds[0]), hi = V(splat: j.bounds[1])
        let lo2 = V(splat: j.bounds[2]), hi2 = V(splat: j.bounds[3])
        let full = j.storeFrom == 0 && j.storeTo == MR && j.outLanes == NV &* L && (!residual || j.resLanes == NV &* L)
        if full {
            let res = residual ? j.residual! : j.bias
            for m in 0..<MR {
                let o = j.out + m &* j.ldo
                let r = res + m &* j.ldr
                for v in 0..<NV {
                    var y = acc[m][v]
                    if clamp { y = y.clampedBelow(lo).clampedAbove(hi) }
                    if residual { y = y.add(V.load(r + v &* L)) }
                    if residualClamp { y = y.clampedBelow(lo2).clampedAbove(hi2) }
                    if prelu { y = y.prelu(alpha[v]) }
                    y.store(o + v &* L)
                }
            }
            return
        }
        let outLanes = j.outLanes, resLanes = j.resLanes
        if j.spill && j.storeFrom == 0 && j.storeTo == MR {
            // Every pixel stored, O not a multiple of the lanes: compute all pixels first (every
            // residual read before any store, so an in-place residual is safe), then store whole
            // vectors in pixel order. Pixel m's lanes past O land on pixel m + 1, stored right
            // after; only the tile's last vector is stored lane-exact.
            var ys = InlineArray<MR, InlineArray<NV, V>> { _ in InlineArray<NV, V> { _ in V.zero } }
            for m in 0..<MR {
                let r = (residual ? j.residual! : j.bias) + m &* j.ldr
                for v in 0..<NV {
                    var y = acc[m][v]
                    if clamp { y = y.clampedBelow(lo).clampedAbove(hi) }
                    if residual {
                        let rv: V = m == MR - 1 && v == NV - 1 ? V.load(r + v &* L, count: resLanes &- v &* L) : V.load(r + v &* L)
                        y = y.add(rv)
                    }
                    if residualClamp { y = y.clampedBelow(lo2).clampedAbove(hi2) }
                    if prelu { y = y.prelu(alpha[v]) }
                    ys[m][v] = y
                }
            }
            for m in 0..<MR {
                let o = j.out + m &* j.ldo
                for v in 0..<NV {
                    if m == MR - 1 && v == NV - 1 { ys[m][v].store(o + v &* L, count: outLanes &- v &* L) } else { ys[m][v].store(o + v &* L) }
                }
            }
            return
        }
        for m in 0..<MR where m >= j.storeFrom && m < j.storeTo {
            let o = j.out + m &* j.ldo
            for v in 0..<NV {
                let c = v &* L
                var y = acc[m][v]
                if clamp { y = y.clampedBelow(lo).clampedAbove(hi) }
                if residual {
                    let r = j.residual! + m &* j.ldr
                    let rv: V = c &+ L <= resLanes ? V.load(r + c) : (c < resLanes ? V.load(r + c, count: resLanes &- c) : V.zero)
                    y = y.add(rv)
                }
                if residualClamp { y = y.clampedBelow(lo2).clampedAbove(hi2) }
                if prelu { y = y.prelu(alpha[v]) }
                if c &+ L <= outLanes { y.store(o + c) } else { y.store(o + c, count: outLanes &- c) }
            }
        }
    }
}

/// Pointwise conv with very few outputs (O ≤ 6, e.g. detector classification heads): a tile of
/// PT pixels × O dot products vectorised over the input channels, then tree-reduced. Weights are
/// packed `[O][Cpad]` (zero padded to whole vectors). Beats the channel-vector tiles there, which
/// would waste 10–15 of 16 lanes.
enum DotTile<V: KernelVector, let O: Int, let PT: Int> {
    @inline(never)
    static func run(
        _ x: UnsafePointer<Float>, C: Int, w: UnsafePointer<Float>, cpad: Int,
        out: UnsafeMutablePointer<Float>, ldo: Int, residual: UnsafePointer<Float>?, ldr: Int, resLanes: Int,
        bias: UnsafePointer<Float>, alpha: UnsafePointer<Float>, epilogue e: FusedEpilogue
    ) {
        let L = V.laneCount
        var acc = InlineArray<PT, InlineArray<O, V>> { _ in InlineArray<O, V> { _ in V.zero } }
        var c = 0
        while c &+ L <= C {
            var xv = InlineArray<PT, V> { _ in V.zero }
            for p in 0..<PT { xv[p] = V.load(x + (p &* C &+ c)) }
            for o in 0..<O {
                let wv = V.load(w + (o &* cpad &+ c))
                for p in 0..<PT { acc[p][o] = acc[p][o].madd(xv[p], wv) }
            }
            c &+= L
        }
        if c < C {
            var xv = InlineArray<PT, V> { _ in V.zero }
            for p in 0..<PT { xv[p] = V.load(x + (p &* C &+ c), count: C &- c) }
            for o in 0..<O {
                let wv = V.load(w + (o &* cpad &+ c))
                for p in 0..<PT { acc[p][o] = acc[p][o].madd(xv[p], wv) }
            }
        }
        for p in 0..<PT {
            for o in 0..<O {
                let res: Float? = residual.map { o < resLanes ? $0[p &* ldr &+ o] : 0 }
                out[p &* ldo &+ o] = e.apply(acc[p][o].laneSum(), bias: bias[o], residual: res, alpha: alpha[o])
            }
        }
    }

    /// Pixels `pixels` of `[P, C] → [P, O]`; output pixels `ldo` apart (default O), the residual
    /// `ldr` apart with `resLanes` real channels (default `ldr`) from its pointer.
    @inline(__always)
    static func pixels(
        _ pixels: Range<Int>, x: UnsafePointer<Float>, C: Int, w: UnsafePointer<Float>, cpad: Int,
        out: UnsafeMutablePointer<Float>, ldo: Int = O, residual: UnsafePointer<Float>?, ldr: Int, resLanes: Int? = nil,
        bias: UnsafePointer<Float>, alpha: UnsafePointer<Float>, epilogue: FusedEpilogue
    ) {
        let resLanes = resLanes ?? ldr
        var p = pixels.lowerBound
        while p &+ PT <= pixels.upperBound {
            run(
                x + p &* C, C: C, w: w, cpad: cpad, out: out + p &* ldo, ldo: ldo, residual: residual.map { $0 + p &* ldr },
                ldr: ldr, resLanes: resLanes, bias: bias, alpha: alpha, epilogue: epilogue)
            p &+= PT
        }
        while p < pixels.upperBound {
            DotTile<V, O, 1>.run(
                x + p &* C, C: C, w: w, cpad: cpad, out: out + p &* ldo, ldo: ldo, residual: residual.map { $0 + p &* ldr },
                ldr: ldr, resLanes: resLanes, bias: bias, alpha: alpha, epilogue: epilogue)
            p &+= 1
        }
    }
}
