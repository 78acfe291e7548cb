import Foundation

/// Layer normalisation over the last axis of a `[rows, channels]` tensor, the one step that
/// replaces the ten nodes of a `LayerNormFusion` match:
///
///     m = mean(x)                 r = 1 / sqrt(mean((x − m)²) + ε)        s[c] = r · γ[c]
///     y[c] = x[c]·s[c] + (−m)·s[c]             (no β)
///     y[c] = x[c]·s[c] + (β[c] − m·s[c])       (β)
///
/// Element for element the float operations of the nodes it replaces, in their order (the means
/// sum in `RowSum`'s order, like `ReduceStep` and the reference MEAN), so it is bitwise equal to
/// running those nodes. Rows are split across threads. `y` may be exactly `x` (each row is read
/// whole before it is written), not partially overlap it.
final class LayerNormStep: ParallelJob {
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let gamma: UnsafePointer<Float>
    let beta: UnsafePointer<Float>?
    let epsilon: Float
    let rows: Int, channels: Int
    let parts: Int

    init(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Int, channels: Int,
        gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>?, epsilon: Float, threads: Int
    ) {
        precondition(rows >= 0 && channels >= 1, "LayerNormStep: \(rows) rows of \(channels) channels")
        x = input; y = output
        self.gamma = gamma; self.beta = beta; self.epsilon = epsilon
        self.rows = rows; self.channels = channels
        let work = rows * channels
        parts = Parallelism.tasks(units: rows, work: work, minWork: Parallelism.minElementwiseWork, threads: threads)
    }

    func execute(_ pool: WorkerPool) { pool.run(self, taskCount: parts) }

    func runTask(_ index: Int) { run(rows: WorkRange.part(index, of: parts, count: rows)) }

    func run(rows range: Range<Int>) {
        let C = channels
        let divisor = Float(C)
        for row in range {
            let xr = x + row &* C, yr = y + row &* C
            // MEAN starts its output at 0 and adds the row sum (0 + −0 is +0, as there).
            let m = (0 + RowSum.sum(xr, count: C)) / divisor
            let v = (0 + Self.squaredDifferenceSum(xr, mean: m, count: C)) / divisor
            let r = 1 / (v + epsilon).squareRoot()
            let r8 = SIMD8<Float>(repeating: r), m8 = SIMD8<Float>(repeating: m), negated8 = -m8
            // 8 channels at a time, then the same arithmetic one channel at a time (elementwise,
            // so the same bits).
            var c = 0
            if let beta {
                while c &+ 8 <= C {
                    let s = r8 * Self.load(gamma, c)
                    Self.store(Self.load(xr, c) * s + (Self.load(beta, c) - m8 * s), yr, c)
                    c &+= 8
                }
                while c < C {
                    let s = r * gamma[c]
                    yr[c] = xr[c] * s + (beta[c] - m * s)
                    c &+= 1
                }
            } else {
                while c &+ 8 <= C {
                    let s = r8 * Self.load(gamma, c)
                    Self.store(Self.load(xr, c) * s + negated8 * s, yr, c)
                    c &+= 8
                }
                let negated = -m
                while c < C {
                    let s = r * gamma[c]
                    yr[c] = xr[c] * s + negated * s
                    c &+= 1
                }
            }
        }
    }

    @inline(__always)
    private static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ c: Int) {
        UnsafeMutableRawPointer(p + c).storeBytes(of: v, as: SIMD8<Float>.self)
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<Float>, _ c: Int) -> SIMD8<Float> {
        UnsafeRawPointer(p + c).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// `RowSum.sum` of `(x[i] − mean)²` without storing the squares: the same lanes, tree and tail.
    @inline(__always)
    static func squaredDifferenceSum(_ x: UnsafePointer<Float>, mean: Float, count n: Int) -> Float {
        var lanes = SIMD8<Float>(repeating: 0)
        let m8 = SIMD8<Float>(repeating: mean)
        var i = 0
        while i &+ 8 <= n {
            let d = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD8<Float>.self) - m8
            lanes += d * d
            i &+= 8
        }
        let half = lanes.lowHalf + lanes.highHalf
        let quarter = half.lowHalf + half.highHalf
        var total = quarter[0] + quarter[1]
        while i < n {
            let d = x[i] - mean
            total += d * d
            i &+= 1
        }
        return total
    }
}
