/// Layer normalisations over the last axis that TFLite converters write as ten elementwise
/// nodes, found in the graph so the optimised path runs each as one `LayerNormStep` (a lowering
/// pass that needs the planned arena: see `accepted`):
///
///     m = MEAN(x, last axis, keepDims)      d = SQUARED_DIFFERENCE(x, m)
///     v = MEAN(d, last axis, keepDims)      r = RSQRT(ADD(v, ε))          s = MUL(r, γ)
///     y = ADD(MUL(x, s), MUL(NEG(m), s))            (no β: Keras `center=False`)
///     y = ADD(MUL(x, s), SUB(β, MUL(m, s)))         (β)
///
/// ADD, MUL and SQUARED_DIFFERENCE operands may come in either order. ε is a one-element
/// constant, γ and β constants of `C` values along the last axis (`C` ≥ 2). Matched only when the
/// ten nodes follow each other in execution order (so nothing else runs between them), none has a
/// fused activation, every intermediate tensor is read by these nodes only and is no graph
/// output, and `y` has `x`'s shape. The step runs at the first node; the other nine become
/// `.none` steps.
struct LayerNormFusion {
    struct Match: Equatable {
        var input: Int
        var output: Int
        var gamma: Int
        var beta: Int?
        var epsilon: Int
        /// Rows of `channels` values (the last axis).
        var rows: Int, channels: Int
        /// Node indices covered, the first one runs the step.
        var nodes: ClosedRange<Int>
    }

    /// First node index → its match.
    private(set) var matches: [Int: Match] = [:]

    static let nodeCount = 10

    init(graph: Graph) {
        let consumers = graph.consumerCounts
        let graphOutputs = Set(graph.outputs)
        var i = 0
        while i + Self.nodeCount <= graph.nodes.count {
            if let m = Self.match(at: i, graph, consumers: consumers, graphOutputs: graphOutputs) {
                matches[i] = m
                i = m.nodes.upperBound + 1
            } else {
                i += 1
            }
        }
    }

    /// The matches the optimised plan runs, by first node: none of their nodes claimed by an earlier
    /// pass, and an output that can be written before the nodes it replaces would have run
    /// (disjoint from the input, or exactly over it). Each claims its ten nodes.
    func accepted(memory: TensorMemory, claims: inout NodeClaims) -> [Int: Match] {
        var accepted: [Int: Match] = [:]
        for (first, m) in matches.sorted(by: { $0.key < $1.key }) where !claims.anyClaimed(m.nodes) {
            let n = m.rows * m.channels
            guard memory.same(m.input, m.output) || memory.disjoint(m.input, count: n, m.output, count: n) else { continue }
            claims.claim(m.nodes)
            accepted[first] = m
        }
        return accepted
    }

