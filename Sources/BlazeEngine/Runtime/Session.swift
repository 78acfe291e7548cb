import Foundation

/// One execution context of a `Model`: the activation arena, scratch space, a worker pool and the
/// per-op plan, all prepared once. `runInPlace()` then allocates nothing; `run(_:)` allocates only
/// its result arrays.
///
/// Threads: with `.optimized` kernels each op is split across `threads` threads (the calling
/// thread and `threads − 1` persistent workers owned by the session). Results are bitwise
/// identical for every thread count. Reference kernels always run on the calling thread.
///
/// A session is not thread-safe; use one per thread (the `Model` is shared).
public final class Session {
    public let model: Model
    public let kernels: KernelSet
    /// Threads an inference uses, the calling thread included.
    public let threads: Int
    let arena: AlignedFloatBuffer
    let scratch: AlignedFloatBuffer
    let plan: ArenaPlan
    /// Reference-kernel steps (`kernels == .reference`).
    let steps: [Step]
    /// Optimised steps (`kernels == .optimized`).
    let plannedSteps: [PlannedStep]
    /// Step index of each channel-major chain → its conv nodes (for profiles).
    let chainConvNodes: [Int: [Int]]
    let pool: WorkerPool
    let inputViews: [MutableTensorView]
    let outputViews: [MutableTensorView]
    private let inputPointers: [UnsafeMutableBufferPointer<Float>]
    private let outputPointers: [UnsafeBufferPointer<Float>]

    /// A node with its tensors bound to memory (reference kernels).
    struct Step {
        let op: Op
        let inputs: [TensorView]
        let output: MutableTensorView
    }

    /// The default thread count: every core this process may use.
    public static var defaultThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    init(model: Model, kernels: KernelSet, threads: Int? = nil) {
        self.model = model
        self.kernels = kernels
        let threads = min(max(threads ?? Self.defaultThreadCount, 1), 256)
        self.threads = threads
        let graph = model.graph
        // Reference kernels keep the plain plan: every tensor its own memory, no in-place writes.
        // The optimised plan folds zero PADs into the convs reading them.
        // Transposed pointwise chains as channel-major convs, where the level prefers them.
        let level = model.levelKernels
        let chains =
            kernels == .optimized && level.prefersChannelMajorConv
            ? ChannelMajorConvChains(graph: graph, minPixels: 2 * level.lanes) : nil
        let chainNodes = Set(chains.map { $0.chains.values.flatMap { Array($0.nodes) } } ?? [])
        let folding = kernels == .optimized ? PadFolding(graph: graph, excluding: chainNodes) : nil
        var extendedReads = folding?.extendedReads ?? [:]
        for (t, step) in chains?.extendedReads ?? [:] { extendedReads[t] = max(extendedReads[t] ?? step, step) }
        let plan = ArenaPlan(graph: graph, inPlace: kernels == .optimized, extendedReads: extendedReads)
        self.plan = plan
        arena = AlignedFloatBuffer(count: plan.floatCount)
        let arenaBase = arena.pointer

        func pointer(_ t: Int) -> UnsafeMutablePointer<Float> {
            if let c = graph.tensors[t].constant { return model.constantPointer(c) }
            return arenaBase + (plan.offsets[t] ?? 0)
        }
        func view(_ t: Int) -> MutableTensorView { MutableTensorView(pointer(t), graph.tensors[t].shape) }

        var scratchCount = 0
        if kernels == .optimized {
            for node in graph.nodes {
                scratchCount = max(scratchCount, PlannedStep.scratchCount(node.op, inputs: node.inputs.map { graph.tensors[$0].shape }))
            }
        } else {
            scratchCount = 0
        }
        scratch = AlignedFloatBuffer(count: scratchCount)

        var steps: [Step] = []
        var planned: [PlannedStep] = []
        // Conv → ADD / PRELU / RELU fusion, decided once from the graph and the arena addresses.
        let fusion = folding.map { FusionPlan(graph: graph, folding: $0, kernels: model.levelKernels, excluding: chainNodes, pointer: pointer) }
        // Ten-node layer normalisations as one step each, where the output can be written before
        // the nodes it replaces would have run (disjoint from its input, or exactly over it).
        var layerNorms: [Int: LayerNormFusion.Match] = [:]
        var layerNormSkipped: Set<Int> = []
        if let fusion, let folding {
            for (first, m) in LayerNormFusion(graph: graph).matches {
                let covered = m.nodes
                guard
                    !covered.contains(where: {
                        fusion.skipped.contains($0) || fusion.fused[$0] != nil || folding.skipped.contains($0)
                            || chainNodes.contains($0)
                    })
                else { continue }
                let x = pointer(m.input), y = pointer(m.output), n = m.rows * m.channels
                guard x == y || x + n <= y || y + n <= x else { continue }
                layerNorms[first] = m
                layerNormSkipped.formUnion(covered.dropFirst())
            }
        }
        for (index, node) in graph.nodes.enumerated() {
            let fold = folding?.folds[index]
            let inputs = node.inputs.indices.map { slot in
                view(folding?.input(slot, of: node, at: index) ?? node.inputs[slot]).readOnly
            }
            let fused = fusion?.fused[index]
            let output = view(fused?.output ?? node.outputs[0])
            switch kernels {
            case .reference:
                steps.append(Step(op: node.op, inputs: inputs, output: output))
            case .optimized:
                if chains?.skipped.contains(index) == true {
                    planned.append(.none); continue
                }
                if let chain = chains?.chains[index] {
                    planned.append(
                        .channelMajorConvs(ChannelMajorConvChainStep(chain, graph: graph, model: model, pointer: pointer, threads: threads)))
                    continue
                }
                if fusion?.skipped.contains(index) == true || folding?.skipped.contains(index) == true
                    || layerNormSkipped.contains(index)
                {
                    planned.append(.none); continue
                }
                if let m = layerNorms[index] {
                    planned.append(
                        .layerNorm(
                            LayerNormStep(
                                input: pointer(m.input), output: pointer(m.output), rows: m.rows, channels: m.channels,
                                gamma: pointer(m.gamma), beta: m.beta.map { UnsafePointer(pointer($0)) },
                                epsilon: pointer(m.epsilon).pointee, level: model.levelKernels, threads: threads)))
                    continue
                }
                do {
                    planned.append(
                        try PlannedStep.make(
                            node.op, inputs: inputs, output: output,
                            scratch: scratchCount > 0 ? scratch.pointer : nil, threads: threads,
                            fusion: fused?.fusion, foldedPad: fold,
                            level: model.levelKernels, kernels: (model.packedKernels, index)))
                } catch {
                    preconditionFailure("Session: validated graph failed to plan \(node.op.name): \(error)")
                }
            }
        }
        self.steps = steps
        plannedSteps = planned
        chainConvNodes = (chains?.chains ?? [:]).mapValues(\.convs)
        pool = WorkerPool(threadCount: kernels == .optimized ? threads : 1)
        inputViews = graph.inputs.map(view)
        outputViews = graph.outputs.map(view)
        inputPointers = inputViews.map { UnsafeMutableBufferPointer(start: $0.data, count: $0.count) }
        outputPointers = outputViews.map { UnsafeBufferPointer(start: $0.data, count: $0.count) }
    }

