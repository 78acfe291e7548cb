/// Zero PADs of the spatial dims that the optimised path folds into the CONV_2D /
/// DEPTHWISE_CONV_2D reading them: the conv reads the PAD's source and treats the padding as its
/// own (`ConvGeometry.foldingPad`), so the padded copy is never written.
///
/// Decided from the graph alone, before the arena is planned: a fold makes the conv read the
/// source, so the source must stay alive until the conv's step (`extendedReads`).
///
/// Folded when the PAD pads only H and W of a rank-4 tensor with zeros, and its output is read by
/// nothing but input 0 of one conv (and is not a graph output).
struct PadFolding {
    /// What a conv reads instead of its padded input.
    struct Fold: Equatable {
        /// The PAD's input tensor.
        var source: Int
        var top: Int, left: Int
        /// Shape of the PAD's output (the conv's declared input shape).
        var paddedShape: [Int]
    }

    /// Conv node index → its fold.
    private(set) var folds: [Int: Fold] = [:]
    /// PAD nodes folded away.
    private(set) var skipped: Set<Int> = []
    /// Tensor → the last step that now reads it (a fold's source, read by its conv).
    private(set) var extendedReads: [Int: Int] = [:]

    init(graph: Graph) {
        var consumers = [Int](repeating: 0, count: graph.tensors.count)
        var producer = [Int?](repeating: nil, count: graph.tensors.count)
        for (i, node) in graph.nodes.enumerated() {
            for t in node.inputs { consumers[t] += 1 }
            for t in node.outputs { producer[t] = i }
        }
        let graphOutputs = Set(graph.outputs)
        for (i, node) in graph.nodes.enumerated() {
            switch node.op {
            case .conv2D, .depthwiseConv2D: break
            default: continue
            }
            let padded = node.inputs[0]
            guard consumers[padded] == 1, !graphOutputs.contains(padded), let k = producer[padded],
                case .pad(let p) = graph.nodes[k].op, p.value == 0, p.paddings.count == 4,
                p.paddings[0] == [0, 0], p.paddings[3] == [0, 0]
            else { continue }
            let source = graph.nodes[k].inputs[0]
            guard graph.tensors[source].shape.count == 4 else { continue }
            folds[i] = Fold(
                source: source, top: p.paddings[1][0], left: p.paddings[2][0],
                paddedShape: graph.tensors[padded].shape)
            skipped.insert(k)
            extendedReads[source] = max(extendedReads[source] ?? i, i)
        }
    }

    /// The tensor node `index` reads as input `slot` once folds are applied.
    func input(_ slot: Int, of node: Node, at index: Int) -> Int {
        if slot == 0, let f = folds[index] { return f.source }
        return node.inputs[slot]
    }
}
