import Foundation

// Elementwise ops: broadcasting binary ops (+ fused activation), unary ops, PRELU and LEAKY_RELU.

extension ReferenceKernels {
    /// NumPy broadcasting of `a` and `b` (any ranks ≤ 8, missing leading dims count as 1), then the
    /// fused activation. `maximum`/`minimum` follow `std::max`/`std::min` operand order.
    public static func binary(_ p: BinaryParams, a: TensorView, b: TensorView, output: MutableTensorView) {
        let outShape = planned(try p.outputShape(a.shape, b.shape))
        precondition(output.count == elementCount(outShape), "\(p.kind.name) output view does not match broadcast shape")
        let act = p.activation
        switch p.kind {
        case .add: broadcast(a, b, outShape, output) { act.apply($0 + $1) }
        case .sub: broadcast(a, b, outShape, output) { act.apply($0 - $1) }
        case .mul: broadcast(a, b, outShape, output) { act.apply($0 * $1) }
        case .div: broadcast(a, b, outShape, output) { act.apply($0 / $1) }
        case .squaredDifference:
            broadcast(a, b, outShape, output) {
                let d = $0 - $1; return act.apply(d * d)
            }
        case .maximum: broadcast(a, b, outShape, output) { act.apply($0 < $1 ? $1 : $0) }
        case .minimum: broadcast(a, b, outShape, output) { act.apply($1 < $0 ? $1 : $0) }
        }
    }

    public static func unary(_ kind: UnaryKind, input: TensorView, output: MutableTensorView) {
        let n = input.count
        precondition(output.count == n, "\(kind.name) output view does not match input")
        let x = input.data, y = output.data
        switch kind {
        case .relu, .relu6, .reluMinus1To1:
            let (lo, hi) = kind.clampActivation!.range
            for i in 0..<n { y[i] = Activation.clamp(x[i], lo, hi) }
        case .logistic: for i in 0..<n { y[i] = 1 / (1 + Foundation.exp(-x[i])) }
        case .neg: for i in 0..<n { y[i] = -x[i] }
        case .sqrt: for i in 0..<n { y[i] = x[i].squareRoot() }
        case .rsqrt: for i in 0..<n { y[i] = 1 / x[i].squareRoot() }
        case .tanh: for i in 0..<n { y[i] = Foundation.tanh(x[i]) }
        case .abs: for i in 0..<n { y[i] = Swift.abs(x[i]) }
        case .exp: for i in 0..<n { y[i] = Foundation.exp(x[i]) }
        case .hardSwish: for i in 0..<n { y[i] = x[i] * Swift.min(Swift.max(x[i] + 3, 0), 6) / 6 }
        }
    }

    /// PRELU: `x < 0 ? alpha·x : x`, alpha broadcast against x (the output has x's shape).
    public static func prelu(input: TensorView, alpha: TensorView, output: MutableTensorView) {
        precondition(output.count == input.count, "PRELU output view does not match input")
        precondition(
            ShapeMath.broadcast(input.shape, alpha.shape).map { elementCount($0) == input.count } ?? false,
            "PRELU alpha does not broadcast to the input")
        broadcast(input, alpha, input.shape, output) { x, a in x < 0 ? a * x : x }
    }

    /// LEAKY_RELU as `tflite::reference_ops::LeakyRelu` (float): `x > 0 ? x : alpha·x`. Not PRELU's
    /// `x < 0` test: with a negative alpha `+0` becomes `-0` (and `-0` becomes `+0`), and NaN goes
    /// through the multiply (a signalling NaN comes out quiet), as in TFLite's builtin kernel.
    public static func leakyRelu(_ p: LeakyReluParams, input: TensorView, output: MutableTensorView) {
        let n = input.count
        precondition(output.count == n, "LEAKY_RELU output view does not match input")
        let x = input.data, y = output.data, alpha = p.alpha
        for i in 0..<n { y[i] = x[i] > 0 ? x[i] : x[i] * alpha }
    }

    /// `output[i] = f(a[ia], b[ib])` over the broadcast index space `outShape`.
    @inline(__always)
    static func broadcast(
        _ a: TensorView, _ b: TensorView, _ outShape: [Int], _ output: MutableTensorView,
        _ f: (Float, Float) -> Float
    ) {
        let loop = IndexSpace(
            counts: outShape,
            ShapeMath.broadcastStrides(a.shape, to: outShape),
            ShapeMath.broadcastStrides(b.shape, to: outShape),
            ShapeMath.strides(outShape))
        let n = loop.innerCount, sa = loop.inner0, sb = loop.inner1, so = loop.inner2
        let pa = a.data, pb = b.data, po = output.data
        loop.forEachRow { oa, ob, oo in
            var ia = oa, ib = ob, io = oo
            for _ in 0..<n {
                po[io] = f(pa[ia], pb[ib])
                ia &+= sa; ib &+= sb; io &+= so
            }
        }
    }
}

extension ReferenceKernels {
    /// SOFTMAX along the last axis, as tflite::reference_ops::Softmax (float): per row the maximum
    /// (from the lowest finite value), each `exp(β·(x − max))` stored and summed in order, then
    /// divided by the sum.
    public static func softmax(_ p: SoftmaxParams, input: TensorView, output: MutableTensorView) {
        precondition(output.count == input.count, "SOFTMAX output view does not match")
        guard let depth = input.shape.last, depth > 0 else { return }
        let x = input.data, y = output.data
        for row in 0..<(input.count / depth) {
            let xr = x + row &* depth, yr = y + row &* depth
            var maximum = -Float.greatestFiniteMagnitude
            for c in 0..<depth where maximum < xr[c] { maximum = xr[c] }
            var sum: Float = 0
            for c in 0..<depth {
                let e = Foundation.exp((xr[c] - maximum) * p.beta)
                yr[c] = e
                sum += e
            }
            for c in 0..<depth { yr[c] = yr[c] / sum }
        }
    }
}
