import BlazeEngineCore

/// Pointwise convs between two transposes — MLP-Mixer token mixing as TFLite writes it:
///
///     t = TRANSPOSE(x)            x stored [K, P]: t is its NHWC view, P pixels of K channels
///     h = CONV_2D 1×1(t) …        one or more pointwise convs, each reading the previous output
///     z = TRANSPOSE(h)            back to [O, P]
///     [y = ADD(z, r)]             optionally the residual, r shaped like z
///
/// run as one step of channel-major convs (`ChannelMajorConvKernel`): each conv reads `[K, P]`
/// and writes `[O, P]`, so neither transpose is ever done and the last conv adds the residual.
/// The intermediate `[Oᵢ, P]` results go to the memory of the convs' own outputs (same sizes).
///
/// A lowering pass decided from the graph alone, before the arena is planned: the step runs at the chain's last
/// node and reads `x` and writes the intermediates there (`extendedReads` keeps them alive).
/// Matched only when the nodes follow each other in execution order, every tensor between `x`
/// and the last node has exactly one consumer (the next node) and is not a graph output, the
/// filters (and biases) are constants, the transposes swap channels and pixels as above, and there
/// are at least `minPixels` pixels (the vector axis; fewer would run mostly one pixel at a time).
struct ChannelMajorConvChains {
    struct Chain: Equatable {
        /// `x`, stored `[K, P]`.
        var source: Int
        /// The conv nodes, in order.
        var convs: [Int]
        /// Where conv `i` (all but the last) writes its `[Oᵢ, P]` result: its own output tensor.
        var buffers: [Int]
        /// The ADD's other operand and activation, if the chain ends with the residual ADD.
        var residual: Int?
        var residualActivation: Activation
        /// Tensor the step writes (the second TRANSPOSE's or the ADD's output).
        var output: Int
        /// Node indices covered; the step runs at the last.
        var nodes: ClosedRange<Int>
    }

    /// Last node index → its chain.
    private(set) var chains: [Int: Chain] = [:]
    /// Covered nodes other than the last.
    private(set) var skipped: Set<Int> = []
    /// Tensor → the last step that now reads it.
    private(set) var extendedReads: [Int: Int] = [:]

    /// The chains of `graph` with no other pass before them.
    init(graph: Graph, minPixels: Int) {
        var claims = NodeClaims(nodeCount: graph.nodes.count)
        self.init(graph: graph, minPixels: minPixels, claims: &claims)
    }

    /// A chain claims all its nodes; none may be claimed already.
    init(graph: Graph, minPixels: Int, claims: inout NodeClaims) {
        let consumers = graph.consumerCounts
        let graphOutputs = Set(graph.outputs)
        func internalTensor(_ t: Int) -> Bool {
            consumers[t] == 1 && !graphOutputs.contains(t) && graph.tensors[t].constant == nil
        }
        var i = 0
        while i < graph.nodes.count {
            if let chain = Self.match(at: i, graph, internalTensor), Self.pixels(chain, graph) >= minPixels,
                !claims.anyClaimed(chain.nodes)
            {
                claims.claim(chain.nodes)
                chains[chain.nodes.upperBound] = chain
                skipped.formUnion(chain.nodes.dropLast())
                for t in [chain.source] + chain.buffers { extendedReads[t] = chain.nodes.upperBound }
                i = chain.nodes.upperBound + 1
            } else {
                i += 1
            }
        }
    }

    /// The chain's pixel count (P of every `[C, P]` tensor in it).
    static func pixels(_ chain: Chain, _ graph: Graph) -> Int {
        graph.tensors[graph.nodes[chain.convs[0]].outputs[0]].shape.dropLast().reduce(1, *)
    }

    private static func match(at first: Int, _ graph: Graph, _ internalTensor: (Int) -> Bool) -> Chain? {
        let nodes = graph.nodes
        func shape(_ t: Int) -> [Int] { graph.tensors[t].shape }
        guard case .transpose(let t1) = nodes[first].op, nodes[first].outputs.count == 1 else { return nil }
        let source = nodes[first].inputs[0]
        var previous = nodes[first].outputs[0]
        guard graph.tensors[source].constant == nil, internalTensor(previous),
            PadFolding.isChannelMajor(perm: t1.perm, output: shape(previous))
        else { return nil }
        let pixels = shape(previous).dropLast().reduce(1, *)

        var convs: [Int] = []
        var k = first + 1
        while k < nodes.count, case .conv2D = nodes[k].op, nodes[k].inputs.count >= 2, nodes[k].inputs[0] == previous,
            nodes[k].outputs.count == 1
        {
            let filter = nodes[k].inputs[1]
            let bias = nodes[k].inputs.count > 2 ? nodes[k].inputs[2] : nil
            let out = nodes[k].outputs[0]
            guard PadFolding.isPointwise(filter: shape(filter), nodes[k].op), graph.tensors[filter].constant != nil,
                bias.map({ graph.tensors[$0].constant != nil }) ?? true, internalTensor(out),
                shape(out).dropLast().reduce(1, *) == pixels
            else { return nil }
            convs.append(k)
            previous = out
            k += 1
        }
        guard !convs.isEmpty, k < nodes.count, case .transpose(let t2) = nodes[k].op, nodes[k].inputs[0] == previous,
            nodes[k].outputs.count == 1
        else { return nil }
        // The second TRANSPOSE undoes the first kind: read backwards, it makes the conv output's NHWC
        // view of a `[O, P]` tensor.
        var inverse = [Int](repeating: 0, count: t2.perm.count)
        for (axis, sourceAxis) in t2.perm.enumerated() where sourceAxis >= 0 && sourceAxis < inverse.count {
            inverse[sourceAxis] = axis
        }
        guard PadFolding.isChannelMajor(perm: inverse, output: shape(previous)) else { return nil }
        var output = nodes[k].outputs[0]
        var residual: Int?
        var residualActivation = Activation.none
        var last = k
        if k + 1 < nodes.count, internalTensor(output), case .binary(let add) = nodes[k + 1].op, add.kind == .add,
            nodes[k + 1].inputs.count == 2, nodes[k + 1].inputs.contains(output), nodes[k + 1].inputs[0] != nodes[k + 1].inputs[1]
        {
            let other = nodes[k + 1].inputs[0] == output ? nodes[k + 1].inputs[1] : nodes[k + 1].inputs[0]
            let sum = nodes[k + 1].outputs[0]
            if shape(other) == shape(output), shape(sum) == shape(output), graph.tensors[other].constant == nil {
                residual = other
                residualActivation = add.activation
                output = sum
                last = k + 1
            }
        }
        return Chain(
            source: source, convs: convs, buffers: convs.dropLast().map { nodes[$0].outputs[0] }, residual: residual,
            residualActivation: residualActivation, output: output, nodes: first...last)
    }
}
