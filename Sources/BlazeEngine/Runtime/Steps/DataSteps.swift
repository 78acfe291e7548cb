/// Data-movement and reduction ops bound to their memory: PAD, CONCATENATION, DEPTH_TO_SPACE,
/// TRANSPOSE / STRIDED_SLICE (one strided copy), RESIZE_BILINEAR, MEAN / SUM / REDUCE_MAX and the
/// RESHAPE copy. All geometry is resolved at plan time; element for element the arithmetic of
/// `ReferenceKernels`.

/// PAD of any rank, one pass over the output by rows (innermost dim): rows outside the input are
/// filled, rows inside get `before` fill values, the input row, `after` fill values.
final class PadStep: ParallelJob {
    let x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>
    let value: Float
    /// Output dims except the last; `rowCount` their product.
    let outer: [Int]
    let before: [Int]
    let inShape: [Int]
    let inStrides: [Int]
    let inner: Int, innerBefore: Int, innerCount: Int
    let rowCount: Int, parts: Int

    init(_ p: PadParams, input: TensorView, output: MutableTensorView, threads: Int) {
        x = input.data; y = output.data
        value = p.value
        var outShape = output.shape, inShape = input.shape, pads = p.paddings
        if outShape.isEmpty { outShape = [1]; inShape = [1]; pads = [[0, 0]] }
        // Unpadded trailing dims merge into the one before: longer rows to copy (a spatial pad of
        // [N,H,W,3] copies rows of W·3 floats, not 3).
        while outShape.count > 1, pads[pads.count - 1] == [0, 0] {
            let inner = inShape.removeLast()
            outShape.removeLast(); pads.removeLast()
            inShape[inShape.count - 1] *= inner
            outShape[outShape.count - 1] *= inner
            pads[pads.count - 1] = pads[pads.count - 1].map { $0 * inner }
        }
        let rank = outShape.count
        outer = Array(outShape[..<(rank - 1)])
        before = pads.map { $0[0] }
        self.inShape = inShape
        inStrides = ShapeMath.strides(inShape)
        inner = outShape[rank - 1]
        innerBefore = pads[rank - 1][0]
        innerCount = inShape[rank - 1]
        rowCount = outer.reduce(1, *)
        parts = Parallelism.tasks(units: rowCount, work: rowCount * inner, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(rows: WorkerPool.part(index, of: parts, count: rowCount)) }

    func run(rows: Range<Int>) {
        if rows.isEmpty { return }
        let rank = outer.count
        outer.withUnsafeBufferPointer { outer in
            before.withUnsafeBufferPointer { before in
                inShape.withUnsafeBufferPointer { inShape in
                    inStrides.withUnsafeBufferPointer { inStrides in
                        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(rank, 1)) { index in
                            var rem = rows.lowerBound
                            var d = rank - 1
                            while d >= 0 { index[d] = rem % outer[d]; rem /= outer[d]; d -= 1 }
                            for r in rows {
                                let row = y + r &* inner
                                var source = 0, inside = true
                                for k in 0..<rank {
                                    let i = index[k] &- before[k]
                                    if i < 0 || i >= inShape[k] { inside = false; break }
                                    source &+= i &* inStrides[k]
                                }
                                if inside {
                                    row.update(repeating: value, count: innerBefore)
                                    (row + innerBefore).update(from: x + source, count: innerCount)
                                    (row + innerBefore + innerCount).update(repeating: value, count: inner - innerBefore - innerCount)
                                } else {
                                    row.update(repeating: value, count: inner)
                                }
                                var k = rank - 1
                                while k >= 0 {
                                    index[k] &+= 1
                                    if index[k] < outer[k] { break }
                                    index[k] = 0
                                    k -= 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// CONCATENATION: per input, `outer` chunks copied to their column of the output; then the fused
/// activation.
struct ConcatenationStep {
    struct Piece { let data: UnsafePointer<Float>; let chunk: Int; let column: Int }
    let pieces: [Piece]
    let outer: Int, rowLength: Int
    let y: UnsafeMutablePointer<Float>
    let count: Int
    let activation: Activation

    init(_ p: ConcatenationParams, inputs: [TensorView], output: MutableTensorView) throws {
        let outShape = output.shape
        let axis = try p.resolvedAxis(rank: outShape.count)
        var outer = 1, inner = 1
        for d in 0..<axis { outer *= outShape[d] }
        for d in (axis + 1)..<outShape.count { inner *= outShape[d] }
        var column = 0
        var pieces: [Piece] = []
        for t in inputs {
            let chunk = t.shape[axis] * inner
            pieces.append(Piece(data: t.data, chunk: chunk, column: column))
            column += chunk
        }
        self.pieces = pieces
        self.outer = outer
        rowLength = outShape[axis] * inner
        y = output.data
        count = output.count
        activation = p.activation
    }

    func run() {
        for piece in pieces {
            for o in 0..<outer {
                (y + (o &* rowLength &+ piece.column)).update(from: piece.data + o &* piece.chunk, count: piece.chunk)
            }
        }
        Elementwise.activation(y, count: count, activation)
    }
}

/// DEPTH_TO_SPACE (DCR), split by input rows.
final class DepthToSpaceStep: ParallelJob {
    let x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>
    let block: Int, N: Int, H: Int, W: Int, C: Int
    let parts: Int

    init(_ p: DepthToSpaceParams, input: TensorView, output: MutableTensorView, threads: Int) {
        x = input.data; y = output.data
        block = p.blockSize
        N = input.shape[0]; H = input.shape[1]; W = input.shape[2]; C = input.shape[3]
        parts = Parallelism.tasks(units: N * H, work: input.count, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(rows: WorkerPool.part(index, of: parts, count: N * H)) }

    func run(rows: Range<Int>) {
        let B = block, OC = C / (B * B), OW = W * B, OH = H * B
        // For one input pixel and one `by`, the B blocks of OC channels are contiguous on both
        // sides: one run of B·OC floats, copied inline (a call per run cost more than the copy
        // when runs are a few floats long).
        let run = B &* OC
        for r in rows {
            let n = r / H, h = r % H
            let srcRow = x + (n &* H &+ h) &* W &* C
            for by in 0..<B {
                let dstRow = y + (n &* OH &+ h &* B &+ by) &* OW &* OC
                let srcBlock = srcRow + by &* run
                for w in 0..<W {
                    let src = srcBlock + w &* C, dst = dstRow + w &* run
                    for i in 0..<run { dst[i] = src[i] }
                }
            }
        }
    }
}

/// TRANSPOSE and STRIDED_SLICE: `y[i] = x[base + offset(i)]` over the output's index space.
final class StridedCopyStep: ParallelJob {
    let x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>
    let space: IndexSpace
    let base: Int
    let parts: Int

    convenience init(transpose p: TransposeParams, input: TensorView, output: MutableTensorView, threads: Int) {
        let inStrides = ShapeMath.strides(input.shape)
        self.init(
            x: input.data, y: output.data,
            space: IndexSpace(counts: output.shape, p.perm.map { inStrides[$0] }, ShapeMath.strides(output.shape)),
            base: 0, threads: threads)
    }

    convenience init(slice p: StridedSliceParams, input: TensorView, output: MutableTensorView, threads: Int) throws {
        let r = try p.resolve(input.shape)
        let inStrides = ShapeMath.strides(input.shape)
        var base = 0
        var step = [Int](repeating: 0, count: inStrides.count)
        for d in 0..<inStrides.count {
            base += r.start[d] * inStrides[d]
            step[d] = r.stride[d] * inStrides[d]
        }
        self.init(
            x: input.data, y: output.data, space: IndexSpace(counts: r.count, step, ShapeMath.strides(r.count)),
            base: base, threads: threads)
    }

    private init(x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>, space: IndexSpace, base: Int, threads: Int) {
        self.x = x; self.y = y; self.space = space; self.base = base
        parts = Parallelism.tasks(units: space.count / 16, work: space.count, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(Elementwise.chunk(index, of: parts, count: space.count)) }

    func run(_ elements: Range<Int>) {
        let si = space.inner0, so = space.inner1
        space.forEachSegment(elements, base0: base) { oi, oo, _, n in
            if si == 1 && so == 1 {
                (y + oo).update(from: x + oi, count: n)
            } else {
                var i = oi, o = oo
                for _ in 0..<n { y[o] = x[i]; i &+= si; o &+= so }
            }
        }
    }
}

/// MEAN / SUM / REDUCE_MAX / REDUCE_MIN: the input visited in row-major order, accumulating into the output
/// (the reference's order, so the same rounding; contiguous rows into one output in `RowSum`'s
/// order). One thread: the parts would share outputs.
struct ReduceStep {
    let kind: ReduceKind
    let x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>
    let space: IndexSpace
    let outCount: Int
    let reducedCount: Int

    init(_ p: ReduceParams, input: TensorView, output: MutableTensorView) throws {
        kind = p.kind
        x = input.data; y = output.data
        let rank = input.shape.count
        let axes = try p.resolvedAxes(rank: rank)
        var reduced = [Bool](repeating: false, count: rank)
        for a in axes { reduced[a] = true }
        var keptShape: [Int] = []
        var reducedCount = 1
        for d in 0..<rank {
            if reduced[d] { reducedCount *= input.shape[d] } else { keptShape.append(input.shape[d]) }
        }
        let keptStrides = ShapeMath.strides(keptShape)
        var outStrides = [Int](repeating: 0, count: rank)
        var k = 0
        for d in 0..<rank where !reduced[d] { outStrides[d] = keptStrides[k]; k += 1 }
        space = IndexSpace(counts: input.shape, ShapeMath.strides(input.shape), outStrides)
        outCount = output.count
        self.reducedCount = reducedCount
    }

    func run() {
        y.update(repeating: kind.identity, count: outCount)
        let si = space.inner0, so = space.inner1
        if kind == .max {
            space.forEachSegment(0..<space.count) { oi, oo, _, n in
                var i = oi, o = oo
                for _ in 0..<n { let v = x[i]; if y[o] < v { y[o] = v }; i &+= si; o &+= so }
            }
        } else if kind == .min {
            space.forEachSegment(0..<space.count) { oi, oo, _, n in
                var i = oi, o = oo
                for _ in 0..<n { let v = x[i]; if y[o] > v { y[o] = v }; i &+= si; o &+= so }
            }
        } else {
            space.forEachSegment(0..<space.count) { oi, oo, _, n in
                if so == 0 && si == 1 {
                    y[oo] = y[oo] + RowSum.sum(x + oi, count: n)
                } else if so == 0 {
                    var acc = y[oo], i = oi
                    for _ in 0..<n { acc += x[i]; i &+= si }
                    y[oo] = acc
                } else {
                    var i = oi, o = oo
                    for _ in 0..<n { y[o] += x[i]; i &+= si; o &+= so }
                }
            }
        }
        if kind == .mean && reducedCount > 0 {
            let divisor = Float(reducedCount)
            for i in 0..<outCount { y[i] = y[i] / divisor }
        }
    }
}

/// GATHER: one contiguous copy of `inner` floats per (outer index, gathered index), the shape
/// arithmetic done once (the reference kernel redoes it on every run).
struct GatherStep {
    let x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>
    let indices: [Int]
    let outer: Int, inner: Int, inRow: Int

    init(_ p: GatherParams, input: TensorView, output: MutableTensorView) throws {
        let axis = try p.resolvedAxis(rank: input.shape.count)
        _ = try p.outputShape(input.shape)
        var outer = 1, inner = 1
        for d in 0..<axis { outer *= input.shape[d] }
        for d in (axis + 1)..<input.shape.count { inner *= input.shape[d] }
        x = input.data; y = output.data
        indices = p.indices
        self.outer = outer; self.inner = inner
        inRow = input.shape[axis] * inner
    }

    func run() {
        var o = y
        for row in 0..<outer {
            let base = x + row &* inRow
            for index in indices {
                o.update(from: base + index &* inner, count: inner)
                o += inner
            }
        }
    }
}
