// Small helpers shared by the reference kernels: plan-time parameter resolution and view checks
// (their strided loops walk an `IndexSpace`).

extension ReferenceKernels {
    /// Evaluates parameter math that was already validated when the plan was built. A failure here
    /// means the caller passed views that do not match the plan: a programmer error, so it traps.
    @inline(__always)
    static func planned<T>(_ body: @autoclosure () throws -> T, _ op: StaticString = #function) -> T {
        do { return try body() } catch {
            preconditionFailure("\(op): views do not match plan-time validated shapes: \(error)")
        }
    }

    /// A weighted op's views: `output` holds `shape`, `bias` (if any) one value per output channel.
    static func checkViews(
        output: MutableTensorView, shape: [Int], bias: TensorView?, channels: Int, _ op: StaticString = #function
    ) {
        precondition(output.count == elementCount(shape), "\(op): output view does not match the plan's shape")
        precondition(bias == nil || bias!.count == channels, "\(op): bias count \(bias?.count ?? 0) for \(channels) channels")
    }

    /// Row-major element count of `shape` (1 for a scalar).
    @inline(__always)
    static func elementCount(_ shape: [Int]) -> Int {
        var n = 1
        for d in shape { n &*= d }
        return n
    }
}