    private static func match(at first: Int, _ graph: Graph, consumers: [Int], graphOutputs: Set<Int>) -> Match? {
        let window = first...(first + nodeCount - 1)
        let nodes = graph.nodes
        let tensors = graph.tensors
        func shape(_ t: Int) -> [Int] { tensors[t].shape }
        func isConstant(_ t: Int) -> Bool { tensors[t].constant != nil }
        func count(_ t: Int) -> Int { shape(t).reduce(1, *) }

        // m = MEAN(x) over the last axis, kept.
        guard case .reduce(let mean) = nodes[first].op, nodes[first].inputs.count == 1 else { return nil }
        let x = nodes[first].inputs[0], m = nodes[first].outputs[0]
        let xShape = shape(x)
        guard !isConstant(x), let C = xShape.last, C >= 2, isLastAxisMean(mean, rank: xShape.count) else { return nil }
        let rows = count(x) / C

        var used: Set<Int> = [first]
        /// The one window node (not yet used) with `op` whose inputs are `inputs` in either order.
        func find(_ accepts: (Op) -> Bool, _ inputs: [Int]) -> (index: Int, output: Int)? {
            for k in window where !used.contains(k) {
                let n = nodes[k]
                guard accepts(n.op), n.outputs.count == 1, n.inputs.count == inputs.count else { continue }
                let same = n.inputs == inputs || (inputs.count == 2 && n.inputs == [inputs[1], inputs[0]])
                guard same else { continue }
                used.insert(k)
                return (k, n.outputs[0])
            }
            return nil
        }
        /// The one window node computing `kind`(`a`, other) for a constant `other` accepted by `constant`.
        func findWithConstant(_ kind: BinaryKind, _ a: Int, _ constant: (Int) -> Bool) -> (output: Int, constant: Int)? {
            for k in window where !used.contains(k) {
                let n = nodes[k]
                guard isBinary(n.op, kind), n.inputs.count == 2, n.outputs.count == 1, n.inputs.contains(a) else { continue }
                let other = n.inputs[0] == a ? n.inputs[1] : n.inputs[0]
                guard other != a, isConstant(other), constant(other) else { continue }
                used.insert(k)
                return (n.outputs[0], other)
            }
            return nil
        }
        func perChannel(_ t: Int) -> Bool {
            let s = shape(t)
            return s.last == C && count(t) == C
        }
        /// The window node SUB(β, `ms`) for a per-channel constant β (this operand order only).
        func findSubtraction(from ms: Int) -> (output: Int, beta: Int)? {
            for k in window where !used.contains(k) {
                let n = nodes[k]
                guard isBinary(n.op, .sub), n.inputs.count == 2, n.outputs.count == 1, n.inputs[1] == ms,
                    isConstant(n.inputs[0]), perChannel(n.inputs[0])
                else { continue }
                used.insert(k)
                return (n.outputs[0], n.inputs[0])
            }
            return nil
        }

        guard let d = find({ isBinary($0, .squaredDifference) }, [x, m]),
            let v = find(
                {
                    if case .reduce(let p) = $0 { return isLastAxisMean(p, rank: xShape.count) }
                    return false
                }, [d.output]),
            let ve = findWithConstant(.add, v.output, { count($0) == 1 }),
            let r = find({ $0 == .unary(.rsqrt) }, [ve.output]),
            let s = findWithConstant(.mul, r.output, perChannel),
            let a = find({ isBinary($0, .mul) }, [x, s.output])
        else { return nil }

        var intermediates = [m, d.output, v.output, ve.output, r.output, s.output, a.output]
        var beta: Int?
        let y: Int
        if let negated = find({ $0 == .unary(.neg) }, [m]), let b = find({ isBinary($0, .mul) }, [negated.output, s.output]),
            let sum = find({ isBinary($0, .add) }, [a.output, b.output])
        {
            intermediates += [negated.output, b.output]
            y = sum.output
        } else if let ms = find({ isBinary($0, .mul) }, [m, s.output]),
            let shifted = findSubtraction(from: ms.output),
            let sum = find({ isBinary($0, .add) }, [a.output, shifted.output])
        {
            intermediates += [ms.output, shifted.output]
            beta = shifted.beta
            y = sum.output
        } else {
            return nil
        }
        guard used.count == nodeCount, shape(y) == xShape, shape(s.output) == xShape, shape(ve.output) == shape(m) else {
            return nil
        }
        // Every intermediate is read inside the window only: m and s twice, the others once.
        for t in intermediates {
            let expected = (t == m || t == s.output) ? 2 : 1
            guard consumers[t] == expected, !graphOutputs.contains(t), !isConstant(t) else { return nil }
        }
        return Match(
            input: x, output: y, gamma: s.constant, beta: beta, epsilon: ve.constant, rows: rows, channels: C,
            nodes: window)
    }

    private static func isBinary(_ op: Op, _ kind: BinaryKind) -> Bool {
        if case .binary(let p) = op { return p.kind == kind && p.activation == .none }
        return false
    }

    private static func isLastAxisMean(_ p: ReduceParams, rank: Int) -> Bool {
        p.kind == .mean && p.keepDims && (try? p.resolvedAxes(rank: rank)) == [rank - 1]
    }
}
