import BlazeModels
import Testing
@testable import BlazeEngine

/// The lowering stage (`LoweredGraph`) on every bundled net at every runnable level: each node's
/// work is done by exactly one step.
@Suite struct LoweringTests {
    /// The absorbed nodes are exactly those another step does — after a fused conv up to the node
    /// writing its output, a folded PAD / TRANSPOSE, a layer norm's nine other nodes, a chain's
    /// nodes before its last — none twice; the reference lowering keeps one plain step per node.
    @Test(arguments: KernelLevels.runnable) func everyNodeIsDoneOnce(level: ISALevel) throws {
        for bundled in BundledModel.allCases {
            let model = try Model(graph: bundled.load().graph, isa: level)
            let graph = model.graph
            var producer: [Int: Int] = [:]
            for (i, node) in graph.nodes.enumerated() { for t in node.outputs { producer[t] = i } }

            let lowered = model.lowering(for: .optimized)
            #expect(lowered.steps.count == graph.nodes.count, "\(bundled.rawValue) at \(level)")
            var absorbed: [Int] = [], doneElsewhere: [Int] = []
            for (i, step) in lowered.steps.enumerated() {
                switch step {
                case .absorbed:
                    absorbed.append(i)
                case .node(let n):
                    if n.fold != nil, let pad = producer[graph.nodes[i].inputs[0]] { doneElsewhere.append(pad) }
                    if n.epilogue != nil, let last = producer[n.output] { doneElsewhere += Array((i + 1)...last) }
                case .layerNorm(let m):
                    doneElsewhere += m.nodes.dropFirst()
                case .channelMajorConvs(let chain):
                    doneElsewhere += chain.nodes.dropLast()
                }
            }
            #expect(Set(doneElsewhere).count == doneElsewhere.count, "\(bundled.rawValue) at \(level): a node done by two steps")
            #expect(doneElsewhere.sorted() == absorbed, "\(bundled.rawValue) at \(level)")

            let reference = model.lowering(for: .reference)
            let plain = reference.steps.enumerated().allSatisfy { i, step in
                guard case .node(let n) = step else { return false }
                return n.node == i && n.inputs == graph.nodes[i].inputs && n.output == graph.nodes[i].outputs[0]
                    && n.fold == nil && n.epilogue == nil
            }
            #expect(plain, "\(bundled.rawValue): reference lowering")
        }
    }
}
