/// Steps that run the packed kernels of the active level (Sources/BlazeKernels), split across a `WorkerPool` into contiguous
/// ranges of the kernel's work units. The kernels give the same bytes for any split, so results do
/// not depend on the thread count. Each kernel is created (weights packed) once when the session
/// plans its steps.

/// A `ConvEpilogue` bound to memory, as the level's conv kernels take it (see `FusedEpilogue`).
struct ConvFusion {
    var activation: Activation?
    var residual: UnsafePointer<Float>?
    var residualActivation: Activation = .none
    var residualChannels: Int?
    var prelu: UnsafePointer<Float>?
}

/// CONV_2D / FULLY_CONNECTED / DEPTHWISE_CONV_2D through the level's `ConvKernel` /
/// `DepthwiseKernel`, with an optional fused residual ADD (and PRELU / RELU folded into the
/// kernel's epilogue).
final class PackedConvStep: ParallelJob {
    enum Kernel {
        case conv(any ConvKernel)
        case depthwise(any DepthwiseKernel)
    }

    let kernel: Kernel
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let residual: UnsafePointer<Float>?
    let units: Int, parts: Int

    init(
        _ kernel: Kernel, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        residual: UnsafePointer<Float>?, threads: Int
    ) {
        self.kernel = kernel
        x = input; y = output; self.residual = residual
        let flops: Int
        switch kernel {
        case .conv(let k): units = k.workCount; flops = k.flops
        case .depthwise(let k): units = k.workCount; flops = k.flops
        }
        // ≲ 0.2 MFLOP (≈ 1–2 µs) is not worth a dispatch.
        parts = Parallelism.tasks(units: units, work: flops, minWork: 200_000, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) {
        let r = WorkerPool.part(index, of: parts, count: units)
        switch kernel {
        case .conv(let k): k.run(input: x, output: y, residual: residual, work: r)
        case .depthwise(let k): k.run(input: x, output: y, residual: residual, rows: r)
        }
    }
}

/// MAX_POOL_2D / AVERAGE_POOL_2D and RESIZE_BILINEAR on the level's `RowKernel`, split by output rows.
final class SIMDRowStep: ParallelJob {
    let kernel: any RowKernel
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let units: Int, parts: Int

    /// `work`: a cost estimate (e.g. outputs × window taps) for the split decision.
    init(_ kernel: any RowKernel, work: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, threads: Int) {
        self.kernel = kernel
        x = input; y = output
        units = kernel.workCount
        parts = Parallelism.tasks(units: units, work: work, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) {
        kernel.run(input: x, output: y, rows: WorkerPool.part(index, of: parts, count: units))
    }
}
