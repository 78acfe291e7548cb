import BlazeEngineCore

/// Layer normalisation over the last axis of a `[rows, channels]` tensor, the one step that
/// replaces the ten nodes of a `LayerNormFusion` match:
///
///     m = mean(x)                 r = 1 / sqrt(mean((x − m)²) + ε)        s[c] = r · γ[c]
///     y[c] = x[c]·s[c] + (−m)·s[c]             (no β)
///     y[c] = x[c]·s[c] + (β[c] − m·s[c])       (β)
///
/// The level's kernel (`ISAKernelSet.layerNorm`) repeats the float operations of the nodes it
/// replaces in their order, so the step is bitwise equal to running them. Rows are split across
/// threads. `y` may be exactly `x` (rows are read before they are written), not partially overlap it.
final class LayerNormStep: ParallelJob {
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let gamma: UnsafePointer<Float>
    let beta: UnsafePointer<Float>?
    let epsilon: Float
    let rows: Int, channels: Int
    let level: any ISAKernelSet.Type
    let parts: Int

    init(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Int, channels: Int,
        gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>?, epsilon: Float,
        level: any ISAKernelSet.Type, threads: Int
    ) {
        precondition(rows >= 0 && channels >= 1, "LayerNormStep: \(rows) rows of \(channels) channels")
        x = input; y = output
        self.gamma = gamma; self.beta = beta; self.epsilon = epsilon
        self.rows = rows; self.channels = channels
        self.level = level
        parts = Parallelism.tasks(units: rows, work: rows * channels, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) {
        level.layerNorm(
            input: x, output: y, channels: channels, gamma: gamma, beta: beta, epsilon: epsilon,
            rows: WorkRange.part(index, of: parts, count: rows))
    }
}
