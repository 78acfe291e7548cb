import BlazeEngineCore

/// Pointwise CONV_2D on channel-major tensors (`ISAKernelSet.channelMajorConv`): input `[K, P]`,
/// output `[O, P]` — row `o` holds output channel `o` of every pixel —
///
///     y[o, p] = residualAct(act(b[o] + Σₖ W[o, k]·x[k, p]) + residual[o, p])
///
/// with `W` the OHWI filter read as the `[O, K]` matrix it is. This is the token mixing of
/// MLP-Mixer without its two transposes (`ChannelMajorConvChains` in the engine): the filter is the
/// broadcast operand and the activations the vector operand, so the pixel count (the model's
/// channel count, 64 in face_blendshapes) is the vector axis and the 97 tokens are a K or an O.
///
/// Register tiles of MR output channels × NV vectors of pixels; the filter is packed per tile
/// `[K][MR]` (one contiguous broadcast stream), the bias per tile. Work units are tiles of MR
/// output channels; when O is not a multiple of MR the last tile starts at O − MR and stores only
/// its new rows, so every output comes from one tile in one K order (the same bits for any split).
/// Pixels past the whole vectors are computed one at a time.
final class ChannelMajorConv: ChannelMajorConvKernel, @unchecked Sendable {
    typealias Vec = ConvTiles.Vec

    package let outputChannels: Int, inputChannels: Int, pixels: Int
    package let tileRows: Int, tileVectors: Int
    package var workCount: Int { tileCount }
    package var flops: Int { 2 * outputChannels * inputChannels * pixels }

    let tileCount: Int
    let epilogue: FusedEpilogue
    let storage: AlignedFloatBuffer
    let biasOffset: Int, boundsOffset: Int

    /// - Parameters: filter `[O, K]` (OHWI with a 1×1 window), bias `[O]` or nil.
    init(
        filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, outputChannels O: Int, inputChannels K: Int,
        pixels P: Int, activation: Activation, residualActivation: Activation
    ) {
        precondition(O >= 1 && K >= 1 && P >= 1, "channel-major conv \(K)→\(O) over \(P) pixels")
        outputChannels = O; inputChannels = K; pixels = P
        let main = ConvTiles.channelMajorTile
        let mr = O >= main.mr ? main.mr : 1
        tileRows = mr
        tileVectors = main.nv
        tileCount = (O + mr - 1) / mr
        epilogue = FusedEpilogue(activation: activation, residualActivation: residualActivation, hasPrelu: false)
        let filterFloats = tileCount * K * mr
        biasOffset = (filterFloats + 15) & ~15
        boundsOffset = biasOffset + ((tileCount * mr + 15) & ~15)
        storage = AlignedFloatBuffer(count: boundsOffset + 4)
        let p = storage.pointer
        for t in 0..<tileCount {
            let first = Self.firstRow(tile: t, mr: mr, O: O)
            for k in 0..<K {
                for m in 0..<mr { p[(t * K + k) * mr + m] = filter[(first + m) * K + k] }
            }
            for m in 0..<mr { p[biasOffset + t * mr + m] = bias?[first + m] ?? 0 }
        }
        p[boundsOffset] = epilogue.activation.lo ?? -.infinity
        p[boundsOffset + 1] = epilogue.activation.hi ?? .infinity
        p[boundsOffset + 2] = epilogue.residualActivation.lo ?? -.infinity
        p[boundsOffset + 3] = epilogue.residualActivation.hi ?? .infinity
    }

    /// The first output channel tile `tile` computes (the last tile is shifted back to stay full).
    static func firstRow(tile: Int, mr: Int, O: Int) -> Int { min(tile * mr, O - mr) }

    package func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?, work: Range<Int>
    ) {
        precondition(work.lowerBound >= 0 && work.upperBound <= workCount, "channel-major conv work \(work) outside 0..<\(workCount)")
        let L = Vec.laneCount
        let K = inputChannels, P = pixels, O = outputChannels
        let mr = tileRows, nvMain = tileVectors
        let base = UnsafePointer(storage.pointer)
        let wholeVectors = P / L
        var j = ChannelMajorJob(
            a: base, b: input, ldb: P, depth: K, bias: base, out: output, ldo: P, residual: residual, storeFrom: 0,
            mode: epilogue.tileMode(residual: residual != nil), bounds: base + boundsOffset)
        for t in work {
            let first = Self.firstRow(tile: t, mr: mr, O: O)
            j.a = base + t * K * mr
            j.bias = base + biasOffset + t * mr
            j.storeFrom = t * mr - first
            var v = 0
            while v < wholeVectors {
                let nv = min(nvMain, wholeVectors - v)
                j.b = input + v * L
                j.out = output + first * P + v * L
                j.residual = residual.map { $0 + first * P + v * L }
                ChannelMajorTiles.run(mr: mr, nv: nv, j)
                v += nv
            }
            if wholeVectors * L < P {
                pixelTail(
                    a: j.a, bias: j.bias, rows: j.storeFrom..<mr, first: first, pixels: (wholeVectors * L)..<P,
                    input: input, output: output, residual: residual)
            }
        }
    }

    /// Pixels past the whole vectors of a tile's rows, one output at a time (the same operations
    /// as the reference: products added in K order onto the bias, then the epilogue).
    private func pixelTail(
        a: UnsafePointer<Float>, bias: UnsafePointer<Float>, rows: Range<Int>, first: Int, pixels columns: Range<Int>,
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?
    ) {
        let K = inputChannels, P = pixels, mr = tileRows
        let act = epilogue.activation, resAct = epilogue.residualActivation
        for m in rows {
            for p in columns {
                var s = bias[m]
                for k in 0..<K { s += a[k * mr + m] * input[k * P + p] }
                s = act.apply(s)
                let i = (first + m) * P + p
                if let residual { s = resAct.apply(s + residual[i]) }
                output[i] = s
            }
        }
    }
}

