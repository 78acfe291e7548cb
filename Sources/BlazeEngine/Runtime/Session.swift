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
    /// The model's lowering for `kernels`: the steps and where each tensor lives.
    let lowered: LoweredGraph
    /// Reference-kernel steps (`kernels == .reference`).
    let steps: [Step]
    /// Optimised steps (`kernels == .optimized`).
    let plannedSteps: [PlannedStep]
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

    /// Binds the model's lowering for `kernels` to a new arena and the model's weights; packs conv
    /// weights the model has not packed yet.
    /// `workers`: a pool this session shares with others run one at a time (its thread count wins
    /// over `threads`); nil makes the session its own.
    init(model: Model, kernels: KernelSet, threads: Int? = nil, workers: WorkerPool? = nil) {
        self.model = model
        self.kernels = kernels
        let threads = workers?.threadCount ?? min(max(threads ?? Self.defaultThreadCount, 1), 256)
        self.threads = threads
        let graph = model.graph
        let lowered = model.lowering(for: kernels)
        self.lowered = lowered
        arena = AlignedFloatBuffer(count: lowered.arena.floatCount)
        scratch = AlignedFloatBuffer(count: lowered.scratchFloats)
        let arenaBase = arena.pointer
        let scratchPointer = lowered.scratchFloats > 0 ? scratch.pointer : nil

        func pointer(_ t: Int) -> UnsafeMutablePointer<Float> {
            if let c = graph.tensors[t].constant { return model.constantPointer(c) }
            return arenaBase + (lowered.arena.offsets[t] ?? 0)
        }
        func view(_ t: Int) -> MutableTensorView { MutableTensorView(pointer(t), graph.tensors[t].shape) }

        var steps: [Step] = []
        var planned: [PlannedStep] = []
        for step in lowered.steps {
            switch (kernels, step) {
            case (.reference, .node(let n)):
                steps.append(Step(op: graph.nodes[n.node].op, inputs: n.inputs.map { view($0).readOnly }, output: view(n.output)))
            case (.reference, _):
                preconditionFailure("Session: the reference lowering has one node per step")
            case (.optimized, .absorbed):
                planned.append(.none)
            case (.optimized, .channelMajorConvs(let chain)):
                planned.append(
                    .channelMajorConvs(ChannelMajorConvChainStep(chain, graph: graph, model: model, pointer: pointer, threads: threads)))
            case (.optimized, .layerNorm(let m)):
                planned.append(
                    .layerNorm(
                        LayerNormStep(
                            input: pointer(m.input), output: pointer(m.output), rows: m.rows, channels: m.channels,
                            gamma: pointer(m.gamma), beta: m.beta.map { UnsafePointer(pointer($0)) },
                            epsilon: pointer(m.epsilon).pointee, level: model.levelKernels, threads: threads)))
            case (.optimized, .node(let n)):
                let fusion = n.epilogue.map { e in
                    ConvFusion(
                        activation: e.activation, residual: e.residual.map { UnsafePointer(pointer($0)) },
                        residualActivation: e.residualActivation, residualChannels: e.residualChannels,
                        prelu: e.prelu.map { UnsafePointer(pointer($0)) })
                }
                do {
                    planned.append(
                        try PlannedStep.make(
                            graph.nodes[n.node].op, inputs: n.inputs.map { view($0).readOnly }, output: view(n.output),
                            scratch: scratchPointer, threads: threads, fusion: fusion, foldedPad: n.fold,
                            level: model.levelKernels, kernels: (model.packedKernels, n.node)))
                } catch {
                    preconditionFailure("Session: validated graph failed to plan \(graph.nodes[n.node].op.name): \(error)")
                }
            }
        }
        self.steps = steps
        plannedSteps = planned
        pool = kernels == .optimized ? workers ?? WorkerPool(threadCount: threads) : WorkerPool(threadCount: 1)
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
    /// The session's threads, for a pipeline's own work between runs (its input crop): never
    /// while the session runs, and from one thread at a time, as the session itself.
    package var workers: WorkerPool { pool }

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
