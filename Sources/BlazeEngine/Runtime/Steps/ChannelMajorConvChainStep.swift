import BlazeEngineCore

/// The step of one `ChannelMajorConvChains.Chain`: its convs one after another, each split across
/// the pool by groups of output channels (every output from one tile: the same bytes for any split).
final class ChannelMajorConvChainStep {
    /// One conv of the chain.
    final class Stage: ParallelJob {
        let kernel: any ChannelMajorConvKernel
        let x: UnsafePointer<Float>
        let y: UnsafeMutablePointer<Float>
        let residual: UnsafePointer<Float>?
        let parts: Int

        init(
            _ kernel: any ChannelMajorConvKernel, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
            residual: UnsafePointer<Float>?, threads: Int
        ) {
            self.kernel = kernel
            x = input; y = output; self.residual = residual
            parts = Parallelism.tasks(units: kernel.workCount, work: kernel.flops, minWork: 200_000, threads: threads)
        }

        func runTask(_ index: Int) {
            kernel.run(input: x, output: y, residual: residual, work: WorkerPool.part(index, of: parts, count: kernel.workCount))
        }
    }

    let stages: [Stage]

    /// The convs of `chain` on the arena memory `pointer` gives, their kernels shared through
    /// `model`'s cache.
    init(
        _ chain: ChannelMajorConvChains.Chain, graph: Graph, model: Model, pointer: (Int) -> UnsafeMutablePointer<Float>,
        threads: Int
    ) {
        var stages: [Stage] = []
        var input = UnsafePointer(pointer(chain.source))
        for (i, c) in chain.convs.enumerated() {
            let node = graph.nodes[c]
            guard case .conv2D(let p) = node.op else { preconditionFailure("channel-major chain node \(c) is not a CONV_2D") }
            let filterShape = graph.tensors[node.inputs[1]].shape
            let O = filterShape[0], K = filterShape[3]
            let isLast = i == chain.convs.count - 1
            let residualActivation = isLast ? chain.residualActivation : .none
            let kernel = model.packedKernels.kernel(PackedKernelCache.key(channelMajorConv: c, residualActivation: residualActivation)) {
                model.levelKernels.channelMajorConv(
                    filter: pointer(node.inputs[1]), bias: node.inputs.count > 2 ? pointer(node.inputs[2]) : nil,
                    outputChannels: O, inputChannels: K, pixels: ChannelMajorConvChains.pixels(chain, graph),
                    activation: p.activation, residualActivation: residualActivation)
            }
            let output = isLast ? pointer(chain.output) : pointer(chain.buffers[i])
            stages.append(
                Stage(
                    kernel, input: input, output: output,
                    residual: isLast ? chain.residual.map { UnsafePointer(pointer($0)) } : nil, threads: threads))
            input = UnsafePointer(output)
        }
        self.stages = stages
    }

    func execute(_ pool: WorkerPool) {
        for s in stages { pool.run(s, taskCount: s.parts) }
    }
}
