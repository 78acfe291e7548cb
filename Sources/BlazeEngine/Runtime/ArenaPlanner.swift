/// Plans every intermediate tensor of a graph into one arena: tensors whose lifetimes do not
/// overlap share memory. Greedy by size (largest first), first fit, offsets 64-byte aligned.
struct ArenaPlan {
    /// Float offset of each tensor in the arena; `nil` for constants.
    var offsets: [Int?]
    /// Total arena size in floats.
    var floatCount: Int

    var byteCount: Int { floatCount * MemoryLayout<Float>.stride }

    static let alignmentFloats = 16

    init(graph: Graph) {
        let tensorCount = graph.tensors.count
        // Lifetime in op steps: graph inputs are born at step -1, outputs live to the end.
        var first = [Int](repeating: Int.max, count: tensorCount)
        var last = [Int](repeating: Int.min, count: tensorCount)
        for i in graph.inputs { first[i] = -1; last[i] = max(last[i], -1) }
        for (step, node) in graph.nodes.enumerated() {
            for t in node.inputs { last[t] = max(last[t], step) }
            for t in node.outputs { first[t] = min(first[t], step); last[t] = max(last[t], step) }
        }
        for o in graph.outputs { last[o] = graph.nodes.count }

        let planned = (0..<tensorCount).filter { graph.tensors[$0].constant == nil && first[$0] != Int.max }
        let sizes = planned.map { Self.roundUp(ShapeMath.elementCount(graph.tensors[$0].shape) ?? 0) }
        let order = planned.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : planned[$0] < planned[$1] }

        var offsets = [Int?](repeating: nil, count: tensorCount)
        var placed: [(start: Int, end: Int, first: Int, last: Int)] = []
        var total = 0
        for k in order {
            let t = planned[k], size = sizes[k]
            let conflicts = placed.filter { $0.first <= last[t] && first[t] <= $0.last }.sorted { $0.start < $1.start }
            var candidate = 0
            for c in conflicts {
                if candidate + size <= c.start { break }
                candidate = max(candidate, c.end)
            }
            offsets[t] = candidate
            placed.append((candidate, candidate + size, first[t], last[t]))
            total = max(total, candidate + size)
        }
        self.offsets = offsets
        self.floatCount = total
    }

    static func roundUp(_ n: Int) -> Int { (n + alignmentFloats - 1) / alignmentFloats * alignmentFloats }
}
