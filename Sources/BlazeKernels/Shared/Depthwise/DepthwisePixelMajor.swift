import BlazeEngineCore

/// K×K depthwise rows computed pixel-major: a few output pixels at a time over every channel
/// block of the widest lane width, instead of T-pixel × B-vector tiles run group by group, whose
/// per-group calls, border tiles and strided walks cost more than their weight reuse saves on
/// layers of many channels. The input is read through the kernel rows' pointers at the pixels'
/// first column, so the loop is the same for every pixel whose columns lie inside the image:
///
/// - `P` (2 or 4) such pixels at once: each weight vector is loaded once for the `P` pixels, and
///   with stride 1 their shared input columns are loaded once too;
/// - a pixel with columns in the padding (at most `K − 1` at each row end) alone, on the valid
///   columns only.
///
/// Rows in the padding are skipped (`kyLo..<kyHi`). Every pixel's sum runs over its taps in
/// kernel order from zero, then adds the bias — the order and rounding of the tiles
/// (`DWTiles`), so both give the same values. Why this shape (2 or 4 pixels at once, four vectors
/// per step at the row ends): docs/tuning.md, "Pixel-major rows".
///
/// `F`: the fusion bits of `FusedEpilogue.tileMode` that change the loop (2: residual, 4: PReLU),
/// a type parameter as in `ConvFinish`: an optional residual vector per store had compiled to
/// scalar loads and lane inserts, and run-time flags kept the loop generic. Activations clamp to
/// ±∞ when they have no bound.
enum DWPixelMajor<V: KernelVector, let K: Int, let S: Int, let P: Int, let F: Int> {
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

    /// Where one output row's pixels read and write: channel 0 of the first valid kernel row at
    /// input column 0, the output row, its residual row.
    struct Row {
        var input: UnsafePointer<Float>
        var weights: UnsafePointer<Float>
        var out: UnsafeMutablePointer<Float>
        var residual: UnsafePointer<Float>
        var rows: Int, rowStride: Int, C: Int, blockStride: Int
        var bounds: Bounds
    }

    /// Pixels `pixelLo..<pixelHi` of one output row, channels `0..<blocks·L` (blocks of `L =
    /// V.laneCount` channels, packed `blockStride` apart from `j.weights`: K·K taps, bias, alpha).
    @inline(never)
    static func pixels(_ j: DWRowJob, blocks: Int) {
        precondition(P == 2 || P == 4, "pixel-major depthwise runs 2 or 4 pixels at a time")
        let L = V.laneCount
        let rowStride = j.W &* j.C
        let row = Row(
            input: j.image + (j.iy0 &+ j.kyLo) &* rowStride, weights: j.weights + j.kyLo &* K &* L,
            out: j.out, residual: j.residual ?? UnsafePointer(j.out),
            rows: j.kyHi &- j.kyLo, rowStride: rowStride, C: j.C, blockStride: j.blockStride,
            bounds: Bounds(j.epilogue))
        let bias = j.weights + K &* K &* L
        // Pixels whose columns are all inside the image.
        let lo = max(j.pixelLo, j.interiorLo), hi = min(j.pixelHi, j.interiorHi)
        var ox = j.pixelLo
        while ox < j.pixelHi {
            let ix0 = ox &* S &- j.padLeft
            if ox >= lo && ox &+ P <= hi {
                group(InlineArray<P, V>.self, row, ox: ox, ix0: ix0, blocks: blocks, bias: bias)
                ox &+= P
            } else if P > 2 && ox >= lo && ox &+ 2 <= hi {
                group(InlineArray<2, V>.self, row, ox: ox, ix0: ix0, blocks: blocks, bias: bias)
                ox &+= 2
            } else {
                single(row, ox: ox, ix0: ix0, kxLo: max(0, -ix0), kxHi: min(K, j.W &- ix0), blocks: blocks, bias: bias)
                ox &+= 1
            }
        }
    }

