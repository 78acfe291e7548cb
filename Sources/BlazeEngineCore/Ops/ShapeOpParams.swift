/// Parameters of ops that move or reshape data, each with its own shape math.

/// Elementwise binary op with NumPy broadcasting and an optional fused activation.
public struct BinaryParams: Sendable, Equatable {
    public var kind: BinaryKind
    public var activation: Activation
    public init(_ kind: BinaryKind, activation: Activation = .none) { self.kind = kind; self.activation = activation }

    public func outputShape(_ a: [Int], _ b: [Int]) throws -> [Int] {
        guard let out = ShapeMath.broadcast(a, b) else {
            throw BlazeError(.shapeMismatch, "\(kind.name) cannot broadcast \(ShapeMath.describe(a)) with \(ShapeMath.describe(b))")
        }
        return out
    }
}

/// PAD: `paddings[d] = (before, after)` for every dim of the input; pads with `value`.
public struct PadParams: Sendable, Equatable {
    public var paddings: [[Int]]
    public var value: Float
    public init(paddings: [[Int]], value: Float = 0) { self.paddings = paddings; self.value = value }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        guard paddings.count == input.count, paddings.allSatisfy({ $0.count == 2 && $0[0] >= 0 && $0[1] >= 0 && $0[0] <= 1 << 20 && $0[1] <= 1 << 20 }) else {
            throw BlazeError(.shapeMismatch, "PAD paddings \(paddings) do not fit input \(ShapeMath.describe(input))")
        }
        return zip(input, paddings).map { $0 + $1[0] + $1[1] }
    }
}

/// RESHAPE to a fully specified shape (the converter resolves any -1).
public struct ReshapeParams: Sendable, Equatable {
    public var shape: [Int]
    public init(shape: [Int]) { self.shape = shape }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        guard let a = ShapeMath.elementCount(input), let b = ShapeMath.elementCount(shape), a == b else {
            throw BlazeError(.shapeMismatch, "RESHAPE from \(ShapeMath.describe(input)) to \(ShapeMath.describe(shape)) changes the element count")
        }
        return shape
    }
}

/// CONCATENATION along `axis` (negative counts from the end).
public struct ConcatenationParams: Sendable, Equatable {
    public var axis: Int
    public var activation: Activation
    public init(axis: Int, activation: Activation = .none) { self.axis = axis; self.activation = activation }

    public func resolvedAxis(rank: Int) throws -> Int {
        guard let a = ShapeMath.normalizedAxis(axis, rank: rank) else {
            throw BlazeError(.shapeMismatch, "CONCATENATION axis \(axis) out of range for rank \(rank)")
        }
        return a
    }

    public func outputShape(_ inputs: [[Int]]) throws -> [Int] {
        guard let first = inputs.first else { throw BlazeError(.shapeMismatch, "CONCATENATION needs at least one input") }
        let a = try resolvedAxis(rank: first.count)
        var out = first
        for s in inputs.dropFirst() {
            guard s.count == first.count, (0..<s.count).allSatisfy({ $0 == a || s[$0] == first[$0] }) else {
                throw BlazeError(.shapeMismatch, "CONCATENATION inputs \(ShapeMath.describe(first)) and \(ShapeMath.describe(s)) differ off axis \(a)")
            }
            out[a] += s[a]
        }
        return out
    }
}

/// RESIZE_BILINEAR of a NHWC tensor to `height × width`.
public struct ResizeBilinearParams: Sendable, Equatable {
    public var height: Int, width: Int
    public var alignCorners: Bool
    public var halfPixelCenters: Bool
    public init(height: Int, width: Int, alignCorners: Bool = false, halfPixelCenters: Bool = false) {
        self.height = height; self.width = width; self.alignCorners = alignCorners; self.halfPixelCenters = halfPixelCenters
    }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        guard input.count == 4, height >= 1, width >= 1, height <= 1 << 16, width <= 1 << 16 else {
            throw BlazeError(.shapeMismatch, "RESIZE_BILINEAR to \(height)×\(width) of \(ShapeMath.describe(input))")
        }
        return [input[0], height, width, input[3]]
    }
}

