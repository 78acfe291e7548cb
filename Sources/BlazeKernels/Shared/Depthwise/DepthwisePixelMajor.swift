import BlazeEngineCore

/// 3×3 depthwise rows computed one output pixel at a time over every channel block of the widest
/// lane width ("1-pixel tiles"): the nine tap pointers of a pixel are resolved once (taps in the
/// padding point at a zero row of at least C floats) and then serve all C channels, so the inner
/// loop is nine loads of input, nine of weights and nine FMAs per vector, reading three input
/// rows and writing the output row front to back. On layers of many channels this beats
/// T-pixel × B-vector tiles run group by group, whose per-group calls, border tiles and strided
/// walks cost more than the weight reuse saves (AMD Zen 3, avx2: 56×56×144 0.54 → 0.39 ms,
/// 14×14×480 0.13 → 0.07 ms, 7×7×1152 0.09 → 0.04 ms; 112×112×24 got slower, 0.29 → 0.45 ms, so
/// the level's `DWShapes.pixelMajorMinVectors` sets where it takes over).
///
/// `F`: the fusion bits of `FusedEpilogue.tileMode` that change the loop (2: residual, 4: PReLU),
/// a type parameter as in `ConvFinish`: an optional residual vector per store had compiled to
/// scalar loads and lane inserts, and run-time flags kept the loop generic. Activations clamp to
/// ±∞ when they have no bound.
enum DWPixelMajor<V: KernelVector, let S: Int, let F: Int> {
    /// The nine tap pointers of one output pixel, at channel 0.
    struct Taps {
        var p0, p1, p2, p3, p4, p5, p6, p7, p8: UnsafePointer<Float>
    }

    /// The clamp bounds of the activation and of the residual's activation (±∞ where unbounded).
    struct Bounds {
        var lo, hi, residualLo, residualHi: V
        init(_ e: FusedEpilogue) {
            lo = V(splat: e.activation.lo ?? -.infinity)
            hi = V(splat: e.activation.hi ?? .infinity)
            residualLo = V(splat: e.residualActivation.lo ?? -.infinity)
            residualHi = V(splat: e.residualActivation.hi ?? .infinity)
        }
    }

    /// Pixels `pixelLo..<pixelHi` of one output row, channels `0..<blocks·L` (blocks of `L =
    /// V.laneCount` channels, packed `blockStride` apart from `j.weights`: 9 taps, bias, alpha).
    @inline(never)
    static func pixels(_ j: DWRowJob, blocks: Int) {
        let residual = F & 2 != 0, prelu = F & 4 != 0
        let bounds = Bounds(j.epilogue)
        let L = V.laneCount
        let C = j.C
        let bs = j.blockStride
        let residualRow = j.residual ?? UnsafePointer(j.out)
        for ox in j.pixelLo..<j.pixelHi {
            let p = taps(j, ox: ox)
            let out = j.out + ox &* C
            let res = residualRow + ox &* C
            var wp = j.weights
            var c = 0, b = 0
            // Four vectors per step: four independent FMA chains cover the FMA latency of the
            // single chain per vector.
            while b &+ 4 <= blocks {
                let v0 = vector(p, c: c, wp)
                let v1 = vector(p, c: c &+ L, wp + bs)
                let v2 = vector(p, c: c &+ 2 &* L, wp + 2 &* bs)
                let v3 = vector(p, c: c &+ 3 &* L, wp + 3 &* bs)
                finish(v0, bounds, residual ? res + c : nil, prelu ? wp : nil).store(out + c)
                finish(v1, bounds, residual ? res + (c &+ L) : nil, prelu ? wp + bs : nil).store(out + (c &+ L))
                finish(v2, bounds, residual ? res + (c &+ 2 &* L) : nil, prelu ? wp + 2 &* bs : nil).store(out + (c &+ 2 &* L))
                finish(v3, bounds, residual ? res + (c &+ 3 &* L) : nil, prelu ? wp + 3 &* bs : nil).store(out + (c &+ 3 &* L))
                b &+= 4; c &+= 4 &* L; wp += 4 &* bs
            }
            if b &+ 2 <= blocks {
                let v0 = vector(p, c: c, wp)
                let v1 = vector(p, c: c &+ L, wp + bs)
                finish(v0, bounds, residual ? res + c : nil, prelu ? wp : nil).store(out + c)
                finish(v1, bounds, residual ? res + (c &+ L) : nil, prelu ? wp + bs : nil).store(out + (c &+ L))
                b &+= 2; c &+= 2 &* L; wp += 2 &* bs
            }
            if b < blocks {
                finish(vector(p, c: c, wp), bounds, residual ? res + c : nil, prelu ? wp : nil).store(out + c)
            }
        }
    }

