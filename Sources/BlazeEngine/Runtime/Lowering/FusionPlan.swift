/// What a fused conv step folds into its kernel's epilogue, by tensor (a session binds it to
/// memory as a `ConvFusion`): `y = prelu(residualActivation(act(conv + bias) + residual))`.
struct ConvEpilogue: Equatable {
    /// Replaces the conv's own activation (`.none`) with a RELU-family op that follows it.
    var activation: Activation?
    var residual: Int?
    var residualActivation: Activation = .none
    /// Channels per pixel of the residual when fewer than the output's (an ADD of a channel-padded
    /// tensor); nil: the output's layout.
    var residualChannels: Int?
    /// A fused PRELU's per-channel alpha.
    var prelu: Int?
}

/// Which nodes of a graph the optimised path fuses into the conv before them, decided once per
/// model from the graph and the planned arena (`TensorMemory`):
/// - CONV_2D / DEPTHWISE_CONV_2D without activation → RELU / RELU6 / RELU_N1_TO_1,
/// - CONV_2D / DEPTHWISE_CONV_2D → PRELU (per-channel constant alpha),
/// - CONV_2D / DEPTHWISE_CONV_2D → ADD (same-shape residual) [→ RELU / RELU6 / RELU_N1_TO_1 | PRELU],
/// - CONV_2D → PAD (zeros after the channels only) → ADD of the conv and the padded tensor [→ …]: the
///   PAD's source is the residual, with fewer channels (BlazeFace's channel-growing shortcut).
/// Only when the fused nodes follow each other directly in execution order, every intermediate
/// tensor has exactly one consumer and is not a graph output, and the final output does not overlap
/// the conv input (the residual is either the output itself or disjoint). The conv node then writes
/// the last node's output; the nodes fused away become `.none` steps.
struct FusionPlan {
    struct Entry {
        var epilogue: ConvEpilogue
        /// Tensor the fused step writes (the last fused node's output).
        var output: Int
    }

    /// Conv node index → its fusion (the nodes it folds in are claimed with it).
    private(set) var fused: [Int: Entry] = [:]

