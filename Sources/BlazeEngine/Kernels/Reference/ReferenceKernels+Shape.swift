// Data-movement ops: PAD, RESHAPE (copy), CONCATENATION, DEPTH_TO_SPACE, STRIDED_SLICE, TRANSPOSE.

extension ReferenceKernels {
    /// PAD of any rank with `p.value`.
    public static func pad(_ p: PadParams, input: TensorView, output: MutableTensorView) {
        let outShape = planned(try p.outputShape(input.shape))
        precondition(output.count == elementCount(outShape), "PAD output view does not match")
        let y = output.data, x = input.data
        y.update(repeating: p.value, count: output.count)
        let outStrides = ShapeMath.strides(outShape)
        var base = 0
        for d in 0..<outShape.count { base &+= p.paddings[d][0] &* outStrides[d] }
        let loop = IndexSpace(counts: input.shape, ShapeMath.strides(input.shape), outStrides)
        let n = loop.innerCount, si = loop.inner0, so = loop.inner1
        loop.forEachRow(base1: base) { oi, oo, _ in
            var i = oi, o = oo
            for _ in 0..<n { y[o] = x[i]; i &+= si; o &+= so }
        }
    }

    /// RESHAPE: the data is already row-major, so this is a plain copy.
    public static func copy(input: TensorView, output: MutableTensorView) {
        precondition(output.count == input.count, "RESHAPE changes the element count")
        if UnsafePointer(output.data) == input.data { return }
        output.data.update(from: input.data, count: input.count)
    }

    /// CONCATENATION along `p.axis` (negative counts from the end), then the fused activation.
    public static func concatenation(_ p: ConcatenationParams, inputs: [TensorView], output: MutableTensorView) {
        let outShape = planned(try p.outputShape(inputs.map(\.shape)))
        precondition(output.count == elementCount(outShape), "CONCATENATION output view does not match")
        let axis = planned(try p.resolvedAxis(rank: outShape.count))
        var outer = 1, inner = 1
        for d in 0..<axis { outer &*= outShape[d] }
        for d in (axis + 1)..<outShape.count { inner &*= outShape[d] }
        let y = output.data
        let rowLength = outShape[axis] &* inner
        var column = 0
        for t in inputs {
            let chunk = t.shape[axis] &* inner
            for o in 0..<outer {
                (y + (o &* rowLength &+ column)).update(from: t.data + o &* chunk, count: chunk)
            }
            column &+= chunk
        }
        if p.activation != .none {
            let act = p.activation
            for i in 0..<output.count { y[i] = act.apply(y[i]) }
        }
    }

    /// DEPTH_TO_SPACE, TensorFlow DCR order:
    /// `out[n, h·B+by, w·B+bx, c] = in[n, h, w, (by·B+bx)·C' + c]` with `C' = C/(B·B)`.
    public static func depthToSpace(_ p: DepthToSpaceParams, input: TensorView, output: MutableTensorView) {
        let outShape = planned(try p.outputShape(input.shape))
        precondition(output.count == elementCount(outShape), "DEPTH_TO_SPACE output view does not match")
        let B = p.blockSize, N = input.shape[0], H = input.shape[1], W = input.shape[2], C = input.shape[3]
        let OC = outShape[3], OW = outShape[2], OH = outShape[1]
        let x = input.data, y = output.data
        for n in 0..<N {
            for h in 0..<H {
                for w in 0..<W {
                    let src = x + ((n &* H &+ h) &* W &+ w) &* C
                    for by in 0..<B {
                        for bx in 0..<B {
                            let oy = h &* B &+ by, ox = w &* B &+ bx
                            let dst = y + ((n &* OH &+ oy) &* OW &+ ox) &* OC
                            dst.update(from: src + (by &* B &+ bx) &* OC, count: OC)
                        }
                    }
                }
            }
        }
    }

    /// STRIDED_SLICE using `p.resolve(input.shape)` (begin/end/stride per dim, masks, shrink axes).
    public static func stridedSlice(_ p: StridedSliceParams, input: TensorView, output: MutableTensorView) {
        let r = planned(try p.resolve(input.shape))
        precondition(output.count == elementCount(r.count), "STRIDED_SLICE output view does not match")
        let inStrides = ShapeMath.strides(input.shape)
        var base = 0
        var step = [Int](repeating: 0, count: inStrides.count)
        for d in 0..<inStrides.count {
            base &+= r.start[d] &* inStrides[d]
            step[d] = r.stride[d] &* inStrides[d]
        }
        let loop = IndexSpace(counts: r.count, step, ShapeMath.strides(r.count))
        let n = loop.innerCount, si = loop.inner0, so = loop.inner1
        let x = input.data, y = output.data
        loop.forEachRow(base0: base) { oi, oo, _ in
            var i = oi, o = oo
            for _ in 0..<n { y[o] = x[i]; i &+= si; o &+= so }
        }
    }

    /// TRANSPOSE: output dim `i` is input dim `perm[i]`.
    public static func transpose(_ p: TransposeParams, input: TensorView, output: MutableTensorView) {
        let outShape = planned(try p.outputShape(input.shape))
        precondition(output.count == elementCount(outShape), "TRANSPOSE output view does not match")
        let inStrides = ShapeMath.strides(input.shape)
        let loop = IndexSpace(counts: outShape, p.perm.map { inStrides[$0] }, ShapeMath.strides(outShape))
        let n = loop.innerCount, si = loop.inner0, so = loop.inner1
        let x = input.data, y = output.data
        loop.forEachRow { oi, oo, _ in
            var i = oi, o = oo
            for _ in 0..<n { y[o] = x[i]; i &+= si; o &+= so }
        }
    }
}

extension ReferenceKernels {
    /// GATHER along `p.axis`: output slice `i` of that axis is input slice `p.indices[i]`.
    public static func gather(_ p: GatherParams, input: TensorView, output: MutableTensorView) {
        let outShape = planned(try p.outputShape(input.shape))
        precondition(output.count == elementCount(outShape), "GATHER output view does not match")
        let axis = planned(try p.resolvedAxis(rank: input.shape.count))
        var outer = 1, inner = 1
        for d in 0..<axis { outer &*= input.shape[d] }
        for d in (axis + 1)..<input.shape.count { inner &*= input.shape[d] }
        let x = input.data, y = output.data
        let inRow = input.shape[axis] &* inner, outRow = p.indices.count &* inner
        for o in 0..<outer {
            for (i, index) in p.indices.enumerated() {
                let from = x + (o &* inRow &+ index &* inner)
                let to = y + (o &* outRow &+ i &* inner)
                to.update(from: from, count: inner)
            }
        }
    }
}
