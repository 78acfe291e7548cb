extension Op {
    /// The output shape for the given input shapes; throws `BlazeError` if they do not fit.
    public func inferOutputShape(_ s: [[Int]]) throws -> [Int] {
        guard inputArity.contains(s.count) else {
            throw BlazeError(.corruptModel, "\(name) got \(s.count) inputs")
        }
        switch self {
        case .conv2D(let p):
            let g = try p.geometry(input: s[0], filter: s[1])
            try Self.checkBias(s, count: g.outC)
            return g.outputShape
        case .depthwiseConv2D(let p):
            let g = try p.geometry(input: s[0], filter: s[1])
            try Self.checkBias(s, count: g.outC)
            return g.outputShape
        case .fullyConnected(let p):
            let out = try p.outputShape(input: s[0], weights: s[1])
            try Self.checkBias(s, count: s[1][0])
            return out
        case .maxPool2D(let p), .averagePool2D(let p):
            return try p.geometry(input: s[0]).outputShape
        case .binary(let p):
            return try p.outputShape(s[0], s[1])
        case .unary:
            return s[0]
        case .prelu:
            guard let out = ShapeMath.broadcast(s[0], s[1]), out == s[0] else {
                throw BlazeError(.shapeMismatch, "PRELU alpha \(ShapeMath.describe(s[1])) does not broadcast to \(ShapeMath.describe(s[0]))")
            }
            return out
        case .pad(let p): return try p.outputShape(s[0])
        case .reshape(let p): return try p.outputShape(s[0])
        case .concatenation(let p): return try p.outputShape(s)
        case .resizeBilinear(let p): return try p.outputShape(s[0])
        case .depthToSpace(let p): return try p.outputShape(s[0])
        case .reduce(let p): return try p.outputShape(s[0])
        case .stridedSlice(let p): return try p.outputShape(s[0])
        case .transpose(let p): return try p.outputShape(s[0])
        case .transposeConv2D(let p):
            let g = try p.geometry(input: s[0], filter: s[1])
            try Self.checkBias(s, count: g.outC)
            return g.outputShape
        case .landmarksToTransformMatrix(let p): return try p.outputShape(s[0])
        case .transformTensorBilinear(let p): return try p.outputShape(s[0], matrix: s[1])
        case .transformLandmarks: return try TransformLandmarksShape.outputShape(s[0], matrix: s[1])
        case .softmax(let p): return try p.outputShape(s[0])
        case .gather(let p): return try p.outputShape(s[0])
        case .leakyRelu(let p): return try p.outputShape(s[0])
        }
    }

    private static func checkBias(_ s: [[Int]], count: Int) throws {
        if s.count == 3, s[2] != [count] {
            throw BlazeError(.shapeMismatch, "bias \(ShapeMath.describe(s[2])) does not match \(count) output channels")
        }
    }

    /// Multiply-accumulates of one run (conv, depthwise, FC), for FLOP counts (FLOPs = 2 × MACs).
    public func multiplyAccumulates(inputs s: [[Int]], output: [Int]) -> Int {
        let outCount = ShapeMath.elementCount(output) ?? 0
        switch self {
        case .conv2D:
            return outCount * s[1][1] * s[1][2] * s[1][3]
        case .depthwiseConv2D:
            return outCount * s[1][1] * s[1][2]
        case .fullyConnected:
            return outCount * s[1][1]
        case .transposeConv2D:
            return (ShapeMath.elementCount(s[0]) ?? 0) * s[1][0] * s[1][1] * s[1][2]
        default:
            return 0
        }
    }
}