    /// A fusion takes the conv and the nodes it absorbs from `claims`; none of them may be claimed
    /// already (a channel-major chain's nodes).
    init(graph: Graph, folding: PadFolding, kernels: any ISAKernelSet.Type, memory: TensorMemory, claims: inout NodeClaims) {
        let nodes = graph.nodes
        let consumers = graph.consumerCounts
        let graphOutputs = Set(graph.outputs)
        func intermediate(_ t: Int) -> Bool {
            consumers[t] == 1 && !graphOutputs.contains(t) && graph.tensors[t].constant == nil
        }
        func count(_ t: Int) -> Int { graph.tensors[t].shape.reduce(1, *) }
        /// A constant per-channel alpha for `channels` outputs.
        func preluAlpha(_ node: Node, input t: Int, channels: Int) -> Int? {
            guard case .prelu = node.op, node.inputs.count == 2, node.inputs[0] == t else { return nil }
            let a = node.inputs[1]
            let shape = graph.tensors[a].shape
            guard graph.tensors[a].constant != nil, count(a) == channels, shape.last == channels else { return nil }
            return a
        }
        /// The ADD at `k` (or at `k + 1` after a channel PAD at `k`) of conv `c`'s output and a residual
        /// of the same shape, or of a tensor zero-padded at the end of its channels only.
        func residualAdd(at k: Int, conv c: Int, isDepthwise: Bool)
            -> (node: Int, residual: Int, channels: Int?, activation: Activation)?
        {
            let t = nodes[c].outputs[0]
            let shape = graph.tensors[t].shape
            func add(_ node: Node) -> (other: Int, activation: Activation)? {
                guard case .binary(let bp) = node.op, bp.kind == .add, node.inputs.count == 2, node.inputs.contains(t),
                    node.inputs[0] != node.inputs[1], graph.tensors[node.outputs[0]].shape == shape
                else { return nil }
                return (node.inputs[0] == t ? node.inputs[1] : node.inputs[0], bp.activation)
            }
            if let a = add(nodes[k]) {
                guard graph.tensors[a.other].shape == shape else { return nil }
                return (k, a.other, nil, a.activation)
            }
            // conv → PAD(x, channels only) → ADD(conv, padded x)
            guard !isDepthwise, k + 1 < nodes.count, case .pad(let p) = nodes[k].op, p.value == 0,
                p.paddings.count == shape.count, p.paddings.dropLast().allSatisfy({ $0 == [0, 0] }),
                p.paddings.last?[0] == 0
            else { return nil }
            let padded = nodes[k].outputs[0], source = nodes[k].inputs[0]
            guard intermediate(padded), graph.tensors[source].constant == nil, let a = add(nodes[k + 1]), a.other == padded,
                let rc = graph.tensors[source].shape.last
            else { return nil }
            return (k + 1, source, rc, a.activation)
        }

        var i = 0
        while i < nodes.count {
            defer { i += 1 }
            let conv = nodes[i]
            guard conv.outputs.count == 1, conv.inputs.count >= 2 else { continue }
            let t = conv.outputs[0]
            let channels: Int
            let isDepthwise: Bool
            let activation: Activation
            let inputShape = graph.tensors[conv.inputs[0]].shape, filterShape = graph.tensors[conv.inputs[1]].shape
            switch conv.op {
            case .conv2D(let p):
                activation = p.activation
                guard let g = try? p.geometry(input: inputShape, filter: filterShape) else { continue }
                // Levels that leave non-pointwise convs to im2col + OpenBLAS fuse only pointwise ones
                // (OpenBLAS inside the packed kernel).
                if !kernels.prefersPackedConv(g) && !GemmStep.isPointwise(g) { continue }
                channels = g.outC
                isDepthwise = false
            case .depthwiseConv2D(let p):
                activation = p.activation
                guard let g = try? p.geometry(input: inputShape, filter: filterShape) else { continue }
                channels = g.outC
                isDepthwise = true
            default: continue
            }
            guard intermediate(t), i + 1 < nodes.count else { continue }
            var fusion = ConvEpilogue()
            var last = i + 1
            let next = nodes[i + 1]
            if let a = preluAlpha(next, input: t, channels: channels) {
                fusion.prelu = a
            } else if activation == .none, case .unary(let kind) = next.op, next.inputs == [t], let a = kind.clampActivation {
                fusion.activation = a
            } else if let add = residualAdd(at: i + 1, conv: i, isDepthwise: isDepthwise) {
                fusion.residual = add.residual
                fusion.residualChannels = add.channels
                fusion.residualActivation = add.activation
                last = add.node
                let u = nodes[add.node].outputs[0]
                if intermediate(u), add.node + 1 < nodes.count {
                    let after = nodes[add.node + 1]
                    if let a = preluAlpha(after, input: u, channels: channels) {
                        fusion.prelu = a; last = add.node + 1
                    } else if case .unary(let kind) = after.op, add.activation == .none, after.inputs == [u],
                        let a = kind.clampActivation
                    {
                        fusion.residualActivation = a; last = add.node + 1
                    }
                }
            } else {
                continue
            }
            if claims.anyClaimed(i...last) { continue }
            let out = nodes[last].outputs[0]
            let n = count(out)
            let input = folding.input(0, of: conv, at: i)
            guard memory.disjoint(out, count: n, input, count: count(input)) else { continue }
            if let r = fusion.residual, let rc = fusion.residualChannels {
                // A narrower residual is read at other offsets than the output is written: disjoint only.
                guard memory.disjoint(out, count: n, r, count: n / channels * rc) else { continue }
            } else if let r = fusion.residual, !memory.same(r, out), !memory.disjoint(out, count: n, r, count: n) {
                continue
            }
            fused[i] = Entry(epilogue: fusion, output: out)
            claims.claim(i...last)
            i = last
        }
    }
}
