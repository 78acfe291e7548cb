/// A row-major N-dimensional index space with the strides of up to three operands: the one loop
/// of the kernels that broadcast, slice, transpose or reduce, reference and planned alike (a
/// planned step prepares it once, at plan time). Dims of size 1 are dropped and dims contiguous
/// for every operand are merged, so the innermost run is as long as possible; the visiting order
/// stays row-major. Strides may be 0 (broadcast) or negative (reversed slices).
///
/// The caller loops over the innermost dim itself (`innerCount`, `inner0`…`inner2`), which keeps
/// that loop free of closure calls: `forEachRow(_:)` visits every innermost row, and
/// `forEachSegment(_:)` any sub-range of the linear index space without allocating, so work can
/// be split across threads at arbitrary element boundaries.
struct IndexSpace {
    private(set) var counts: [Int]
    private(set) var s0: [Int], s1: [Int], s2: [Int]
    /// Number of elements in the index space.
    let count: Int

    init(counts: [Int], _ a: [Int], _ b: [Int] = [], _ c: [Int] = []) {
        let rank = counts.count
        let a = a.isEmpty ? [Int](repeating: 0, count: rank) : a
        let b = b.isEmpty ? [Int](repeating: 0, count: rank) : b
        let c = c.isEmpty ? [Int](repeating: 0, count: rank) : c
        precondition(a.count == rank && b.count == rank && c.count == rank, "IndexSpace stride ranks differ")
        count = counts.reduce(1, *)
        var n: [Int] = [], x: [Int] = [], y: [Int] = [], z: [Int] = []
        for d in 0..<rank where counts[d] != 1 {
            let k = counts[d]
            if let last = n.indices.last, x[last] == a[d] * k, y[last] == b[d] * k, z[last] == c[d] * k {
                n[last] *= k
                x[last] = a[d]; y[last] = b[d]; z[last] = c[d]
            } else {
                n.append(k); x.append(a[d]); y.append(b[d]); z.append(c[d])
            }
        }
        if n.isEmpty { n = [1]; x = [0]; y = [0]; z = [0] }
        self.counts = n; s0 = x; s1 = y; s2 = z
    }

    var rank: Int { counts.count }
    var innerCount: Int { counts[counts.count - 1] }
    var inner0: Int { s0[s0.count - 1] }
    var inner1: Int { s1[s1.count - 1] }
    var inner2: Int { s2[s2.count - 1] }

    /// Calls `row(o0, o1, o2)` with the operand offsets at the start of every innermost row,
    /// starting from the given base offsets: the whole space as segments, each one row.
    @inline(__always)
    func forEachRow(base0: Int = 0, base1: Int = 0, base2: Int = 0, _ row: (Int, Int, Int) -> Void) {
        forEachSegment(0..<count, base0: base0, base1: base1, base2: base2) { o0, o1, o2, _ in row(o0, o1, o2) }
    }

    /// Calls `body(o0, o1, o2, length)` for each run of the linear range `elements` along the
    /// innermost dim, in row-major order; `o…` are the operands' offsets at the run's start.
    @inline(__always)
    func forEachSegment(
        _ elements: Range<Int>, base0: Int = 0, base1: Int = 0, base2: Int = 0,
        _ body: (Int, Int, Int, Int) -> Void
    ) {
        if elements.isEmpty || count == 0 { return }
        counts.withUnsafeBufferPointer { n in
            s0.withUnsafeBufferPointer { a in
                s1.withUnsafeBufferPointer { b in
                    s2.withUnsafeBufferPointer { c in
                        Self.walk(n, a, b, c, elements, base0, base1, base2, body)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func walk(
        _ n: UnsafeBufferPointer<Int>, _ a: UnsafeBufferPointer<Int>, _ b: UnsafeBufferPointer<Int>,
        _ c: UnsafeBufferPointer<Int>, _ elements: Range<Int>, _ base0: Int, _ base1: Int, _ base2: Int,
        _ body: (Int, Int, Int, Int) -> Void
    ) {
        let rank = n.count, last = rank &- 1
        let inner = n[last]
        withUnsafeTemporaryAllocation(of: Int.self, capacity: rank) { index in
            var rem = elements.lowerBound
            var o0 = base0, o1 = base1, o2 = base2
            var d = last
            while d >= 0 {
                let i = rem % n[d]
                rem /= n[d]
                index[d] = i
                o0 &+= i &* a[d]; o1 &+= i &* b[d]; o2 &+= i &* c[d]
                d &-= 1
            }
            var remaining = elements.count
            while true {
                let start = index[last]
                let length = min(inner &- start, remaining)
                body(o0, o1, o2, length)
                remaining &-= length
                if remaining == 0 { return }
                // The run ended at the end of the innermost dim: rewind it and carry outwards.
                o0 &-= start &* a[last]; o1 &-= start &* b[last]; o2 &-= start &* c[last]
                index[last] = 0
                var k = last &- 1
                while k >= 0 {
                    index[k] &+= 1
                    o0 &+= a[k]; o1 &+= b[k]; o2 &+= c[k]
                    if index[k] < n[k] { break }
                    o0 &-= a[k] &* n[k]; o1 &-= b[k] &* n[k]; o2 &-= c[k] &* n[k]
                    index[k] = 0
                    k &-= 1
                }
            }
        }
    }
}
