/// What a fused conv step folds into its kernel's epilogue (see `FusedEpilogue`):
/// `y = prelu(residualActivation(act(conv + bias) + residual))`.
struct ConvFusion {
    var residual: UnsafePointer<Float>?
    var residualActivation: Activation = .none
    var prelu: UnsafePointer<Float>?
}

/// Which nodes of a graph the optimised path fuses, decided once per session from the graph and the
/// arena addresses:
/// - CONV_2D / DEPTHWISE_CONV_2D → PRELU (per-channel constant alpha),
/// - CONV_2D / DEPTHWISE_CONV_2D → ADD (same-shape residual) [→ RELU / RELU6 / RELU_N1_TO_1 | PRELU].
/// Only when the fused nodes follow each other directly in execution order, every intermediate
/// tensor has exactly one consumer and is not a graph output, and the final output does not overlap
/// the conv input (the residual is either the output itself or disjoint). The conv node then writes
/// the last node's output; the nodes fused away become `.none` steps.
struct FusionPlan {
    struct Entry {
        var fusion: ConvFusion
        /// Tensor the fused step writes (the last fused node's output).
        var output: Int
    }

    /// Conv node index → its fusion.
    private(set) var fused: [Int: Entry] = [:]
    /// Nodes folded into an earlier conv node.
    private(set) var skipped: Set<Int> = []

    init(graph: Graph, pointer: (Int) -> UnsafeMutablePointer<Float>) {
        let nodes = graph.nodes
        var consumers = [Int](repeating: 0, count: graph.tensors.count)
        for node in nodes { for t in node.inputs { consumers[t] += 1 } }
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
        func disjoint(_ a: UnsafePointer<Float>, _ n: Int, _ b: UnsafePointer<Float>, _ m: Int) -> Bool {
            a + n <= b || b + m <= a
        }

        var i = 0
        while i < nodes.count {
            defer { i += 1 }
            let conv = nodes[i]
            guard conv.outputs.count == 1, conv.inputs.count >= 2 else { continue }
            let t = conv.outputs[0]
            let channels: Int
            switch conv.op {
            case .conv2D(let p):
                guard let g = try? p.geometry(input: graph.tensors[conv.inputs[0]].shape,
                                              filter: graph.tensors[conv.inputs[1]].shape) else { continue }
                // Baseline build: only pointwise convs (OpenBLAS inside the packed kernel) are fused;
                // the others stay on im2col + OpenBLAS.
                if !SIMDBuild.isTuned && !GemmStep.isPointwise(g) { continue }
                channels = g.outC
            case .depthwiseConv2D(let p):
                guard let g = try? p.geometry(input: graph.tensors[conv.inputs[0]].shape,
                                              filter: graph.tensors[conv.inputs[1]].shape) else { continue }
                channels = g.outC
            default: continue
            }
            guard intermediate(t), i + 1 < nodes.count else { continue }
            var fusion = ConvFusion()
            var last = i + 1
            let next = nodes[i + 1]
            if let a = preluAlpha(next, input: t, channels: channels) {
                fusion.prelu = UnsafePointer(pointer(a))
            } else if case .binary(let bp) = next.op, bp.kind == .add, next.inputs.count == 2,
                      next.inputs.contains(t), next.inputs[0] != next.inputs[1] {
                let r = next.inputs[0] == t ? next.inputs[1] : next.inputs[0]
                let u = next.outputs[0]
                guard graph.tensors[r].shape == graph.tensors[t].shape, graph.tensors[u].shape == graph.tensors[t].shape
                else { continue }
                fusion.residual = UnsafePointer(pointer(r))
                fusion.residualActivation = bp.activation
                if intermediate(u), i + 2 < nodes.count {
                    let after = nodes[i + 2]
                    if let a = preluAlpha(after, input: u, channels: channels) {
                        fusion.prelu = UnsafePointer(pointer(a)); last = i + 2
                    } else if case .unary(let kind) = after.op, bp.activation == .none, after.inputs == [u] {
                        switch kind {
                        case .relu: fusion.residualActivation = .relu; last = i + 2
                        case .relu6: fusion.residualActivation = .relu6; last = i + 2
                        case .reluMinus1To1: fusion.residualActivation = .reluMinus1To1; last = i + 2
                        default: break
                        }
                    }
                }
            } else {
                continue
            }
            let out = nodes[last].outputs[0]
            let n = count(out)
            let y = UnsafePointer(pointer(out))
            let x = UnsafePointer(pointer(conv.inputs[0]))
            guard disjoint(y, n, x, count(conv.inputs[0])) else { continue }
            if let r = fusion.residual, r != y, !disjoint(y, n, r, n) { continue }
            fused[i] = Entry(fusion: fusion, output: out)
            for j in (i + 1)...last { skipped.insert(j) }
            i = last
        }
    }
}