    /// Activation, then the residual and its activation, then PReLU with the block's alpha (the
    /// order of `FusedEpilogue.apply`).
    @_transparent
    static func finish(_ v: V, _ b: Bounds, _ residual: UnsafePointer<Float>?, _ block: UnsafePointer<Float>?) -> V {
        var r = v.clampedBelow(b.lo).clampedAbove(b.hi)
        if let residual { r = r.add(V.load(residual)).clampedBelow(b.residualLo).clampedAbove(b.residualHi) }
        if let block { r = r.prelu(V.load(block + 10 &* V.laneCount)) }
        return r
    }

    /// Tap `(ky, kx)` of output column `ox`, or the zero row when it lies in the padding.
    @_transparent
    static func tap(_ j: DWRowJob, _ ky: Int, _ kx: Int, ix0: Int) -> UnsafePointer<Float> {
        let ix = ix0 &+ kx
        return ky >= j.kyLo && ky < j.kyHi && ix >= 0 && ix < j.W
            ? j.image + ((j.iy0 &+ ky) &* j.W &+ ix) &* j.C : j.zeros
    }

    @_transparent
    static func taps(_ j: DWRowJob, ox: Int) -> Taps {
        let ix0 = ox &* S &- j.padLeft
        return Taps(
            p0: tap(j, 0, 0, ix0: ix0), p1: tap(j, 0, 1, ix0: ix0), p2: tap(j, 0, 2, ix0: ix0),
            p3: tap(j, 1, 0, ix0: ix0), p4: tap(j, 1, 1, ix0: ix0), p5: tap(j, 1, 2, ix0: ix0),
            p6: tap(j, 2, 0, ix0: ix0), p7: tap(j, 2, 1, ix0: ix0), p8: tap(j, 2, 2, ix0: ix0))
    }

    /// The nine products of channels `c..<c+L` summed in tap order, then the bias: the order and
    /// rounding of the tiles (`DWTiles`), so both give the same values (one chain of FMAs per
    /// vector; the loop has enough independent vectors to cover its latency).
    @_transparent
    static func vector(_ p: Taps, c: Int, _ w: UnsafePointer<Float>) -> V {
        let L = V.laneCount
        var a = V.load(p.p0 + c).mul(V.load(w))
        a = a.madd(V.load(p.p1 + c), V.load(w + L))
        a = a.madd(V.load(p.p2 + c), V.load(w + 2 &* L))
        a = a.madd(V.load(p.p3 + c), V.load(w + 3 &* L))
        a = a.madd(V.load(p.p4 + c), V.load(w + 4 &* L))
        a = a.madd(V.load(p.p5 + c), V.load(w + 5 &* L))
        a = a.madd(V.load(p.p6 + c), V.load(w + 6 &* L))
        a = a.madd(V.load(p.p7 + c), V.load(w + 7 &* L))
        a = a.madd(V.load(p.p8 + c), V.load(w + 8 &* L))
        return a.add(V.load(w + 9 &* L))
    }
}

extension DWShapes {
    /// `blocks` widest blocks of one output row, one pixel at a time (`DWPixelMajor`). The
    /// widest depthwise lanes are the level's vector (`ConvTiles.Vec`) at every level.
    @inline(__always)
    static func pixelMajorRow(_ j: DWRowJob, blocks: Int, stride: Int) {
        typealias V = ConvTiles.Vec
        switch (stride, j.epilogue.tileMode(residual: j.residual != nil) & 6) {
        case (1, 0): DWPixelMajor<V, 1, 0>.pixels(j, blocks: blocks)
        case (1, 2): DWPixelMajor<V, 1, 2>.pixels(j, blocks: blocks)
        case (1, 4): DWPixelMajor<V, 1, 4>.pixels(j, blocks: blocks)
        case (1, _): DWPixelMajor<V, 1, 6>.pixels(j, blocks: blocks)
        case (_, 0): DWPixelMajor<V, 2, 0>.pixels(j, blocks: blocks)
        case (_, 2): DWPixelMajor<V, 2, 2>.pixels(j, blocks: blocks)
        case (_, 4): DWPixelMajor<V, 2, 4>.pixels(j, blocks: blocks)
        default: DWPixelMajor<V, 2, 6>.pixels(j, blocks: blocks)
        }
    }
}
