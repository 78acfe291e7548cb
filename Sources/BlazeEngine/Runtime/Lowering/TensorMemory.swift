/// Where each tensor of a lowered graph lives: constants in the model's weights, the rest at their
/// arena offsets. Lets the passes that depend on memory overlap (conv fusion, layer norms) decide
/// once per model, before any session allocates its arena.
struct TensorMemory {
    /// A tensor's block and float offset in it; tensors in different blocks never overlap.
    struct Location: Equatable {
        var isConstant: Bool
        var offset: Int
    }

    let graph: Graph
    let arena: ArenaPlan
    /// Float offset of each constant in the model's weights.
    let constantOffsets: [Int]

    func location(_ t: Int) -> Location {
        if let c = graph.tensors[t].constant { return Location(isConstant: true, offset: constantOffsets[c]) }
        // A tensor no step touches is given the arena's start, as a session binds it.
        return Location(isConstant: false, offset: arena.offsets[t] ?? 0)
    }

    /// Whether `count` floats of `a` and `otherCount` floats of `b` share no memory.
    func disjoint(_ a: Int, count: Int, _ b: Int, count otherCount: Int) -> Bool {
        let x = location(a), y = location(b)
        return x.isConstant != y.isConstant || x.offset + count <= y.offset || y.offset + otherCount <= x.offset
    }

    /// Whether `a` and `b` start at the same memory.
    func same(_ a: Int, _ b: Int) -> Bool { location(a) == location(b) }
}
