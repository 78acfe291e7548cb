/// Zero PADs of the spatial dims that the optimised path folds into the CONV_2D /
/// DEPTHWISE_CONV_2D reading them: the conv reads the PAD's source and treats the padding as its
/// own (`ConvGeometry.foldingPad`), so the padded copy is never written.
///
/// A lowering pass decided from the graph alone, before the arena is planned: a fold makes the conv
/// read the source, so the source must stay alive until the conv's step (`extendedReads`).
///
/// Folded when the PAD pads only H and W of a rank-4 tensor with zeros, and its output is read by
/// nothing but input 0 of one conv (and is not a graph output).
///
/// A TRANSPOSE whose source is the conv input stored channel-major (`[C, pixels]` once unit axes
/// are dropped, e.g. `[1, 1, C, W]` → `[1, 1, W, C]`) folds the same way into a pointwise CONV_2D
/// that reads the source directly (`channelMajor`): MLP-Mixer token mixing transposes its tokens
/// before each 1×1 conv.
struct PadFolding {
    /// What a conv reads instead of its padded (or transposed) input.
    struct Fold: Equatable {
        /// The PAD's (TRANSPOSE's) input tensor.
        var source: Int
        var top: Int, left: Int
        /// Shape of the PAD's (TRANSPOSE's) output: the conv's declared input shape.
        var paddedShape: [Int]
        /// The source is the conv input stored `[C, N·H·W]` (a folded TRANSPOSE; no padding).
        var channelMajor = false
    }

    /// Conv node index → its fold.
    private(set) var folds: [Int: Fold] = [:]
    /// PAD nodes folded away.
    private(set) var skipped: Set<Int> = []
    /// Tensor → the last step that now reads it (a fold's source, read by its conv).
    private(set) var extendedReads: [Int: Int] = [:]

    /// A fold claims the PAD / TRANSPOSE it removes; neither it nor the conv may be claimed already
    /// (a channel-major chain's nodes). The conv stays unclaimed: conv fusion may still take it.
    init(graph: Graph, claims: inout NodeClaims) {
        let consumers = graph.consumerCounts
        var producer = [Int?](repeating: nil, count: graph.tensors.count)
        for (i, node) in graph.nodes.enumerated() {
            for t in node.outputs { producer[t] = i }
        }
        let graphOutputs = Set(graph.outputs)
        for (i, node) in graph.nodes.enumerated() {
            switch node.op {
            case .conv2D, .depthwiseConv2D: break
            default: continue
            }
            let padded = node.inputs[0]
            guard consumers[padded] == 1, !graphOutputs.contains(padded), let k = producer[padded], !claims.isClaimed(i),
                !claims.isClaimed(k)
            else { continue }
            let source = graph.nodes[k].inputs[0]
            let paddedShape = graph.tensors[padded].shape
            switch graph.nodes[k].op {
            case .pad(let p):
                guard p.value == 0, p.paddings.count == 4, p.paddings[0] == [0, 0], p.paddings[3] == [0, 0],
                    graph.tensors[source].shape.count == 4
                else { continue }
                folds[i] = Fold(source: source, top: p.paddings[1][0], left: p.paddings[2][0], paddedShape: paddedShape)
            case .transpose(let t):
                guard node.inputs.count >= 2, Self.isPointwise(filter: graph.tensors[node.inputs[1]].shape, node.op),
                    Self.isChannelMajor(perm: t.perm, output: paddedShape)
                else { continue }
                folds[i] = Fold(source: source, top: 0, left: 0, paddedShape: paddedShape, channelMajor: true)
            default:
                continue
            }
            claims.claim([k])
            skipped.insert(k)
            extendedReads[source] = max(extendedReads[source] ?? i, i)
        }
    }

    /// The folds of `graph` with no other pass before them.
    init(graph: Graph) {
        var claims = NodeClaims(nodeCount: graph.nodes.count)
        self.init(graph: graph, claims: &claims)
    }

    /// A 1×1 stride-1 CONV_2D (any padding: a 1×1 window pads nothing).
    static func isPointwise(filter: [Int], _ op: Op) -> Bool {
        guard case .conv2D(let p) = op, filter.count == 4 else { return false }
        return filter[1] == 1 && filter[2] == 1 && p.strideH == 1 && p.strideW == 1
    }

    /// Whether TRANSPOSE `perm` producing the NHWC `output` reads a source laid out `[C, pixels]`:
    /// the source's axes of size > 1, in memory order, are the output's channel axis and then its
    /// pixel axes in their own order.
    static func isChannelMajor(perm: [Int], output: [Int]) -> Bool {
        guard perm.count == 4, output.count == 4, Set(perm) == Set(0..<4), output[3] > 1 else { return false }
        // Source axis perm[k] is output axis k.
        var outputAxisOfSource = [Int](repeating: 0, count: 4)
        for k in 0..<4 { outputAxisOfSource[perm[k]] = k }
        let order = outputAxisOfSource.filter { output[$0] > 1 }
        return order == [3] + (0..<3).filter { output[$0] > 1 }
    }

    /// The tensor node `index` reads as input `slot` once folds are applied.
    func input(_ slot: Int, of node: Node, at index: Int) -> Int {
        if slot == 0, let f = folds[index] { return f.source }
        return node.inputs[slot]
    }
}
