/// Bounds-checked little-endian reads from one byte range of a model file.
///
/// Every failure is a `BlazeError(.corruptModel)` naming the field, the section and the absolute
/// file offset. Nothing here can trap on hostile input: all offsets are checked against `end`
/// before a read, and reads use `loadUnaligned` because nothing inside a section is aligned.
struct ByteCursor {
    let bytes: UnsafeRawBufferPointer
    /// Absolute file offset of the next read.
    private(set) var position: Int
    /// One past the last byte this cursor may read.
    let end: Int
    /// Names the section in error messages ("graph section", "parameters of op 3 CONV_2D").
    let section: String

    /// `start...end` must lie within `bytes` (checked by the caller; a violation is a programming error).
    init(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, section: String) {
        precondition(start >= 0 && start <= end && end <= bytes.count, "cursor range outside the buffer")
        self.bytes = bytes
        self.position = start
        self.end = end
        self.section = section
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position == end }

    func error(_ message: String) -> BlazeError {
        BlazeError(.corruptModel, message, context: section)
    }

    /// Consumes `count` bytes and returns the offset of the first.
    mutating func skip(_ count: Int, _ what: @autoclosure () -> String) throws -> Int {
        guard count >= 0, count <= remaining else {
            throw error("\(what()) at byte \(position) needs \(count) bytes, only \(remaining) left")
        }
        let start = position
        position += count
        return start
    }

    mutating func u8(_ what: @autoclosure () -> String) throws -> UInt8 {
        let at = try skip(1, what())
        return bytes[at]
    }

    mutating func u32(_ what: @autoclosure () -> String) throws -> UInt32 {
        let at = try skip(4, what())
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    mutating func u64(_ what: @autoclosure () -> String) throws -> UInt64 {
        let at = try skip(8, what())
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    mutating func i32(_ what: @autoclosure () -> String) throws -> Int {
        Int(Int32(bitPattern: try u32(what())))
    }

    /// A `u8` that must be 0 or 1.
    mutating func bool(_ what: @autoclosure () -> String) throws -> Bool {
        let at = position
        let v = try u8(what())
        guard v <= 1 else { throw error("\(what()) at byte \(at) is \(v), expected 0 or 1") }
        return v == 1
    }

    /// A `u32` bit pattern read as a finite Float.
    mutating func finiteFloat(_ what: @autoclosure () -> String) throws -> Float {
        let at = position
        let v = Float(bitPattern: try u32(what()))
        guard v.isFinite else { throw error("\(what()) at byte \(at) is \(v), expected a finite value") }
        return v
    }

    /// An `i32` that must lie in `range`.
    mutating func i32(_ what: @autoclosure () -> String, in range: ClosedRange<Int>) throws -> Int {
        let at = position
        let v = try i32(what())
        guard range.contains(v) else {
            throw error("\(what()) at byte \(at) is \(v), outside \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    /// A `u32` that must be `< bound` (an index into a table of `bound` entries).
    mutating func index(_ what: @autoclosure () -> String, below bound: Int) throws -> Int {
        let at = position
        let v = Int(try u32(what()))
        guard v < bound else { throw error("\(what()) at byte \(at) is \(v), but there are only \(bound)") }
        return v
    }

    /// An enum stored as its `u8` raw value.
    mutating func enumeration<E: RawRepresentable>(_ type: E.Type, _ what: @autoclosure () -> String) throws -> E
    where E.RawValue == UInt8 {
        let at = position
        let raw = try u8(what())
        guard let v = E(rawValue: raw) else { throw error("\(what()) at byte \(at) has unknown value \(raw)") }
        return v
    }

    /// A `u32` element count, capped by `max` and by the bytes left (each element takes at least
    /// `minBytesEach`), so a lying count can never cause a large allocation.
    mutating func count(_ what: @autoclosure () -> String, max: Int, minBytesEach: Int) throws -> Int {
        let at = position
        let n = Int(try u32(what()))
        guard n <= max else { throw error("\(what()) at byte \(at) is \(n), over the limit \(max)") }
        let (need, overflow) = n.multipliedReportingOverflow(by: minBytesEach)
        guard !overflow, need <= remaining else {
            throw error("\(what()) at byte \(at) is \(n), but only \(remaining) bytes follow")
        }
        return n
    }

    /// A `count` (as above) followed by that many records, record `i` read by `read(&self, i)`.
    mutating func records<T>(
        _ what: @autoclosure () -> String, max: Int, minBytesEach: Int, _ read: (inout ByteCursor, Int) throws -> T
    ) throws -> [T] {
        let n = try count(what(), max: max, minBytesEach: minBytesEach)
        var values: [T] = []
        values.reserveCapacity(n)
        for i in 0..<n { values.append(try read(&self, i)) }
        return values
    }

    /// `u32` byte length followed by that many bytes of valid UTF-8.
    mutating func string(_ what: @autoclosure () -> String) throws -> String {
        let length = try count("length of \(what())", max: ModelFile.Layout.maxStringBytes, minBytesEach: 1)
        let at = try skip(length, what())
        let slice = UnsafeRawBufferPointer(rebasing: bytes[at..<(at + length)])
        guard let s = String(validating: slice, as: UTF8.self) else {
            throw error("\(what()) at byte \(at) is not valid UTF-8")
        }
        return s
    }

    /// A cursor over the next `count` bytes; this cursor moves past them.
    mutating func subCursor(_ count: Int, section: String) throws -> ByteCursor {
        let at = try skip(count, section)
        return ByteCursor(bytes, from: at, to: at + count, section: section)
    }

    /// Throws unless every byte of the range was consumed.
    func expectEnd() throws {
        guard isAtEnd else { throw error("\(remaining) unexpected trailing bytes at byte \(position)") }
    }
}
