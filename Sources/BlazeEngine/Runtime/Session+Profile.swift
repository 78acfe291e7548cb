import Foundation

extension Session {
    /// Time of each graph node, for finding where an inference spends its time.
    public struct StepTiming: Sendable {
        /// Node index in `Graph.nodes`.
        public var node: Int
        public var op: String
        /// The graph nodes whose work this step does: `[node]`, a fused chain's convs, or none where
        /// another step does this node's work.
        public var nodes: [Int]
        /// Output shape of the node.
        public var outputShape: [Int]
        /// Median over the profiled runs, in milliseconds.
        public var medianMs: Double
    }

    /// Runs the graph `runs` times on the current inputs, timing every node; returns the median
    /// time per node. Allocates (it is a diagnostic, not the hot path).
    public func profileSteps(runs: Int = 20) -> [StepTiming] {
        let graph = model.graph
        let count = graph.nodes.count
        var samples = [[Double]](repeating: [], count: count)
        for _ in 0..<max(runs, 1) {
            for i in 0..<count {
                let start = DispatchTime.now().uptimeNanoseconds
                executeStep(i)
                samples[i].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
        }
        return (0..<count).map { i in
            let sorted = samples[i].sorted()
            return StepTiming(
                node: i, op: stepName(i), nodes: lowered.nodes(doneAt: i), outputShape: graph.tensors[graph.nodes[i].outputs[0]].shape,
                medianMs: sorted[sorted.count / 2])
        }
    }

    /// The node's op name, or the fused step's where one step stands for several nodes.
    func stepName(_ index: Int) -> String {
        if kernels == .optimized, case .layerNorm = plannedSteps[index] { return "LAYER_NORM (fused)" }
        if kernels == .optimized, case .channelMajorConvs(let s) = plannedSteps[index] {
            return "CONV_2D ×\(s.stages.count) channel-major"
        }
        return model.graph.nodes[index].op.name
    }

    func executeStep(_ index: Int) {
        switch kernels {
        case .optimized: plannedSteps[index].execute(pool)
        case .reference: Executor.execute(steps[index])
        }
    }
}
