import Foundation

/// Binary ops (NumPy broadcasting + fused activation), PRELU and unary ops bound to their memory,
/// split across threads by ranges of output elements. Element for element the arithmetic of
/// `ReferenceKernels` (bitwise equal). The output may be the memory of an input with the output's
/// own shape (in-place reuse planned by `ArenaPlan`): every element is read before it is written.
final class BinaryStep: ParallelJob {
    enum Function { case binary(BinaryKind), prelu }

    let function: Function
    let activation: Activation
    let a: UnsafePointer<Float>, b: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let space: IndexSpace
    let parts: Int

    init(_ function: Function, activation: Activation, a: TensorView, b: TensorView, output: MutableTensorView, threads: Int) {
        self.function = function
        self.activation = activation
        self.a = a.data; self.b = b.data; y = output.data
        let out = output.shape
        space = IndexSpace(
            counts: out, ShapeMath.broadcastStrides(a.shape, to: out),
            ShapeMath.broadcastStrides(b.shape, to: out), ShapeMath.strides(out))
        parts = Parallelism.tasks(units: space.count / 16, work: space.count, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(Elementwise.chunk(index, of: parts, count: space.count)) }

    func run(_ elements: Range<Int>) {
        switch function {
        case .prelu: segments(elements) { x, alpha in x < 0 ? alpha * x : x }
        case .binary(let kind):
            switch kind {
            case .add: segments(elements) { $0 + $1 }
            case .sub: segments(elements) { $0 - $1 }
            case .mul: segments(elements) { $0 * $1 }
            case .div: segments(elements) { $0 / $1 }
            case .squaredDifference:
                segments(elements) {
                    let d = $0 - $1; return d * d
                }
            case .maximum: segments(elements) { $0 < $1 ? $1 : $0 }
            case .minimum: segments(elements) { $1 < $0 ? $1 : $0 }
            }
        }
    }

    @inline(__always)
    private func segments(_ elements: Range<Int>, _ f: (Float, Float) -> Float) {
        let sa = space.inner0, sb = space.inner1
        let act = activation
        space.forEachSegment(elements) { oa, ob, oy, length in
            // Blocks keep the activation pass in L1.
            var done = 0
            while done < length {
                let n = min(length &- done, Elementwise.block)
                let pa = a + (oa &+ done &* sa), pb = b + (ob &+ done &* sb), py = y + (oy &+ done)
                Elementwise.loop(pa, sa, pb, sb, py, n, f)
                Elementwise.activation(py, count: n, act)
                done &+= n
            }
        }
    }
}

final class UnaryStep: ParallelJob {
    let kind: UnaryKind
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let count: Int, parts: Int

    init(_ kind: UnaryKind, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int, threads: Int) {
        self.kind = kind
        x = input; y = output
        self.count = count
        let cost = (kind == .logistic || kind == .tanh || kind == .exp) ? 16 : 1
        parts = Parallelism.tasks(units: count / 16, work: count * cost, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(Elementwise.chunk(index, of: parts, count: count)) }

    func run(_ r: Range<Int>) {
        let x = self.x + r.lowerBound, y = self.y + r.lowerBound, n = r.count
        switch kind {
        case .relu, .relu6, .reluMinus1To1:
            let (lo, hi) = kind.clampActivation!.range
            Elementwise.map(x, y, n) { Activation.clamp($0, lo, hi) }
        case .logistic: Elementwise.map(x, y, n) { 1 / (1 + Foundation.exp(-$0)) }
        case .neg: Elementwise.map(x, y, n) { -$0 }
        case .sqrt: Elementwise.map(x, y, n) { $0.squareRoot() }
        case .rsqrt: Elementwise.map(x, y, n) { 1 / $0.squareRoot() }
        case .tanh: Elementwise.map(x, y, n) { Foundation.tanh($0) }
        case .abs: Elementwise.map(x, y, n) { Swift.abs($0) }
        case .exp: Elementwise.map(x, y, n) { Foundation.exp($0) }
        case .hardSwish: Elementwise.map(x, y, n) { $0 * Swift.min(Swift.max($0 + 3, 0), 6) / 6 }
        }
    }
}

/// LEAKY_RELU on the level's elementwise kernel (`ISAKernelSet.leakyRelu`), split across threads
/// like `UnaryStep`. The output may be exactly the input (in-place reuse planned by `ArenaPlan`).
final class LeakyReluStep: ParallelJob {
    let alpha: Float
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let count: Int, parts: Int
    let level: any ISAKernelSet.Type

