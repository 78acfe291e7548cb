import BlazeEngineCore

/// Layer normalisation over rows of `C` floats (`ISAKernelSet.layerNorm`), with exactly the float
/// operations of the TFLite decomposition it replaces, in their order:
///
///     m = (0 + Σx) / C        v = (0 + Σ(x − m)²) / C        r = 1 / sqrt(v + ε)
///     s[c] = r·γ[c]           y[c] = x[c]·s[c] + (−m)·s[c]   or   x[c]·s[c] + (β[c] − m·s[c])
///
/// Both sums follow the engine's reference row-sum order (element `i` into lane `i % 8` of 8
/// running sums over whole 8-element chunks, the lanes added `(l0+l4)+(l2+l6)` + `(l1+l5)+(l3+l7)`,
/// then the tail in order), so the result is bitwise the reference kernels' on every level. The
/// elementwise pass is vectorised at the level's width (elementwise: the same bits). Without FMA
/// contraction: products and sums are rounded separately, as the decomposed nodes round them.
enum LayerNormRows {
    typealias Vec = ConvTiles.Vec

    static func run(
        _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, channels C: Int,
        gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>?, epsilon: Float, rows: Range<Int>
    ) {
        // Statistics of 4 rows at a time: their sums are 4 independent dependency chains. The next
        // group's statistics come before this group's normalisation in program order, so their
        // long chains (two sums, a division, a square root) overlap its independent vector work.
        var row = rows.lowerBound
        if row &+ 4 <= rows.upperBound {
            var (m, r) = statistics(InlineArray<4, Int> { row &+ $0 }, x, C, epsilon)
            while true {
                let next = row &+ 4
                let more = next &+ 4 <= rows.upperBound
                let (m2, r2) = more ? statistics(InlineArray<4, Int> { next &+ $0 }, x, C, epsilon) : (m, r)
                for i in 0..<4 { normalize(x + (row &+ i) &* C, y + (row &+ i) &* C, C, gamma, beta, mean: m[i], scale: r[i]) }
                row = next
                if !more { break }
                m = m2; r = r2
            }
        }
        while row < rows.upperBound {
            let (m, r) = statistics(InlineArray<1, Int> { _ in row }, x, C, epsilon)
            normalize(x + row &* C, y + row &* C, C, gamma, beta, mean: m[0], scale: r[0])
            row &+= 1
        }
    }

    /// Mean and `1 / sqrt(variance + ε)` of `rows`.
    @inline(__always)
    static func statistics<let R: Int>(
        _ rows: InlineArray<R, Int>, _ x: UnsafePointer<Float>, _ C: Int, _ epsilon: Float
    ) -> (InlineArray<R, Float>, InlineArray<R, Float>) {
        let divisor = Float(C)
        let xr = InlineArray<R, UnsafePointer<Float>> { x + rows[$0] &* C }
        // MEAN starts its output at 0 and adds the row sum (0 + −0 is +0, as there).
        let sums = rowSums(xr, count: C, mean: nil)
        let m = InlineArray<R, Float> { (0 + sums[$0]) / divisor }
        let squares = rowSums(xr, count: C, mean: m)
        let r = InlineArray<R, Float> { 1 / ((0 + squares[$0]) / divisor + epsilon).squareRoot() }
        return (m, r)
    }

    /// `y = x·s + shift` over one row, `s = r·γ`: whole vectors, then one channel at a time.
    @inline(__always)
    static func normalize(
        _ xr: UnsafePointer<Float>, _ yr: UnsafeMutablePointer<Float>, _ C: Int, _ gamma: UnsafePointer<Float>,
        _ beta: UnsafePointer<Float>?, mean m: Float, scale r: Float
    ) {
        let L = Vec.laneCount
        let rv = Vec(splat: r), mv = Vec(splat: m), negated = -m, nv = Vec(splat: negated)
        var c = 0
        if let beta {
            while c &+ L <= C {
                let s = rv.mul(Vec.load(gamma + c))
                Vec.load(xr + c).mul(s).add(Vec.load(beta + c) - mv.mul(s)).store(yr + c)
                c &+= L
            }
            while c < C {
                let s = r * gamma[c]
                yr[c] = xr[c] * s + (beta[c] - m * s)
                c &+= 1
            }
        } else {
            while c &+ L <= C {
                let s = rv.mul(Vec.load(gamma + c))
                Vec.load(xr + c).mul(s).add(nv.mul(s)).store(yr + c)
                c &+= L
            }
            while c < C {
                let s = r * gamma[c]
                yr[c] = xr[c] * s + negated * s
                c &+= 1
            }
        }
    }

    /// The row sum of each row (`mean` nil) or of its `(x[i] − mean)²` without storing the
    /// squares, R rows interleaved.
    @inline(__always)
    static func rowSums<let R: Int>(
        _ x: InlineArray<R, UnsafePointer<Float>>, count n: Int, mean: InlineArray<R, Float>?
    ) -> InlineArray<R, Float> {
        var lanes = InlineArray<R, SIMD8<Float>> { _ in SIMD8(repeating: 0) }
        // The optional is unwrapped outside the closure: Swift 6.2.3 (assertions on) crashes in
        // SILGen on `mean?[$0]` inside an InlineArray initializer closure.
        let means = mean ?? InlineArray(repeating: 0)
        let m8 = InlineArray<R, SIMD8<Float>> { SIMD8(repeating: means[$0]) }
        var i = 0
        while i &+ 8 <= n {
            for k in 0..<R {
                let v = UnsafeRawPointer(x[k] + i).loadUnaligned(as: SIMD8<Float>.self)
                if mean != nil {
                    let d = v - m8[k]
                    lanes[k] += d * d
                } else {
                    lanes[k] += v
                }
            }
            i &+= 8
        }
        var totals = InlineArray<R, Float> { k in
            let half = lanes[k].lowHalf + lanes[k].highHalf
            let quarter = half.lowHalf + half.highHalf
            return quarter[0] + quarter[1]
        }
        while i < n {
            for k in 0..<R {
                if let mean {
                    let d = x[k][i] - mean[k]
                    totals[k] += d * d
                } else {
                    totals[k] += x[k][i]
                }
            }
            i &+= 1
        }
        return totals
    }
}