    /// `Q` output pixels from `ox` (all columns inside the image), two channel vectors per step.
    @inline(__always)
    static func group<let Q: Int>(_: InlineArray<Q, V>.Type, _ r: Row, ox: Int, ix0: Int, blocks: Int, bias: UnsafePointer<Float>) {
        let L = V.laneCount
        let C = r.C, bs = r.blockStride
        let x = r.input + ix0 &* C
        let out = r.out + ox &* C, res = r.residual + ox &* C
        var wp = r.weights, bp = bias
        var c = 0, b = 0
        while b &+ 2 <= blocks {
            let u = vectors(InlineArray<Q, V>.self, r, x + c, wp, bp)
            let v = vectors(InlineArray<Q, V>.self, r, x + (c &+ L), wp + bs, bp + bs)
            storePixels(u, r, out + c, res + c, bp)
            storePixels(v, r, out + (c &+ L), res + (c &+ L), bp + bs)
            b &+= 2; c &+= 2 &* L; wp += 2 &* bs; bp += 2 &* bs
        }
        if b < blocks {
            let u = vectors(InlineArray<Q, V>.self, r, x + c, wp, bp)
            storePixels(u, r, out + c, res + c, bp)
        }
    }

    /// One channel vector of the `Q` pixels whose first kernel row's first column is `x`.
    @_transparent
    static func vectors<let Q: Int>(
        _: InlineArray<Q, V>.Type, _ r: Row, _ x: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ bias: UnsafePointer<Float>
    ) -> InlineArray<Q, V> {
        let L = V.laneCount
        let C = r.C
        var a0 = V.zero, a1 = V.zero, a2 = V.zero, a3 = V.zero
        @_transparent
        func kernelRow(_ xp: UnsafePointer<Float>, _ wp: UnsafePointer<Float>) {
            for kx in 0..<K {
                let wv = V.load(wp + kx &* L)
                a0 = a0.madd(V.load(xp + kx &* C), wv)
                a1 = a1.madd(V.load(xp + (S &+ kx) &* C), wv)
                if Q == 4 {
                    a2 = a2.madd(V.load(xp + (2 &* S &+ kx) &* C), wv)
                    a3 = a3.madd(V.load(xp + (3 &* S &+ kx) &* C), wv)
                }
            }
        }
        if r.rows == K {
            // Every kernel row (all but the image's first and last rows): a constant trip count.
            for ky in 0..<K { kernelRow(x + ky &* r.rowStride, w + ky &* K &* L) }
        } else {
            var xp = x, wp = w
            for _ in 0..<r.rows {
                kernelRow(xp, wp)
                xp += r.rowStride; wp += K &* L
            }
        }
        let bv = V.load(bias)
        var result = InlineArray<Q, V> { _ in V.zero }
        result[0] = a0.add(bv)
        result[1] = a1.add(bv)
        if Q == 4 { result[2] = a2.add(bv); result[3] = a3.add(bv) }
        return result
    }

    /// One output pixel whose valid columns are `ix0 + kxLo..<ix0 + kxHi`, one vector at a time.
    @inline(__always)
    static func single(_ r: Row, ox: Int, ix0: Int, kxLo: Int, kxHi: Int, blocks: Int, bias: UnsafePointer<Float>) {
        let L = V.laneCount
        let C = r.C, bs = r.blockStride
        let x = r.input + ix0 &* C
        let out = r.out + ox &* C, res = r.residual + ox &* C
        // Four vectors per step: four independent FMA chains.
        var b = 0
        while b &+ 4 <= blocks {
            let c = b &* L
            var a0 = V.zero, a1 = V.zero, a2 = V.zero, a3 = V.zero
            var xp = x + c, wp = r.weights + b &* bs
            for _ in 0..<r.rows {
                var kx = kxLo
                while kx < kxHi {
                    let xk = xp + kx &* C, wk = wp + kx &* L
                    a0 = a0.madd(V.load(xk), V.load(wk))
                    a1 = a1.madd(V.load(xk + L), V.load(wk + bs))
                    a2 = a2.madd(V.load(xk + 2 &* L), V.load(wk + 2 &* bs))
                    a3 = a3.madd(V.load(xk + 3 &* L), V.load(wk + 3 &* bs))
                    kx &+= 1
                }
                xp += r.rowStride; wp += K &* L
            }
            let bp = bias + b &* bs
            store(a0.add(V.load(bp)), r, out + c, res + c, bp)
            store(a1.add(V.load(bp + bs)), r, out + (c &+ L), res + (c &+ L), bp + bs)
            store(a2.add(V.load(bp + 2 &* bs)), r, out + (c &+ 2 &* L), res + (c &+ 2 &* L), bp + 2 &* bs)
            store(a3.add(V.load(bp + 3 &* bs)), r, out + (c &+ 3 &* L), res + (c &+ 3 &* L), bp + 3 &* bs)
            b &+= 4
        }
        while b < blocks {
            let c = b &* L
            var a = V.zero
            var xp = x + c, wp = r.weights + b &* bs
            for _ in 0..<r.rows {
                var kx = kxLo
                while kx < kxHi { a = a.madd(V.load(xp + kx &* C), V.load(wp + kx &* L)); kx &+= 1 }
                xp += r.rowStride; wp += K &* L
            }
            let bp = bias + b &* bs
            store(a.add(V.load(bp)), r, out + c, res + c, bp)
            b &+= 1
        }
    }

