/// Plans every intermediate tensor of a graph into one arena.
///
/// 1. Lifetimes in op steps: a tensor lives from the step that writes it to its last reader. Graph
///    inputs live from before the first step to the end (so a caller can run again on the same
///    inputs), graph outputs to the end. `extendedReads` adds reads a fused step makes beyond the
///    graph's own (a folded PAD's source read by its conv, see `PadFolding`).
/// 2. Tensors that can share memory form a group with one offset:
///    - a RESHAPE output always shares its input's memory (the bytes are already in place, the
///      step becomes a no-op);
///    - with `inPlace`, an elementwise op (binary, unary, PRELU, LEAKY_RELU) writes into the memory of an
///      input that has the output's shape and dies at that step (no later reader in its group, no
///      other operand of the op in the same group), preferably the one written earliest.
/// 3. Groups whose lifetimes do not overlap share memory: greedy by size (largest first), first fit,
///    offsets 64-byte aligned.
struct ArenaPlan {
    /// Float offset of each tensor in the arena; `nil` for constants and unused tensors.
    var offsets: [Int?]
    /// Total arena size in floats.
    var floatCount: Int
    /// Per node: the index in `node.inputs` of the input whose memory its output reuses, if any
    /// (RESHAPE aliasing or in-place reuse).
    var sharedInput: [Int?]
    /// Per tensor: its group's representative tensor (itself when it shares with nobody).
    var group: [Int]
    /// Per tensor: first and last step of its lifetime (`-1` = before the first step).
    var first: [Int], last: [Int]

    var byteCount: Int { floatCount * MemoryLayout<Float>.stride }

    static let alignmentFloats = 16

    init(graph: Graph, inPlace: Bool = true, extendedReads: [Int: Int] = [:]) {
        let tensorCount = graph.tensors.count
        let end = graph.nodes.count
        var first = [Int](repeating: Int.max, count: tensorCount)
        var last = [Int](repeating: Int.min, count: tensorCount)
        for i in graph.inputs { first[i] = -1; last[i] = end }
        for (step, node) in graph.nodes.enumerated() {
            for t in node.inputs { last[t] = max(last[t], step) }
            for t in node.outputs { first[t] = min(first[t], step); last[t] = max(last[t], step) }
        }
        for o in graph.outputs { last[o] = end }
        for (t, step) in extendedReads { last[t] = max(last[t], step) }

        func isPlanned(_ t: Int) -> Bool { graph.tensors[t].constant == nil && first[t] != Int.max }
        let sizes = (0..<tensorCount).map { Self.roundUp(ShapeMath.elementCount(graph.tensors[$0].shape) ?? 0) }

        // Groups, built in step order; a group's lifetime is the union of its members'.
        var group = Array(0..<tensorCount)
        var groupFirst = first, groupLast = last, groupSize = sizes
        var sharedInput = [Int?](repeating: nil, count: graph.nodes.count)
        func join(_ t: Int, into member: Int) {
            let g = group[member]
            group[t] = g
            groupFirst[g] = min(groupFirst[g], first[t])
            groupLast[g] = max(groupLast[g], last[t])
            groupSize[g] = max(groupSize[g], sizes[t])
        }
        for (step, node) in graph.nodes.enumerated() {
            guard let out = node.outputs.first, isPlanned(out), group[out] == out else { continue }
            let outShape = graph.tensors[out].shape
            switch node.op {
            case .reshape:
                if isPlanned(node.inputs[0]) {
                    join(out, into: node.inputs[0])
                    sharedInput[step] = 0
                }
            case .binary, .unary, .prelu, .leakyRelu:
                guard inPlace else { break }
                // Prefer the operand written earliest: in a residual block that is the block input
                // (the fused conv then adds it in place: one stream through memory instead of two),
                // and it keeps the conv's result apart from the conv's input (see FusionPlan).
                let candidates =
                    node.op == .prelu
                    ? [0]
                    : node.inputs.indices.sorted { a, b in
                        (first[node.inputs[a]], a) < (first[node.inputs[b]], b)
                    }
                for k in candidates {
                    let t = node.inputs[k], g = group[t]
                    guard isPlanned(t), groupLast[g] == step, Self.sameIndexing(graph.tensors[t].shape, outShape) else { continue }
                    let othersShare = node.inputs.indices.contains { $0 != k && group[node.inputs[$0]] == g }
                    if othersShare { continue }
                    join(out, into: t)
                    sharedInput[step] = k
                    break
                }
            default:
                break
            }
        }

        // Place groups.
        let roots = (0..<tensorCount).filter { isPlanned($0) && group[$0] == $0 }
        let order = roots.sorted { groupSize[$0] != groupSize[$1] ? groupSize[$0] > groupSize[$1] : $0 < $1 }
        var rootOffset = [Int](repeating: 0, count: tensorCount)
        var placed: [(start: Int, end: Int, first: Int, last: Int)] = []
        var total = 0
        for g in order {
            let size = groupSize[g]
            let conflicts = placed.filter { $0.first <= groupLast[g] && groupFirst[g] <= $0.last }.sorted { $0.start < $1.start }
            var candidate = 0
            for c in conflicts {
                if candidate + size <= c.start { break }
                candidate = max(candidate, c.end)
            }
            rootOffset[g] = candidate
            placed.append((candidate, candidate + size, groupFirst[g], groupLast[g]))
            total = max(total, candidate + size)
        }
        offsets = (0..<tensorCount).map { isPlanned($0) ? rootOffset[group[$0]] : nil }
        floatCount = total
        self.sharedInput = sharedInput
        self.group = group
        self.first = first
        self.last = last
    }

    /// True when an operand of shape `operand` is read at the same linear index as the output of
    /// shape `output` for every output element (equal shapes up to leading 1s).
    static func sameIndexing(_ operand: [Int], _ output: [Int]) -> Bool {
        guard let c = ShapeMath.elementCount(operand), c == ShapeMath.elementCount(output) else { return false }
        return ShapeMath.broadcast(operand, output) == output
    }

    static func roundUp(_ n: Int) -> Int { (n + alignmentFloats - 1) / alignmentFloats * alignmentFloats }
}
