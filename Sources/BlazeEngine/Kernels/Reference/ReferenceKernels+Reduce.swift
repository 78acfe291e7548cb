// MEAN / SUM / REDUCE_MAX / REDUCE_MIN.
//
// Like tflite::reference_ops (ReduceGeneric / Mean with a float temp_sum), every output starts at
// the identity (0, ∓greatestFiniteMagnitude for max / min) and the input is walked once in row-major
// order, each element folded into its output in Float. MEAN then divides each sum by the number of
// reduced elements. Accumulation is Float, not Double. One exception to input order: a row whose
// elements are contiguous and all reduce into one output (the innermost dims reduced, e.g. the
// channel MEAN of a layer norm) is summed in the 8-lane order of `RowSum`, so the optimised step
// can sum it with vector adds and still match this kernel bit for bit.

extension ReferenceKernels {
    public static func reduce(_ p: ReduceParams, input: TensorView, output: MutableTensorView) {
        let rank = input.shape.count
        let axes = planned(try p.resolvedAxes(rank: rank))
        let outCount = output.count
        var reduced = [Bool](repeating: false, count: rank)
        for a in axes { reduced[a] = true }
        var keptShape: [Int] = []
        var reducedCount = 1
        for d in 0..<rank {
            if reduced[d] { reducedCount &*= input.shape[d] } else { keptShape.append(input.shape[d]) }
        }
        precondition(outCount == elementCount(keptShape), "\(p.kind.name) output view does not match")

        // Output strides laid over the input's dims: 0 on reduced dims.
        let keptStrides = ShapeMath.strides(keptShape)
        var outStrides = [Int](repeating: 0, count: rank)
        var k = 0
        for d in 0..<rank where !reduced[d] { outStrides[d] = keptStrides[k]; k += 1 }

        let x = input.data, y = output.data
        y.update(repeating: p.kind.identity, count: outCount)
        let loop = IndexSpace(counts: input.shape, ShapeMath.strides(input.shape), outStrides)
        let n = loop.innerCount, si = loop.inner0, so = loop.inner1
        if p.kind == .max {
            loop.forEachRow { oi, oo, _ in
                var i = oi, o = oo
                for _ in 0..<n { let v = x[i]; if y[o] < v { y[o] = v }; i &+= si; o &+= so }
            }
        } else if p.kind == .min {
            loop.forEachRow { oi, oo, _ in
                var i = oi, o = oo
                for _ in 0..<n { let v = x[i]; if y[o] > v { y[o] = v }; i &+= si; o &+= so }
            }
        } else {
            if so == 0 && si == 1 {
                loop.forEachRow { oi, oo, _ in y[oo] = y[oo] + RowSum.sum(x + oi, count: n) }
            } else {
                loop.forEachRow { oi, oo, _ in
                    var i = oi, o = oo
                    for _ in 0..<n { y[o] += x[i]; i &+= si; o &+= so }
                }
            }
        }
        if p.kind == .mean && reducedCount > 0 {
            let divisor = Float(reducedCount)
            for i in 0..<outCount { y[i] = y[i] / divisor }
        }
    }
}

extension ReduceKind {
    /// The value every output starts from (TFLite's init values for these reducers).
    var identity: Float {
        switch self {
        case .mean, .sum: return 0
        case .max: return -Float.greatestFiniteMagnitude
        case .min: return Float.greatestFiniteMagnitude
        }
    }
}

/// The summation order of a contiguous row that reduces into one output (MEAN / SUM), shared by
/// the reference kernel and `ReduceStep`: element `i` goes to lane `i % 8` of 8 running sums over
/// the whole 8-element chunks, the lanes are added as a tree (`(l0+l4)+(l2+l6)` + `(l1+l5)+(l3+l7)`),
/// then the tail elements in order. Only additions, so every compiler and CPU gives the same bits.
enum RowSum {
    @inline(__always)
    static func sum(_ x: UnsafePointer<Float>, count n: Int) -> Float {
        var lanes = SIMD8<Float>(repeating: 0)
        var i = 0
        while i &+ 8 <= n {
            lanes += UnsafeRawPointer(x + i).loadUnaligned(as: SIMD8<Float>.self)
            i &+= 8
        }
        let half = lanes.lowHalf + lanes.highHalf
        let quarter = half.lowHalf + half.highHalf
        var total = quarter[0] + quarter[1]
        while i < n {
            total += x[i]
            i &+= 1
        }
        return total
    }
}
