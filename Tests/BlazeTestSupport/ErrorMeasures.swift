/// Error measures for comparisons against a reference. Swift's `max(_:_:)` and `Sequence.max()`
/// drop a NaN unless it comes first, so a kernel that wrote one NaN would pass a check built on
/// them; these treat NaN and ±∞ as the worst possible error (+∞) instead.

/// The larger of two errors; +∞ when either is NaN or infinite.
@inlinable
public func worse<F: BinaryFloatingPoint>(_ a: F, _ b: F) -> F {
    guard a.isFinite, b.isFinite else { return .infinity }
    return a < b ? b : a
}

/// Largest `|a[i] − b[i]|`; +∞ when the counts differ or any value on either side is not finite.
public func maxAbsDifference<F: BinaryFloatingPoint>(_ a: [F], _ b: [F]) -> F {
    guard a.count == b.count else { return .infinity }
    var worst: F = 0
    for (x, y) in zip(a, b) { worst = worse(worst, abs(x - y)) }
    return worst
}

extension Sequence where Element: BinaryFloatingPoint {
    /// The largest element, 0 for an empty sequence; +∞ when any element is NaN or infinite.
    public func worstError() -> Element { reduce(0, worse) }

    /// The largest magnitude, 0 for an empty sequence; +∞ when any element is NaN or infinite.
    public func maxMagnitude() -> Element { reduce(0) { worse($0, abs($1)) } }
}
