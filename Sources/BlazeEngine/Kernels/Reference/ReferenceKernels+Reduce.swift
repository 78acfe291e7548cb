// MEAN / SUM / REDUCE_MAX.
//
// Like tflite::reference_ops (ReduceGeneric / Mean with a float temp_sum), every output starts at
// the identity (0, or -greatestFiniteMagnitude for max) and the input is walked once in row-major
// order, each element folded into its output in Float. MEAN then divides each sum by the number of
// reduced elements. So accumulation is Float, in input order, not pairwise and not in Double:
// large reductions carry the usual O(n·eps) rounding of a naive sum, exactly as TFLite's reference.

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
        let isMax = p.kind == .max
        y.update(repeating: isMax ? -Float.greatestFiniteMagnitude : 0, count: outCount)
        let loop = StridedLoop(counts: input.shape, ShapeMath.strides(input.shape), outStrides)
        let n = loop.innerCount, si = loop.inner0, so = loop.inner1
        if isMax {
            loop.forEachRow { oi, oo, _ in
                var i = oi, o = oo
                for _ in 0..<n { let v = x[i]; if y[o] < v { y[o] = v }; i &+= si; o &+= so }
            }
        } else {
            loop.forEachRow { oi, oo, _ in
                var i = oi, o = oo
                for _ in 0..<n { y[o] += x[i]; i &+= si; o &+= so }
            }
        }
        if p.kind == .mean && reducedCount > 0 {
            let divisor = Float(reducedCount)
            for i in 0..<outCount { y[i] = y[i] / divisor }
        }
    }
}
