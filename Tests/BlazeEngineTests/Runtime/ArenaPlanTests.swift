import BlazeModels
import Testing
@testable import BlazeEngine

/// The arena planner: no two live tensors overlap, RESHAPE aliases its input, elementwise ops
/// reuse a dying input, graph inputs are never overwritten.
@Suite struct ArenaPlanTests {
    /// Every pair of planned tensors that are alive at the same step either share a group (same
    /// memory by design) or occupy disjoint memory.
    static func expectNoLiveOverlap(_ graph: Graph, _ plan: ArenaPlan, _ what: String) {
        let planned = graph.tensors.indices.filter { plan.offsets[$0] != nil }
        for (i, a) in planned.enumerated() {
            let aEnd = plan.offsets[a]! + (ShapeMath.elementCount(graph.tensors[a].shape) ?? 0)
            for b in planned[(i + 1)...] where plan.group[a] != plan.group[b] {
                guard plan.first[a] <= plan.last[b] && plan.first[b] <= plan.last[a] else { continue }
                let bEnd = plan.offsets[b]! + (ShapeMath.elementCount(graph.tensors[b].shape) ?? 0)
                let disjoint = aEnd <= plan.offsets[b]! || bEnd <= plan.offsets[a]!
                #expect(disjoint, "\(what): live tensors \(graph.tensors[a].name) and \(graph.tensors[b].name) overlap")
            }
        }
        #expect(planned.allSatisfy { plan.offsets[$0]! % ArenaPlan.alignmentFloats == 0 })
    }

    @Test(arguments: BundledModel.allCases)
    func bundledModelsHaveNoLiveOverlap(model: BundledModel) throws {
        let graph = try model.load().graph
        let inPlace = ArenaPlan(graph: graph)
        let plain = ArenaPlan(graph: graph, inPlace: false)
        Self.expectNoLiveOverlap(graph, inPlace, "\(model.rawValue) in place")
        Self.expectNoLiveOverlap(graph, plain, "\(model.rawValue) plain")
        // Every RESHAPE of an arena tensor is aliased.
        for (step, node) in graph.nodes.enumerated() {
            if case .reshape = node.op, graph.tensors[node.inputs[0]].constant == nil {
                #expect(inPlace.sharedInput[step] == 0)
                #expect(inPlace.offsets[node.outputs[0]] == inPlace.offsets[node.inputs[0]])
            }
        }
        // Graph inputs live to the end and no in-place op writes over them.
        for i in graph.inputs { #expect(inPlace.last[i] == graph.nodes.count) }
        for (step, node) in graph.nodes.enumerated() {
            guard let k = inPlace.sharedInput[step] else { continue }
            if case .reshape = node.op { continue }
            #expect(!graph.inputs.contains(node.inputs[k]), "\(model.rawValue): step \(step) writes over a graph input")
        }
    }

    @Test func bundledNetsReuseMemoryInPlace() throws {
        let graph = try BundledModel.palmDetectionFull.load().graph
        let plan = ArenaPlan(graph: graph)
        let inPlaceSteps = graph.nodes.indices.filter {
            if case .reshape = graph.nodes[$0].op { return false }
            return plan.sharedInput[$0] != nil
        }
        #expect(inPlaceSteps.count >= 20, "ADD/PRELU should mostly write in place, got \(inPlaceSteps.count)")
        #expect(plan.floatCount <= ArenaPlan(graph: graph, inPlace: false).floatCount)
    }

    /// x → conv-free chain: a = relu(x); b = a + a2 (a dies here → in place); r = reshape(b); out = relu(r).
    @Test func inPlaceOnlyIntoDyingNonInputTensors() throws {
        let s = [1, 4, 4, 2]
        let tensors = [
            TensorDescriptor(name: "x", shape: s),
            TensorDescriptor(name: "a", shape: s),
            TensorDescriptor(name: "a2", shape: s),
            TensorDescriptor(name: "b", shape: s),
            TensorDescriptor(name: "r", shape: [32]),
            TensorDescriptor(name: "out", shape: [32]),
            TensorDescriptor(name: "c", shape: [2], constant: 0),
            TensorDescriptor(name: "d", shape: s)
        ]
        let nodes = [
            Node(op: .unary(.relu), inputs: [0], outputs: [1]),  // 0: x is a graph input: not in place
            Node(op: .unary(.neg), inputs: [1], outputs: [2]),  // 1: a is still read by step 2: not in place
            Node(op: .binary(BinaryParams(.add)), inputs: [1, 2], outputs: [3]),  // 2: a or a2 dies here: in place
            Node(op: .binary(BinaryParams(.mul)), inputs: [3, 6], outputs: [7]),  // 3: b still read by step 4
            Node(op: .reshape(ReshapeParams(shape: [32])), inputs: [3], outputs: [4]),  // 4: alias
            Node(op: .unary(.relu), inputs: [4], outputs: [5])  // 5: r dies, but b/d? r's group dies: in place
        ]
        let graph = Graph(
            tensors: tensors, constants: [Constant(shape: [2], values: [1, 2])], nodes: nodes,
            inputs: [0], outputs: [5, 7])
        try graph.validate()
        let plan = ArenaPlan(graph: graph)
        #expect(plan.sharedInput[0] == nil)
        #expect(plan.sharedInput[1] == nil)
        #expect(plan.sharedInput[2] != nil)
        #expect(plan.sharedInput[3] == nil)
        #expect(plan.sharedInput[4] == 0)
        #expect(plan.offsets[4] == plan.offsets[3])
        #expect(plan.sharedInput[5] == 0)
        #expect(plan.offsets[5] == plan.offsets[3])
        #expect(plan.offsets[6] == nil)
        Self.expectNoLiveOverlap(graph, plan, "synthetic")

        // The session computes the same as the reference kernels on this graph.
        let model = try Model(graph: graph)
        let x = (0..<32).map { Float($0) - 15.5 }
        let reference = try model.run([x], kernels: .reference)
        for threads in 1...3 {
            let session = model.makeSession(threads: threads)
            #expect(try session.run([x]) == reference)
            session.runInPlace()
            #expect(session.outputBuffers.map(Array.init) == reference, "a second run on the same inputs")
        }
    }
}