/// DEPTH_TO_SPACE (TFLite/TensorFlow DCR order) with `blockSize`.
public struct DepthToSpaceParams: Sendable, Equatable {
    public var blockSize: Int
    public init(blockSize: Int) { self.blockSize = blockSize }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        let b = blockSize
        guard input.count == 4, b >= 1, b <= 64, input[3] % (b * b) == 0 else {
            throw BlazeError(.shapeMismatch, "DEPTH_TO_SPACE block \(blockSize) does not fit \(ShapeMath.describe(input))")
        }
        return [input[0], input[1] * b, input[2] * b, input[3] / (b * b)]
    }
}

/// MEAN / SUM / REDUCE_MAX / REDUCE_MIN over `axes` (negative allowed, duplicates ignored).
public struct ReduceParams: Sendable, Equatable {
    public var kind: ReduceKind
    public var axes: [Int]
    public var keepDims: Bool
    public init(_ kind: ReduceKind, axes: [Int], keepDims: Bool) { self.kind = kind; self.axes = axes; self.keepDims = keepDims }

    /// The reduced axes, normalised, sorted, unique.
    public func resolvedAxes(rank: Int) throws -> [Int] {
        var set: [Int] = []
        for a in axes {
            guard let n = ShapeMath.normalizedAxis(a, rank: rank) else {
                throw BlazeError(.shapeMismatch, "\(kind.name) axis \(a) out of range for rank \(rank)")
            }
            if !set.contains(n) { set.append(n) }
        }
        return set.sorted()
    }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        let r = try resolvedAxes(rank: input.count)
        var out: [Int] = []
        for (i, d) in input.enumerated() {
            if r.contains(i) { if keepDims { out.append(1) } } else { out.append(d) }
        }
        return out
    }
}

/// STRIDED_SLICE with TFLite masks (ellipsis and new-axis masks are not supported).
public struct StridedSliceParams: Sendable, Equatable {
    public var begin: [Int], end: [Int], strides: [Int]
    public var beginMask: Int, endMask: Int, shrinkAxisMask: Int
    /// TFLite `offset`: `end` is relative to `begin`.
    public var offset: Bool

    public init(
        begin: [Int], end: [Int], strides: [Int], beginMask: Int = 0, endMask: Int = 0,
        shrinkAxisMask: Int = 0, offset: Bool = false
    ) {
        self.begin = begin; self.end = end; self.strides = strides
        self.beginMask = beginMask; self.endMask = endMask; self.shrinkAxisMask = shrinkAxisMask; self.offset = offset
    }

    /// Per input dim: start index, stride and element count (before shrinking).
    public struct Resolved: Sendable, Equatable {
        public var start: [Int], stride: [Int], count: [Int]
        public var shrink: [Bool]
    }

    public func resolve(_ input: [Int]) throws -> Resolved {
        let rank = input.count
        guard begin.count == end.count, end.count == strides.count, begin.count <= rank, rank <= 8 else {
            throw BlazeError(.shapeMismatch, "STRIDED_SLICE begin/end/strides \(begin.count)/\(end.count)/\(strides.count) for rank \(rank)")
        }
        var r = Resolved(start: [], stride: [], count: [], shrink: [])
        for d in 0..<rank {
            let dim = input[d]
            guard d < begin.count else {
                r.start.append(0); r.stride.append(1); r.count.append(dim); r.shrink.append(false); continue
            }
            let s = strides[d]
            guard s != 0, abs(s) <= 1 << 20, abs(begin[d]) <= 1 << 30, abs(end[d]) <= 1 << 30 else {
                throw BlazeError(.shapeMismatch, "STRIDED_SLICE has invalid stride/begin/end on axis \(d)")
            }
            let shrink = (shrinkAxisMask >> d) & 1 == 1
            func clamp(_ v: Int, _ lo: Int, _ hi: Int) -> Int { min(max(v, lo), hi) }
            var b = begin[d] < 0 ? begin[d] + dim : begin[d]
            if shrink {
                guard b >= 0, b < dim else {
                    throw BlazeError(.shapeMismatch, "STRIDED_SLICE shrinks axis \(d) at index \(begin[d]) outside \(dim)")
                }
                r.start.append(b); r.stride.append(1); r.count.append(1); r.shrink.append(true); continue
            }
            var e: Int
            if offset { e = b + end[d] } else { e = end[d] < 0 ? end[d] + dim : end[d] }
            if s > 0 {
                b = (beginMask >> d) & 1 == 1 ? 0 : clamp(b, 0, dim)
                e = (endMask >> d) & 1 == 1 ? dim : clamp(e, 0, dim)
                r.count.append(e > b ? (e - b + s - 1) / s : 0)
            } else {
                b = (beginMask >> d) & 1 == 1 ? dim - 1 : clamp(b, -1, dim - 1)
                e = (endMask >> d) & 1 == 1 ? -1 : clamp(e, -1, dim - 1)
                r.count.append(b > e ? (b - e + (-s) - 1) / (-s) : 0)
            }
            r.start.append(b); r.stride.append(s); r.shrink.append(false)
        }
        return r
    }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        let r = try resolve(input)
        return zip(r.count, r.shrink).compactMap { $1 ? nil : $0 }
    }
}

