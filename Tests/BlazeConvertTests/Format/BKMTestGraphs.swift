// Also compiled into Fuzz/Seeds (a link), which writes these graphs as fuzzing seeds and has
// SeededRandom.swift linked in instead of the BlazeTestSupport module.
#if canImport(BlazeTestSupport)
    import BlazeTestSupport
#endif
import BlazeEngine

/// Builds graphs op by op; output shapes come from the ops' own shape inference.
struct BKMGraphBuilder {
    var graph = Graph(tensors: [], constants: [], nodes: [], inputs: [], outputs: [])
    var rng = SeededRandom(seed: 42)

    mutating func input(_ name: String, _ shape: [Int]) -> Int {
        graph.tensors.append(TensorDescriptor(name: name, shape: shape))
        graph.inputs.append(graph.tensors.count - 1)
        return graph.tensors.count - 1
    }

    /// A constant with random values in [-1, 1); fp16 ones are rounded so they are representable.
    mutating func constant(_ name: String, _ shape: [Int], _ storage: Constant.Storage = .float32) -> Int {
        let n = shape.reduce(1, *)
        var values: [Float] = []
        for _ in 0..<n {
            let v = Float.random(in: -1..<1, using: &rng)
            values.append(storage == .float16 ? Float(Float16(v)) : v)
        }
        graph.constants.append(Constant(shape: shape, values: values, storage: storage))
        graph.tensors.append(TensorDescriptor(name: name, shape: shape, constant: graph.constants.count - 1))
        return graph.tensors.count - 1
    }

    mutating func op(_ op: Op, _ inputs: [Int], _ name: String) throws -> Int {
        let shape = try op.inferOutputShape(inputs.map { graph.tensors[$0].shape })
        graph.tensors.append(TensorDescriptor(name: name, shape: shape))
        graph.nodes.append(Node(op: op, inputs: inputs, outputs: [graph.tensors.count - 1]))
        return graph.tensors.count - 1
    }

    mutating func output(_ t: Int) { graph.outputs.append(t) }
}

enum BKMTestGraphs {
    /// Every `Op` case at least once, constants in both storages, several outputs and metadata.
    static func everyOp() throws -> Graph {
        var b = BKMGraphBuilder()
        let x = b.input("input image", [1, 8, 8, 4])
        let conv = try b.op(
            .conv2D(Conv2DParams(padding: .same, activation: .relu)),
            [x, b.constant("conv/w", [8, 3, 3, 4]), b.constant("conv/b", [8])], "conv")
        let dw = try b.op(
            .depthwiseConv2D(DepthwiseConv2DParams(strideH: 2, strideW: 2, depthMultiplier: 2, padding: .valid, activation: .relu6)),
            [conv, b.constant("dw/w", [1, 3, 3, 16], .float16), b.constant("dw/b", [16], .float16)], "depthwise")
        let maxPool = try b.op(.maxPool2D(Pool2DParams(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .same)), [conv], "maxpool")
        let avgPool = try b.op(
            .averagePool2D(Pool2DParams(filterH: 3, filterW: 3, strideH: 1, strideW: 1, padding: .same, activation: .reluMinus1To1)),
            [maxPool], "avgpool")
        let add = try b.op(.binary(BinaryParams(.add, activation: .relu)), [avgPool, maxPool], "add")
        let sub = try b.op(.binary(BinaryParams(.squaredDifference)), [add, b.constant("sub/c", [8], .float16)], "sqdiff")
        let sig = try b.op(.unary(.logistic), [sub], "logistic")
        let prelu = try b.op(.prelu, [sig, b.constant("prelu/alpha", [1, 1, 8])], "prelu")
        let pad = try b.op(.pad(PadParams(paddings: [[0, 0], [1, 1], [2, 0], [0, 0]], value: -1.5)), [prelu], "pad")
        let resize = try b.op(.resizeBilinear(ResizeBilinearParams(height: 8, width: 8, alignCorners: true)), [pad], "resize")
        let concat = try b.op(.concatenation(ConcatenationParams(axis: -1)), [conv, resize], "concat")
        let d2s = try b.op(.depthToSpace(DepthToSpaceParams(blockSize: 2)), [concat], "d2s")
        let mean = try b.op(.reduce(ReduceParams(.mean, axes: [1, 2], keepDims: true)), [d2s], "mean")
        let slice = try b.op(
            .stridedSlice(
                StridedSliceParams(
                    begin: [0, 1, 0, 0], end: [1, 15, 16, 3], strides: [1, 2, 1, 1],
                    beginMask: 0b0100, shrinkAxisMask: 0b0001)), [d2s], "slice")
        let transpose = try b.op(.transpose(TransposeParams(perm: [2, 0, 1])), [slice], "transpose")
        let reshape = try b.op(.reshape(ReshapeParams(shape: [21, 16])), [transpose], "reshape")
        let fc = try b.op(
            .fullyConnected(FullyConnectedParams(activation: .none, keepNumDims: false)),
            [reshape, b.constant("fc/w", [5, 16], .float16), b.constant("fc/b", [5])], "fc")
        let sum = try b.op(.reduce(ReduceParams(.sum, axes: [0], keepDims: false)), [fc], "sum")
        b.output(sum); b.output(mean); b.output(dw)
        b.graph.metadata = [
            "source": "hand-built", "converter": "tests", "sha256": String(repeating: "ab", count: 32),
            "émoji ✓": "värde", "": "empty key"
        ]
        return b.graph
    }

    /// A small but realistic net (convs, depthwise, pad, pool, concat, FC) with about 20 KB of weights.
    static func smallNet() throws -> Graph {
        var b = BKMGraphBuilder()
        b.rng = SeededRandom(seed: 7)
        let x = b.input("input", [1, 32, 32, 3])
        let c1 = try b.op(
            .conv2D(Conv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .relu)),
            [x, b.constant("c1/w", [16, 3, 3, 3]), b.constant("c1/b", [16])], "c1")
        let d1 = try b.op(
            .depthwiseConv2D(DepthwiseConv2DParams(padding: .same, activation: .relu6)),
            [c1, b.constant("d1/w", [1, 3, 3, 16], .float16), b.constant("d1/b", [16])], "d1")
        let c2 = try b.op(.conv2D(Conv2DParams(padding: .same)), [d1, b.constant("c2/w", [32, 1, 1, 16], .float16)], "c2")
        let p = try b.op(.pad(PadParams(paddings: [[0, 0], [0, 1], [0, 1], [0, 0]])), [c2], "pad")
        let c3 = try b.op(
            .conv2D(Conv2DParams(strideH: 2, strideW: 2, padding: .valid, activation: .relu)),
            [p, b.constant("c3/w", [16, 3, 3, 32], .float16), b.constant("c3/b", [16], .float16)], "c3")
        let pool = try b.op(.maxPool2D(Pool2DParams(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .valid)), [c3], "pool")
        let side = try b.op(.conv2D(Conv2DParams(padding: .same)), [pool, b.constant("side/w", [8, 1, 1, 16])], "side")
        let cat = try b.op(.concatenation(ConcatenationParams(axis: 3)), [pool, side], "concat")
        let flat = try b.op(.reshape(ReshapeParams(shape: [1, 384])), [cat], "flatten")
        let fc = try b.op(.fullyConnected(FullyConnectedParams()), [flat, b.constant("fc/w", [4, 384], .float16), b.constant("fc/b", [4])], "logits")
        let prob = try b.op(.unary(.logistic), [fc], "prob")
        b.output(prob)
        b.graph.metadata = ["source": "smallNet", "converter": "BKMTestGraphs"]
        return b.graph
    }
}
