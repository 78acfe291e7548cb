// Small helpers shared by the reference kernels: plan-time parameter resolution and a strided
// N-dimensional loop used by the broadcasting, slicing, transposing and reducing kernels.

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

extension ReferenceKernels {
    /// A loop over an N-dimensional index space in row-major order that tracks the offsets of up to
    /// three strided operands (strides may be 0 for broadcasting, or negative for reversed slices).
    ///
    /// Dimensions of size 1 are dropped and adjacent dimensions that are contiguous for every operand
    /// are merged, so the innermost row is as long as possible; iteration order stays row-major. The
    /// caller loops over the innermost dimension itself (`innerCount`, `inner0`…`inner2`), which keeps
    /// that loop free of closure calls.
    struct StridedLoop {
        /// Coalesced dims (rank ≥ 1) and per-operand strides.
        private(set) var counts: [Int]
        private(set) var s0: [Int], s1: [Int], s2: [Int]
        /// True when the index space has no elements (some dim is 0).
        let isEmpty: Bool

        init(counts: [Int], _ a: [Int], _ b: [Int] = [], _ c: [Int] = []) {
            let rank = counts.count
            let a = a.isEmpty ? [Int](repeating: 0, count: rank) : a
            let b = b.isEmpty ? [Int](repeating: 0, count: rank) : b
            let c = c.isEmpty ? [Int](repeating: 0, count: rank) : c
            precondition(a.count == rank && b.count == rank && c.count == rank, "StridedLoop stride ranks differ")
            isEmpty = counts.contains(0)
            var n: [Int] = [], x: [Int] = [], y: [Int] = [], z: [Int] = []
            n.reserveCapacity(rank); x.reserveCapacity(rank); y.reserveCapacity(rank); z.reserveCapacity(rank)
            for d in 0..<rank where counts[d] != 1 {
                let k = counts[d]
                if let last = n.indices.last,
                    x[last] == a[d] &* k, y[last] == b[d] &* k, z[last] == c[d] &* k
                {
                    n[last] &*= k
                    x[last] = a[d]; y[last] = b[d]; z[last] = c[d]
                } else {
                    n.append(k); x.append(a[d]); y.append(b[d]); z.append(c[d])
                }
            }
            if n.isEmpty { n = [1]; x = [0]; y = [0]; z = [0] }
            self.counts = n; self.s0 = x; self.s1 = y; self.s2 = z
        }

        var innerCount: Int { counts[counts.count - 1] }
        var inner0: Int { s0[s0.count - 1] }
        var inner1: Int { s1[s1.count - 1] }
        var inner2: Int { s2[s2.count - 1] }

        /// Calls `row(o0, o1, o2)` with the operand offsets at the start of every innermost row,
        /// starting from the given base offsets.
        @inline(__always)
        func forEachRow(base0: Int = 0, base1: Int = 0, base2: Int = 0, _ row: (Int, Int, Int) -> Void) {
            if isEmpty { return }
            let outer = counts.count - 1
            if outer == 0 { row(base0, base1, base2); return }
            var index = [Int](repeating: 0, count: outer)
            var o0 = base0, o1 = base1, o2 = base2
            while true {
                row(o0, o1, o2)
                var d = outer - 1
                while d >= 0 {
                    index[d] &+= 1
                    o0 &+= s0[d]; o1 &+= s1[d]; o2 &+= s2[d]
                    if index[d] < counts[d] { break }
                    let k = counts[d]
                    o0 &-= s0[d] &* k; o1 &-= s1[d] &* k; o2 &-= s2[d] &* k
                    index[d] = 0
                    d &-= 1
                }
                if d < 0 { return }
            }
        }
    }
}