    /// The `Q` pixels' vectors at `out`, `out + C`, … (unrolled by hand: a loop over an inline
    /// array may stay rolled and keep the values in stack memory).
    @_transparent
    static func storePixels<let Q: Int>(
        _ u: InlineArray<Q, V>, _ r: Row, _ out: UnsafeMutablePointer<Float>, _ residual: UnsafePointer<Float>,
        _ bias: UnsafePointer<Float>
    ) {
        let C = r.C
        store(u[0], r, out, residual, bias)
        store(u[1], r, out + C, residual + C, bias)
        if Q == 4 {
            store(u[2], r, out + 2 &* C, residual + 2 &* C, bias)
            store(u[3], r, out + 3 &* C, residual + 3 &* C, bias)
        }
    }

    /// Activation, then the residual and its activation, then PReLU with the block's alpha (the
    /// order of `FusedEpilogue.apply`), and the store. `bias`: the block's bias (alpha follows).
    @_transparent
    static func store(_ v: V, _ r: Row, _ out: UnsafeMutablePointer<Float>, _ residual: UnsafePointer<Float>, _ bias: UnsafePointer<Float>) {
        let b = r.bounds
        var y = v.clampedBelow(b.lo).clampedAbove(b.hi)
        if F & 2 != 0 { y = y.add(V.load(residual)).clampedBelow(b.residualLo).clampedAbove(b.residualHi) }
        if F & 4 != 0 { y = y.prelu(V.load(bias + V.laneCount)) }
        y.store(out)
    }
}

extension DWShapes {
    /// `blocks` widest blocks of one output row of a K×K (3 or 5) layer, pixel-major
    /// (`DWPixelMajor`). The widest depthwise lanes are the level's vector (`ConvTiles.Vec`).
    @inline(__always)
    static func pixelMajorRow(_ j: DWRowJob, blocks: Int, kernel: Int, stride: Int) {
        typealias V = ConvTiles.Vec
        let fusion = j.epilogue.tileMode(residual: j.residual != nil) & 6
        @inline(__always)
        func run<let K: Int, let S: Int, let P: Int>(_: DWPixelMajor<V, K, S, P, 0>.Type) {
            switch fusion {
            case 0: DWPixelMajor<V, K, S, P, 0>.pixels(j, blocks: blocks)
            case 2: DWPixelMajor<V, K, S, P, 2>.pixels(j, blocks: blocks)
            case 4: DWPixelMajor<V, K, S, P, 4>.pixels(j, blocks: blocks)
            default: DWPixelMajor<V, K, S, P, 6>.pixels(j, blocks: blocks)
            }
        }
        switch (kernel, stride) {
        case (3, 1): run(DWPixelMajor<V, 3, 1, 2, 0>.self)
        case (3, _): run(DWPixelMajor<V, 3, 2, 2, 0>.self)
        case (5, 1): run(DWPixelMajor<V, 5, 1, 4, 0>.self)
        default: run(DWPixelMajor<V, 5, 2, 4, 0>.self)
        }
    }
}