    /// Runs on `inputs` (one flat row-major array per graph input, in order); returns one flat
    /// array per graph output. Throws `BlazeError(.invalidInput)` when counts or sizes differ.
    public func run(_ inputs: [[Float]]) throws -> [[Float]] {
        guard inputs.count == inputViews.count else {
            throw BlazeError(.invalidInput, "expected \(inputViews.count) inputs, got \(inputs.count)")
        }
        for (i, (values, view)) in zip(inputs, inputViews).enumerated() where values.count != view.count {
            let name = model.graph.tensors[model.graph.inputs[i]].name
            throw BlazeError(.invalidInput, "input '\(name)' expects \(view.count) values \(ShapeMath.describe(view.shape)), got \(values.count)")
        }
        for (values, view) in zip(inputs, inputViews) {
            values.withUnsafeBufferPointer { view.data.update(from: $0.baseAddress!, count: view.count) }
        }
        execute()
        return outputViews.map { Array(UnsafeBufferPointer(start: $0.data, count: $0.count)) }
    }

    /// Runs with inputs already written into `inputBuffers` and results read from `outputBuffers`.
    /// The hot-path form: with `.optimized` kernels it allocates nothing. Inputs are left intact,
    /// so running again on the same inputs gives the same outputs.
    public func runInPlace() { execute() }

    /// The arena memory of each graph input (write before `runInPlace`). Valid while the session lives.
    public var inputBuffers: [UnsafeMutableBufferPointer<Float>] { inputPointers }
    /// The arena memory of each graph output (valid until the next run, while the session lives).
    public var outputBuffers: [UnsafeBufferPointer<Float>] { outputPointers }

    func execute() {
        switch kernels {
        case .optimized:
            plannedSteps.withUnsafeBufferPointer { steps in
                for step in steps { step.execute(pool) }
            }
        case .reference:
            for step in steps {
                Executor.execute(step)
            }
        }
    }
}