/// One channel-major tile call: MR output rows × NV vectors of pixels.
struct ChannelMajorJob {
    /// The tile's packed filter, `[K][MR]`.
    var a: UnsafePointer<Float>
    /// Input at the tile's first pixel: row `k` at `b + k·ldb`.
    var b: UnsafePointer<Float>
    var ldb: Int
    var depth: Int
    /// The tile's MR biases.
    var bias: UnsafePointer<Float>
    /// Output (and residual, same layout) of the tile's first row at its first pixel; rows `ldo` apart.
    var out: UnsafeMutablePointer<Float>
    var ldo: Int
    var residual: UnsafePointer<Float>?
    /// Rows `storeFrom..<MR` are written (the ones before belong to the previous tile).
    var storeFrom: Int
    /// `FusedEpilogue.tileMode` flags (no PReLU).
    var mode: Int
    /// Activation lo, hi, residual activation lo, hi.
    var bounds: UnsafePointer<Float>
}

enum ChannelMajorTile<V: KernelVector, let MR: Int, let NV: Int> {
    @inline(never)
    static func run(_ j: ChannelMajorJob) {
        let acc = accumulate(j)
        finish(acc, j)
    }

    /// The K walk: the bias, then MR·NV multiply-adds per input row.
    @inline(__always)
    static func accumulate(_ j: ChannelMajorJob) -> InlineArray<MR, InlineArray<NV, V>> {
        let bias: InlineArray<MR, V> = levelInlineArray { V(splat: j.bias[$0]) }
        var acc: InlineArray<MR, InlineArray<NV, V>> = levelInlineArray { m in levelInlineArray { _ in bias[m] } }
        var ap = j.a, bp = j.b
        let ldb = j.ldb
        var n = j.depth
        // Four K steps per iteration: the input rows' addresses are formed once per four steps.
        while n >= 4 {
            step(&acc, a: ap, b: bp)
            step(&acc, a: ap + MR, b: bp + ldb)
            step(&acc, a: ap + 2 &* MR, b: bp + 2 &* ldb)
            step(&acc, a: ap + 3 &* MR, b: bp + 3 &* ldb)
            ap += 4 &* MR
            bp += 4 &* ldb
            n &-= 4
        }
        while n > 0 {
            step(&acc, a: ap, b: bp)
            ap += MR
            bp += ldb
            n &-= 1
        }
        return acc
    }

    /// One K step: NV input vectors, one broadcast filter value per row, MR·NV multiply-adds.
    @inline(__always)
    static func step(_ acc: inout InlineArray<MR, InlineArray<NV, V>>, a: UnsafePointer<Float>, b: UnsafePointer<Float>) {
        let bv: InlineArray<NV, V> = levelInlineArray { V.load(b + $0 &* V.laneCount) }
        for m in 0..<MR {
            let x = V(splat: a[m])
            for v in 0..<NV { acc[m][v] = acc[m][v].madd(x, bv[v]) }
        }
    }

    /// Inlined, with constant row indices: an out-of-line epilogue on a copy (as `ConvTile.run`
    /// has) or rows indexed from `storeFrom` made LLVM keep the accumulators in memory and store
    /// every one after every FMA (90 stack stores in the 4×4 tile's K loop at avx512).
    @inline(__always)
    static func finish(_ acc: InlineArray<MR, InlineArray<NV, V>>, _ j: ChannelMajorJob) {
        let L = V.laneCount
        let clamp = j.mode & 1 != 0, residualClamp = j.mode & 8 != 0
        let lo = V(splat: j.bounds[0]), hi = V(splat: j.bounds[1])
        let lo2 = V(splat: j.bounds[2]), hi2 = V(splat: j.bounds[3])
        for m in 0..<MR where m >= j.storeFrom {
            let out = j.out + m &* j.ldo
            for v in 0..<NV {
                var y = acc[m][v]
                if clamp { y = y.clampedBelow(lo).clampedAbove(hi) }
                if let residual = j.residual {
                    y = y.add(V.load(residual + m &* j.ldo + v &* L))
                    if residualClamp { y = y.clampedBelow(lo2).clampedAbove(hi2) }
                }
                y.store(out + v &* L)
            }
        }
    }
}

/// The channel-major tile shapes compiled into every level (`ConvTiles.channelMajorTile` picks
/// the main one; MR = 1 serves O < MR, narrower NV the last pixel vectors).
enum ChannelMajorTiles {
    @inline(__always)
    static func run(mr: Int, nv: Int, _ j: ChannelMajorJob) {
        typealias V = ConvTiles.Vec
        switch (mr, nv) {
        case (1, 1): ChannelMajorTile<V, 1, 1>.run(j)
        case (1, 2): ChannelMajorTile<V, 1, 2>.run(j)
        case (1, 3): ChannelMajorTile<V, 1, 3>.run(j)
        case (1, 4): ChannelMajorTile<V, 1, 4>.run(j)
        case (4, 1): ChannelMajorTile<V, 4, 1>.run(j)
        case (4, 2): ChannelMajorTile<V, 4, 2>.run(j)
        case (4, 3): ChannelMajorTile<V, 4, 3>.run(j)
        case (4, 4): ChannelMajorTile<V, 4, 4>.run(j)
        case (6, 1): ChannelMajorTile<V, 6, 1>.run(j)
        case (6, 2): ChannelMajorTile<V, 6, 2>.run(j)
        default: preconditionFailure("no \(mr)×\(nv) channel-major tile")
        }
    }
}
