/// Appends little-endian values to a byte array; the writing half of `.bkm` encoding (used by the
/// converter's `ModelFileWriter` and by `Op.encodedParameters()`).
///
/// Values that do not fit the field width throw `BlazeError(.invalidInput)` instead of trapping or
/// being truncated, so a graph the format cannot hold is refused, never silently altered.
public struct LittleEndianWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var count: Int { bytes.count }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }

    public mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    public mutating func u16(_ v: UInt16) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes `v` as an `i32`; throws if it does not fit.
    public mutating func i32(_ v: Int, _ what: @autoclosure () -> String) throws {
        guard let narrow = Int32(exactly: v) else {
            throw BlazeError(.invalidInput, "\(what()) = \(v) does not fit in 32 bits")
        }
        u32(UInt32(bitPattern: narrow))
    }

    /// Writes a non-negative `v` as a `u32`; throws if it is negative or does not fit.
    public mutating func u32(_ v: Int, _ what: @autoclosure () -> String) throws {
        guard let narrow = UInt32(exactly: v) else {
            throw BlazeError(.invalidInput, "\(what()) = \(v) does not fit in an unsigned 32-bit field")
        }
        u32(narrow)
    }

    /// Writes a non-negative `v` as a `u64`.
    public mutating func u64(_ v: Int, _ what: @autoclosure () -> String) throws {
        guard let wide = UInt64(exactly: v) else {
            throw BlazeError(.invalidInput, "\(what()) = \(v) is negative")
        }
        u64(wide)
    }

    /// `u32` UTF-8 byte length, then the bytes.
    public mutating func string(_ s: String, _ what: @autoclosure () -> String) throws {
        let utf8 = Array(s.utf8)
        guard utf8.count <= ModelFile.Layout.maxStringBytes else {
            throw BlazeError(.invalidInput, "\(what()) is \(utf8.count) bytes, over the limit \(ModelFile.Layout.maxStringBytes)")
        }
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Appends zero bytes until `count` is a multiple of `alignment`.
    public mutating func padZeros(toMultipleOf alignment: Int) {
        let rem = bytes.count % alignment
        if rem != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - rem)) }
    }

    public mutating func reserveCapacity(_ n: Int) { bytes.reserveCapacity(n) }
}
