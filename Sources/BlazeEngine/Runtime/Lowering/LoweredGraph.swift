import BlazeEngineCore

/// A graph lowered to the steps a session runs: which nodes each step does, which tensors it reads
/// and writes, and where every tensor lives in the arena. Made once per `Model` and kernel set; a
/// `Session` only binds these tensors to its own memory and the model's packed weights.
///
/// The optimised lowering runs its passes in one order, each taking nodes through one
/// `NodeClaims`:
/// 1. `ChannelMajorConvChains` — transposed pointwise chains, where the level prefers them;
/// 2. `PadFolding` — zero PADs (and channel-major TRANSPOSEs) into the convs reading them;
/// 3. `ArenaPlan` — memory, in place where it can, with the reads passes 1–2 moved;
/// 4. `FusionPlan` — RELU / PRELU / residual ADD into the conv before them;
/// 5. `LayerNormFusion` — ten-node layer normalisations as one step.
/// Passes 4–5 depend on which tensors share memory, so they follow the arena plan. The reference
/// lowering is one step per node, every tensor its own memory, nothing written in place.
struct LoweredGraph {
    enum Step {
        /// Work another step does (a folded PAD, a node fused into a conv or a layer norm, a
        /// chain's inner nodes).
        case absorbed
        case node(NodeStep)
        case layerNorm(LayerNormFusion.Match)
        /// Runs at the chain's last node.
        case channelMajorConvs(ChannelMajorConvChains.Chain)
    }

    /// One graph node, with what the passes folded into it.
    struct NodeStep {
        var node: Int
        /// Tensors read, in the node's input order (a fold's source in place of the conv's input).
        var inputs: [Int]
        /// Tensor written (with an epilogue: the last fused node's output).
        var output: Int
        var fold: PadFolding.Fold?
        var epilogue: ConvEpilogue?
    }

    /// One step per graph node, in node order.
    let steps: [Step]
    let arena: ArenaPlan
    /// Floats of im2col scratch a session needs.
    let scratchFloats: Int

    /// Lowers `graph` for `kernels` on `level`; `constantOffsets` places the model's constants.
    init(graph: Graph, kernels: KernelSet, level: any ISAKernelSet.Type, constantOffsets: [Int]) {
        guard kernels == .optimized else {
            arena = ArenaPlan(graph: graph, inPlace: false)
            steps = graph.nodes.enumerated().map { index, node in
                .node(NodeStep(node: index, inputs: node.inputs, output: node.outputs[0]))
            }
            scratchFloats = 0
            return
        }
        var claims = NodeClaims(nodeCount: graph.nodes.count)
        let chains =
            level.prefersChannelMajorConv
            ? ChannelMajorConvChains(graph: graph, minPixels: 2 * level.lanes, claims: &claims) : nil
        let folding = PadFolding(graph: graph, claims: &claims)
        var extendedReads = folding.extendedReads
        for (t, step) in chains?.extendedReads ?? [:] { extendedReads[t] = max(extendedReads[t] ?? step, step) }
        let arena = ArenaPlan(graph: graph, inPlace: true, extendedReads: extendedReads)
        let memory = TensorMemory(graph: graph, arena: arena, constantOffsets: constantOffsets)
        let fusion = FusionPlan(graph: graph, folding: folding, kernels: level, memory: memory, claims: &claims)
        let layerNorms = LayerNormFusion(graph: graph).accepted(memory: memory, claims: &claims)

        steps = graph.nodes.enumerated().map { index, node in
            if let chain = chains?.chains[index] { return .channelMajorConvs(chain) }
            if let m = layerNorms[index] { return .layerNorm(m) }
            let fused = fusion.fused[index]
            if claims.isClaimed(index) && fused == nil { return .absorbed }
            return .node(
                NodeStep(
                    node: index, inputs: node.inputs.indices.map { folding.input($0, of: node, at: index) },
                    output: fused?.output ?? node.outputs[0], fold: folding.folds[index], epilogue: fused?.epilogue))
        }
        self.arena = arena
        scratchFloats =
            graph.nodes.map { node in
                PlannedStep.scratchCount(node.op, inputs: node.inputs.map { graph.tensors[$0].shape })
            }.max() ?? 0
    }

    /// The graph nodes whose arithmetic step `index` does: the node itself, a chain's convs at its
    /// last node, none where the work is done elsewhere.
    func nodes(doneAt index: Int) -> [Int] {
        switch steps[index] {
        case .absorbed: return []
        case .node, .layerNorm: return [index]
        case .channelMajorConvs(let chain): return chain.convs
        }
    }
}
