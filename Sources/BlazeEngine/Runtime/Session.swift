/// One execution context of a `Model`: the activation arena, scratch space and the per-op plan,
/// all prepared once. `run` then allocates nothing but its result arrays.
/// A session is not thread-safe; use one per thread (the `Model` is shared).
public final class Session {
    public let model: Model
    public let kernels: KernelSet
    let arena: AlignedFloatBuffer
    let scratch: AlignedFloatBuffer
    let steps: [Step]
    let inputViews: [MutableTensorView]
    let outputViews: [MutableTensorView]

    /// A node with its tensors bound to memory.
    struct Step {
        let op: Op
        let inputs: [TensorView]
        let output: MutableTensorView
    }

    init(model: Model, kernels: KernelSet) {
        self.model = model
        self.kernels = kernels
        let graph = model.graph
        let plan = ArenaPlan(graph: graph)
        arena = AlignedFloatBuffer(count: plan.floatCount)
        let arenaBase = arena.pointer

        func pointer(_ t: Int) -> UnsafeMutablePointer<Float> {
            if let c = graph.tensors[t].constant { return model.constantPointer(c) }
            return arenaBase + (plan.offsets[t] ?? 0)
        }
        func view(_ t: Int) -> MutableTensorView { MutableTensorView(pointer(t), graph.tensors[t].shape) }

        var scratchCount = 0
        var steps: [Step] = []
        for node in graph.nodes {
            let inputs = node.inputs.map { view($0).readOnly }
            steps.append(Step(op: node.op, inputs: inputs, output: view(node.outputs[0])))
            if kernels == .optimized, case .conv2D(let p) = node.op,
               let g = try? p.geometry(input: inputs[0].shape, filter: inputs[1].shape) {
                scratchCount = max(scratchCount, GemmKernels.conv2DScratchCount(g))
            }
        }
        scratch = AlignedFloatBuffer(count: scratchCount)
        self.steps = steps
        inputViews = graph.inputs.map(view)
        outputViews = graph.outputs.map(view)
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
    /// The hot-path form: no allocation.
    public func runInPlace() { execute() }

    /// Pointers to the arena memory of each graph input (write before `runInPlace`).
    public var inputBuffers: [UnsafeMutableBufferPointer<Float>] { inputViews.map { UnsafeMutableBufferPointer(start: $0.data, count: $0.count) } }
    /// Pointers to the arena memory of each graph output (valid until the next run).
    public var outputBuffers: [UnsafeBufferPointer<Float>] { outputViews.map { UnsafeBufferPointer(start: $0.data, count: $0.count) } }

    func execute() {
        for step in steps {
            Executor.execute(step, kernels: kernels, scratch: scratch.pointer)
        }
    }
}
