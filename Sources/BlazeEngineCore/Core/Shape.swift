/// Shape helpers. Activations are NHWC float32; a shape is a plain `[Int]` of non-negative dims.
public enum ShapeMath {
    /// Number of elements, or `nil` on overflow / negative dims.
    public static func elementCount(_ shape: [Int]) -> Int? {
        var n = 1
        for d in shape {
            guard d >= 0 else { return nil }
            let (p, o) = n.multipliedReportingOverflow(by: d)
            if o { return nil }
            n = p
        }
        return n
    }

    /// Row-major strides of `shape`.
    public static func strides(_ shape: [Int]) -> [Int] {
        var s = [Int](repeating: 1, count: shape.count)
        var acc = 1
        for i in stride(from: shape.count - 1, through: 0, by: -1) {
            s[i] = acc
            acc &*= shape[i]
        }
        return s
    }

    /// NumPy-style broadcast of two shapes, or `nil` if they are incompatible.
    public static func broadcast(_ a: [Int], _ b: [Int]) -> [Int]? {
        let rank = max(a.count, b.count)
        var out = [Int](repeating: 1, count: rank)
        for i in 0..<rank {
            let da = i < rank - a.count ? 1 : a[i - (rank - a.count)]
            let db = i < rank - b.count ? 1 : b[i - (rank - b.count)]
            if da == db || db == 1 { out[i] = da } else if da == 1 { out[i] = db } else { return nil }
        }
        return out
    }

    /// Normalises a possibly negative axis against `rank`, or `nil` if out of range.
    public static func normalizedAxis(_ axis: Int, rank: Int) -> Int? {
        let a = axis < 0 ? axis + rank : axis
        return (0..<max(rank, 1)).contains(a) ? a : nil
    }

    package static func describe(_ shape: [Int]) -> String { "[" + shape.map(String.init).joined(separator: ",") + "]" }

    /// Strides of `shape` right-aligned against `outShape`, 0 on broadcast (size-1 or missing) dims.
    public static func broadcastStrides(_ shape: [Int], to outShape: [Int]) -> [Int] {
        let rank = outShape.count, lead = rank - shape.count
        precondition(lead >= 0, "operand rank exceeds broadcast rank")
        let own = ShapeMath.strides(shape)
        var s = [Int](repeating: 0, count: rank)
        for d in 0..<shape.count where shape[d] != 1 {
            precondition(shape[d] == outShape[lead + d], "operand does not broadcast")
            s[lead + d] = own[d]
        }
        return s
    }
}
