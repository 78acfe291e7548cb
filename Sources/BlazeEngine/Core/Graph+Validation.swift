extension Graph {
    /// Upper bounds that keep a hostile graph from exhausting memory before it is rejected.
    public enum Limits {
        public static let maxTensors = 1 << 16
        public static let maxNodes = 1 << 16
        public static let maxRank = 8
        public static let maxElementsPerTensor = 1 << 28
    }

    /// Checks that the graph can run: index ranges, constants matching their tensors, every
    /// non-constant tensor produced exactly once before use, and that each op's inferred output
    /// shape equals the declared one. Throws a `BlazeError` naming the op index and tensor.
    public func validate() throws {
        guard tensors.count <= Limits.maxTensors, nodes.count <= Limits.maxNodes else {
            throw BlazeError(.corruptModel, "graph has \(tensors.count) tensors and \(nodes.count) ops, over the limits")
        }
        for (i, t) in tensors.enumerated() {
            guard t.shape.count <= Limits.maxRank, let n = ShapeMath.elementCount(t.shape), n <= Limits.maxElementsPerTensor else {
                throw BlazeError(.corruptModel, "tensor \(i) '\(t.name)' has invalid shape \(ShapeMath.describe(t.shape))")
            }
            if let c = t.constant {
                guard constants.indices.contains(c) else {
                    throw BlazeError(.corruptModel, "tensor \(i) '\(t.name)' refers to missing constant \(c)")
                }
                guard constants[c].shape == t.shape, constants[c].values.count == n else {
                    throw BlazeError(.corruptModel, "constant \(c) does not match tensor \(i) '\(t.name)' \(ShapeMath.describe(t.shape))")
                }
            }
        }
        var available = [Bool](repeating: false, count: tensors.count)
        for (i, t) in tensors.enumerated() where t.constant != nil { available[i] = true }
        guard !inputs.isEmpty, !outputs.isEmpty else { throw BlazeError(.corruptModel, "graph has no inputs or no outputs") }
        for i in inputs {
            guard tensors.indices.contains(i), tensors[i].constant == nil, !available[i] else {
                throw BlazeError(.corruptModel, "graph input \(i) is not a distinct non-constant tensor")
            }
            available[i] = true
        }
        for (index, node) in nodes.enumerated() {
            let context = "op \(index) \(node.op.name)"
            guard node.op.inputArity.contains(node.inputs.count), node.outputs.count == 1 else {
                throw BlazeError(.corruptModel, "has \(node.inputs.count) inputs and \(node.outputs.count) outputs", context: context)
            }
            for t in node.inputs {
                guard tensors.indices.contains(t), available[t] else {
                    throw BlazeError(.corruptModel, "reads tensor \(t) before it is produced", context: context)
                }
            }
            let out = node.outputs[0]
            guard tensors.indices.contains(out), !available[out] else {
                throw BlazeError(.corruptModel, "writes tensor \(out), which is a constant, an input or already produced", context: context)
            }
            let inferred: [Int]
            do {
                inferred = try node.op.inferOutputShape(node.inputs.map { tensors[$0].shape })
            } catch let e as BlazeError {
                throw e.within(context)
            }
            guard inferred == tensors[out].shape else {
                throw BlazeError(
                    .shapeMismatch, "output '\(tensors[out].name)' declared \(ShapeMath.describe(tensors[out].shape)), inferred \(ShapeMath.describe(inferred))", context: context)
            }
            available[out] = true
        }
        for o in outputs {
            guard tensors.indices.contains(o), available[o] else {
                throw BlazeError(.corruptModel, "graph output \(o) is never produced")
            }
        }
    }

    /// Index of the input or output tensor named `name`.
    public func tensorIndex(named name: String, in list: [Int]) -> Int? {
        list.first { tensors[$0].name == name }
    }
}