    init(
        _ p: LeakyReluParams, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int,
        level: any ISAKernelSet.Type, threads: Int
    ) {
        alpha = p.alpha
        x = input; y = output
        self.count = count
        self.level = level
        parts = Parallelism.tasks(units: count / 16, work: count, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) {
        level.leakyRelu(input: x, alpha: alpha, output: y, range: Elementwise.chunk(index, of: parts, count: count))
    }
}

/// Loops shared by the elementwise steps. Each has a variant for output == input, so in-place
/// steps keep their vectorised loop (the compiler's overlap check would otherwise reject it).
enum Elementwise {
    /// Elements per activation block.
    static let block = 1024
    /// Part `index` of `0..<count` in `parts` pieces, boundaries on multiples of 16 (the
    /// `WorkRange` split of 16-element blocks).
    static func chunk(_ index: Int, of parts: Int, count: Int) -> Range<Int> {
        let blocks = WorkRange.part(index, of: parts, count: (count + 15) / 16)
        return min(count, blocks.lowerBound * 16)..<min(count, blocks.upperBound * 16)
    }

    @inline(__always)
    static func map(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int, _ f: (Float) -> Float) {
        if UnsafePointer(y) == x {
            for i in 0..<n { y[i] = f(y[i]) }
        } else {
            for i in 0..<n { y[i] = f(x[i]) }
        }
    }

    /// `y[i] = f(a[i·sa], b[i·sb])` for `i < n`.
    @inline(__always)
    static func loop(
        _ a: UnsafePointer<Float>, _ sa: Int, _ b: UnsafePointer<Float>, _ sb: Int,
        _ y: UnsafeMutablePointer<Float>, _ n: Int, _ f: (Float, Float) -> Float
    ) {
        let inPlaceA = UnsafePointer(y) == a, inPlaceB = UnsafePointer(y) == b
        if sa == 1 && sb == 1 {
            if inPlaceA { for i in 0..<n { y[i] = f(y[i], b[i]) } } else if inPlaceB { for i in 0..<n { y[i] = f(a[i], y[i]) } } else { for i in 0..<n { y[i] = f(a[i], b[i]) } }
        } else if sa == 1 && sb == 0 {
            let v = b[0]
            if inPlaceA { for i in 0..<n { y[i] = f(y[i], v) } } else { for i in 0..<n { y[i] = f(a[i], v) } }
        } else if sa == 0 && sb == 1 {
            let v = a[0]
            if inPlaceB { for i in 0..<n { y[i] = f(v, y[i]) } } else { for i in 0..<n { y[i] = f(v, b[i]) } }
        } else {
            var ia = 0, ib = 0
            for i in 0..<n { y[i] = f(a[ia], b[ib]); ia &+= sa; ib &+= sb }
        }
    }

    /// Fused activation in place.
    @inline(__always)
    static func activation(_ y: UnsafeMutablePointer<Float>, count n: Int, _ act: Activation) {
        if act == .none { return }
        let (lo, hi) = act.range
        for i in 0..<n { y[i] = Activation.clamp(y[i], lo, hi) }
    }

    /// `y[i] = act(y[i] + bias[i])`, with `bias` 0 when absent (as the reference conv kernels).
    @inline(__always)
    static func biasActivation(_ y: UnsafeMutablePointer<Float>, count n: Int, bias: UnsafePointer<Float>?, activation act: Activation) {
        if let b = bias {
            if act == .none {
                for i in 0..<n { y[i] = y[i] + b[i] }
            } else {
                let (lo, hi) = act.range
                for i in 0..<n { y[i] = Activation.clamp(y[i] + b[i], lo, hi) }
            }
        } else {
            for i in 0..<n { y[i] = y[i] + 0 }
            activation(y, count: n, act)
        }
    }
}
