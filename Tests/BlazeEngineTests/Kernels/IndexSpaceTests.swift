import BlazeTestSupport
import Testing

@testable import BlazeEngine

/// `IndexSpace`, the loop under every broadcasting, slicing, transposing and reducing kernel
/// (reference and planned), against the plain definition: the operand offsets `Σ index[d] ·
/// stride[d]` of every index in row-major order, enumerated one element at a time.
@Suite("Index space")
struct IndexSpaceTests {
    /// Every element's three offsets, row-major, by counting through the indices.
    static func enumerated(_ counts: [Int], _ strides: [[Int]]) -> [[Int]] {
        var out: [[Int]] = []
        var index = [Int](repeating: 0, count: counts.count)
        guard !counts.contains(0) else { return [] }
        while true {
            out.append(strides.map { s in zip(index, s).reduce(0) { $0 + $1.0 * $1.1 } })
            var d = counts.count - 1
            while d >= 0 {
                index[d] += 1
                if index[d] < counts[d] { break }
                index[d] = 0
                d -= 1
            }
            if d < 0 { return out }
        }
    }

    /// The offsets `forEachRow` visits, expanded along the innermost dim.
    static func rows(_ space: IndexSpace) -> [[Int]] {
        var out: [[Int]] = []
        space.forEachRow { a, b, c in
            for i in 0..<space.innerCount { out.append([a + i * space.inner0, b + i * space.inner1, c + i * space.inner2]) }
        }
        return out
    }

    /// The offsets `forEachSegment` visits over `range`, expanded along each run.
    static func segments(_ space: IndexSpace, _ range: Range<Int>) -> [[Int]] {
        var out: [[Int]] = []
        space.forEachSegment(range) { a, b, c, length in
            for i in 0..<length { out.append([a + i * space.inner0, b + i * space.inner1, c + i * space.inner2]) }
        }
        return out
    }

    /// Strides of each kind the kernels pass: row-major (merges), broadcast zeros, a permutation
    /// (transpose), negative (reversed slice) and gapped (strided slice).
    static func strides(for counts: [Int], kind: Int, _ random: inout SeededRandom) -> [Int] {
        let rowMajor = ShapeMath.strides(counts)
        switch kind {
        case 0: return rowMajor
        case 1: return rowMajor.map { random.next() % 3 == 0 ? 0 : $0 }
        case 2: return rowMajor.shuffled(using: &random)
        case 3: return rowMajor.map { random.next() % 2 == 0 ? -$0 : $0 }
        default: return rowMajor.map { $0 * Int(1 + random.next() % 3) }
        }
    }

    @Test func visitsEveryIndexInRowMajorOrderWithItsOffsets() {
        var random = SeededRandom(seed: 45)
        for trial in 0..<400 {
            let rank = Int(random.next() % 6)
            let counts = (0..<rank).map { _ in [1, 1, 2, 3, 4, 7][Int(random.next() % 6)] }
            let strides = (0..<3).map { _ in Self.strides(for: counts, kind: Int((random.next() &+ UInt64(trial)) % 5), &random) }
            let space = IndexSpace(counts: counts, strides[0], strides[1], strides[2])
            let expected = Self.enumerated(counts, strides)
            #expect(space.count == expected.count)
            #expect(Self.rows(space) == expected, "\(counts) \(strides)")
            #expect(Self.segments(space, 0..<space.count) == expected, "\(counts) \(strides)")
            // A sub-range starting and ending mid-row, as a thread's share.
            if space.count > 2 {
                let lower = Int(random.next() % UInt64(space.count)), upper = lower + Int(random.next() % UInt64(space.count - lower + 1))
                #expect(Self.segments(space, lower..<upper) == Array(expected[lower..<upper]), "\(counts) \(strides) \(lower)..<\(upper)")
            }
        }
    }

    @Test func mergesDimsContiguousForEveryOperandOnly() {
        // [2, 3, 4] row-major for both: one run of 24.
        let whole = IndexSpace(counts: [2, 3, 4], [12, 4, 1], [12, 4, 1])
        #expect(whole.counts == [24] && whole.inner0 == 1 && whole.inner1 == 1)
        // The second operand broadcast along dim 1: dims 1 and 2 merge for the first only, so none.
        let broadcast = IndexSpace(counts: [2, 3, 4], [12, 4, 1], [4, 0, 1])
        #expect(broadcast.counts == [2, 3, 4])
        // Dims of size 1 dropped; an empty shape (a scalar) is one element.
        #expect(IndexSpace(counts: [1, 5, 1], [5, 1, 1]).counts == [5])
        let scalar = IndexSpace(counts: [], [])
        #expect(scalar.count == 1 && Self.rows(scalar) == [[0, 0, 0]])
        // A zero dim: nothing to visit.
        let empty = IndexSpace(counts: [3, 0, 2], [0, 2, 1])
        #expect(empty.count == 0 && Self.rows(empty).isEmpty && Self.segments(empty, 0..<0).isEmpty)
    }
}