/// TRANSPOSE with permutation `perm` (output dim i = input dim perm[i]).
public struct TransposeParams: Sendable, Equatable {
    public var perm: [Int]
    public init(perm: [Int]) { self.perm = perm }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        guard perm.count == input.count, perm.sorted() == Array(0..<input.count) else {
            throw BlazeError(.shapeMismatch, "TRANSPOSE perm \(perm) is not a permutation of rank \(input.count)")
        }
        return perm.map { input[$0] }
    }
}

/// SOFTMAX (TFLite): along the last axis, `exp(β·(x − max)) / Σ exp(β·(x − max))`.
public struct SoftmaxParams: Sendable, Equatable {
    public var beta: Float
    public init(beta: Float) { self.beta = beta }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        guard !input.isEmpty, input.last! >= 1, beta.isFinite else {
            throw BlazeError(.shapeMismatch, "SOFTMAX (beta \(beta)) needs a finite beta and a non-empty last axis, got \(ShapeMath.describe(input))")
        }
        return input
    }
}

/// LEAKY_RELU (TFLite): `y = x > 0 ? x : alpha·x`, as `tflite::reference_ops::LeakyRelu` (float).
/// The strict `>` is the definition: `+0` becomes `alpha·0` (`-0` when alpha < 0) and NaN becomes
/// `alpha·NaN` (still NaN; a signalling NaN comes out quiet). `alpha` may be negative or above 1.
public struct LeakyReluParams: Sendable, Equatable {
    public var alpha: Float
    public init(alpha: Float) { self.alpha = alpha }

    /// The input shape; throws for a non-finite alpha (the converter and the `.bkm` reader refuse it too).
    public func outputShape(_ input: [Int]) throws -> [Int] {
        guard alpha.isFinite else {
            throw BlazeError(.invalidInput, "LEAKY_RELU alpha \(alpha) is not finite")
        }
        return input
    }
}

/// GATHER (TFLite, `batch_dims` 0) with a constant 1-D index list: output index `i` along `axis`
/// is input index `indices[i]`; the other axes are kept.
public struct GatherParams: Sendable, Equatable {
    public var axis: Int
    public var indices: [Int]
    public init(axis: Int, indices: [Int]) { self.axis = axis; self.indices = indices }

    /// The axis in `0..<rank`.
    public func resolvedAxis(rank: Int) throws -> Int {
        guard let a = ShapeMath.normalizedAxis(axis, rank: rank) else {
            throw BlazeError(.shapeMismatch, "GATHER axis \(axis) out of range for rank \(rank)")
        }
        return a
    }

    public func outputShape(_ input: [Int]) throws -> [Int] {
        let a = try resolvedAxis(rank: input.count)
        guard !indices.isEmpty else { throw BlazeError(.shapeMismatch, "GATHER has no indices") }
        if let bad = indices.first(where: { $0 < 0 || $0 >= input[a] }) {
            throw BlazeError(.shapeMismatch, "GATHER index \(bad) is outside axis \(a) of \(ShapeMath.describe(input))")
        }
        var out = input
        out[a] = indices.count
        return out
    }
}
