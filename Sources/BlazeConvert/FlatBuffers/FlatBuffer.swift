import BlazeEngine

/// A read-only, bounds-checked view of a FlatBuffers buffer.
///
/// Nothing here trusts the bytes: every offset is followed with overflow-reporting arithmetic and
/// checked against the buffer before it is read, so hostile input ends in a
/// `BlazeError(.corruptModel, …)`, never in a trap. Only what a schema-directed reader needs is
/// provided: tables with vtables, scalars with defaults, offsets to tables/vectors/strings, unions.
/// Values are little-endian (the FlatBuffers wire format); alignment is not required.
struct FlatBuffer: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    static func corrupt(_ message: String) -> BlazeError {
        BlazeError(.corruptModel, "FlatBuffer: \(message)")
    }

    /// Throws unless `size` bytes starting at `offset` lie inside the buffer.
    func checkRange(_ offset: Int, _ size: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, size >= 0 else {
            throw Self.corrupt("\(what()) at offset \(offset) (size \(size)) is invalid")
        }
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= bytes.count else {
            throw Self.corrupt("\(what()) at offset \(offset) (size \(size)) runs past the end of the \(bytes.count)-byte buffer")
        }
    }

    /// A little-endian integer at `offset`.
    func read<T: FixedWidthInteger>(_ type: T.Type, at offset: Int, _ what: @autoclosure () -> String = "value") throws -> T {
        try checkRange(offset, MemoryLayout<T>.size, what())
        return bytes.withUnsafeBytes { raw in
            T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
    }

    /// Follows the `uoffset_t` stored at `position` (target = position + value).
    func followOffset(at position: Int, _ what: @autoclosure () -> String) throws -> Int {
        let relative = try read(UInt32.self, at: position, what())
        let (target, overflow) = position.addingReportingOverflow(Int(relative))
        guard !overflow, target >= 0, target < bytes.count else {
            throw Self.corrupt("\(what()) points to \(target), outside the \(bytes.count)-byte buffer")
        }
        return target
    }

    /// The root table. With `fileIdentifier` (4 ASCII characters) the identifier at bytes 4..<8 must match.
    func rootTable(fileIdentifier: String? = nil) throws -> FBTable {
        guard bytes.count >= 8 else {
            throw Self.corrupt("buffer of \(bytes.count) bytes is too small to hold a root table")
        }
        if let fileIdentifier {
            let expected = Array(fileIdentifier.utf8)
            guard Array(bytes[4..<8]) == expected else {
                let found = String(decoding: bytes[4..<8].map { (32...126).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
                throw Self.corrupt("file identifier is '\(found)', expected '\(fileIdentifier)'")
            }
        }
        return try table(at: followOffset(at: 0, "root table offset"))
    }

    /// The table whose start (its `soffset_t` to the vtable) is at `position`.
    func table(at position: Int) throws -> FBTable {
        let soffset = try read(Int32.self, at: position, "table")
        let (vtable, overflow) = position.subtractingReportingOverflow(Int(soffset))
        guard !overflow, vtable >= 0 else {
            throw Self.corrupt("table at \(position) has vtable offset \(soffset) outside the buffer")
        }
        let vtableSize = Int(try read(UInt16.self, at: vtable, "vtable size"))
        let objectSize = Int(try read(UInt16.self, at: vtable + 2, "table size"))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw Self.corrupt("vtable at \(vtable) has invalid size \(vtableSize)")
        }
        try checkRange(vtable, vtableSize, "vtable")
        guard objectSize >= 4 else {
            throw Self.corrupt("table at \(position) has invalid inline size \(objectSize)")
        }
        try checkRange(position, objectSize, "table")
        return FBTable(buffer: self, position: position, vtable: vtable, vtableSize: vtableSize, objectSize: objectSize)
    }

    /// The vector whose length prefix is at `position`, with elements of `elementSize` bytes.
    func vector(at position: Int, elementSize: Int) throws -> FBVector {
        let length = Int(try read(UInt32.self, at: position, "vector length"))
        let (byteCount, overflow) = length.multipliedReportingOverflow(by: elementSize)
        guard !overflow else { throw Self.corrupt("vector at \(position) of \(length) elements is too large") }
        try checkRange(position + 4, byteCount, "vector of \(length) elements")
        return FBVector(buffer: self, start: position + 4, count: length, elementSize: elementSize)
    }

    /// The string whose length prefix is at `position` (UTF-8; invalid sequences are replaced, not trusted).
    func string(at position: Int) throws -> String {
        let v = try vector(at: position, elementSize: 1)
        return String(decoding: bytes[v.byteRange], as: UTF8.self)
    }
}

/// A table: fields are looked up through its vtable by field id (0-based, in schema order).
struct FBTable: Sendable {
    let buffer: FlatBuffer
    let position: Int
    let vtable: Int
    let vtableSize: Int
    let objectSize: Int

    /// Absolute position of field `id` holding `size` bytes inline, or nil if the field is absent.
    func fieldPosition(_ id: Int, size: Int) throws -> Int? {
        guard id >= 0, id < (vtableSize - 4) / 2 else { return nil }
        let relative = Int(try buffer.read(UInt16.self, at: vtable + 4 + 2 * id, "vtable entry"))
        if relative == 0 { return nil }
        guard relative >= 4, relative + size <= objectSize else {
            throw FlatBuffer.corrupt("field \(id) of table at \(position) lies outside the table (offset \(relative), size \(size), table size \(objectSize))")
        }
        return position + relative
    }

    func has(_ id: Int) throws -> Bool { try fieldPosition(id, size: 1) != nil }

    /// A scalar field, or `defaultValue` if absent.
    func scalar<T: FixedWidthInteger>(_ id: Int, default defaultValue: T) throws -> T {
        guard let p = try fieldPosition(id, size: MemoryLayout<T>.size) else { return defaultValue }
        return try buffer.read(T.self, at: p, "field \(id)")
    }

    func float32(_ id: Int, default defaultValue: Float) throws -> Float {
        guard let p = try fieldPosition(id, size: 4) else { return defaultValue }
        return Float(bitPattern: try buffer.read(UInt32.self, at: p, "field \(id)"))
    }

    func bool(_ id: Int, default defaultValue: Bool) throws -> Bool {
        try scalar(id, default: UInt8(defaultValue ? 1 : 0)) != 0
    }

    /// Position an offset field points to, or nil if absent.
    func target(_ id: Int) throws -> Int? {
        guard let p = try fieldPosition(id, size: 4) else { return nil }
        return try buffer.followOffset(at: p, "field \(id) of table at \(position)")
    }

    func table(_ id: Int) throws -> FBTable? {
        guard let t = try target(id) else { return nil }
        return try buffer.table(at: t)
    }

    func vector(_ id: Int, elementSize: Int) throws -> FBVector? {
        guard let t = try target(id) else { return nil }
        return try buffer.vector(at: t, elementSize: elementSize)
    }

    func string(_ id: Int) throws -> String? {
        guard let t = try target(id) else { return nil }
        return try buffer.string(at: t)
    }

    /// A union stored as a type field (`typeID`, a `u8`) and a value field (`typeID + 1`, a table).
    /// Type 0 (NONE) or a missing value give a nil table.
    func union(typeID: Int) throws -> (type: UInt8, table: FBTable?) {
        let type: UInt8 = try scalar(typeID, default: 0)
        guard type != 0 else { return (0, nil) }
        return (type, try table(typeID + 1))
    }

    /// A vector of tables, each turned into an element by `element(table, index)` (empty if absent).
    func tables<T>(_ id: Int, _ element: (FBTable, Int) throws -> T) throws -> [T] {
        guard let v = try vector(id, elementSize: 4) else { return [] }
        var result: [T] = []
        result.reserveCapacity(v.count)
        for i in 0..<v.count { result.append(try element(v.table(at: i), i)) }
        return result
    }

    /// Convenience: a vector of scalars as `[Int]` (empty if absent).
    func ints<T: FixedWidthInteger>(_ id: Int, as type: T.Type) throws -> [Int] {
        guard let v = try vector(id, elementSize: MemoryLayout<T>.size) else { return [] }
        return try v.ints(as: T.self)
    }
}

/// A vector: `count` elements of `elementSize` bytes starting at `start`, already bounds-checked as a whole.
struct FBVector: Sendable {
    let buffer: FlatBuffer
    let start: Int
    let count: Int
    let elementSize: Int

    var byteRange: Range<Int> { start..<(start + count * elementSize) }

    private func elementPosition(_ index: Int) throws -> Int {
        guard index >= 0, index < count else {
            throw FlatBuffer.corrupt("vector index \(index) out of range 0..<\(count)")
        }
        return start + index * elementSize
    }

    func scalar<T: FixedWidthInteger>(at index: Int, as type: T.Type) throws -> T {
        try buffer.read(T.self, at: elementPosition(index), "vector element")
    }

    func table(at index: Int) throws -> FBTable {
        try buffer.table(at: buffer.followOffset(at: elementPosition(index), "vector element \(index)"))
    }

    func string(at index: Int) throws -> String {
        try buffer.string(at: buffer.followOffset(at: elementPosition(index), "vector element \(index)"))
    }

    /// All elements widened to `Int`.
    func ints<T: FixedWidthInteger>(as type: T.Type) throws -> [Int] {
        let size = MemoryLayout<T>.size
        guard size == elementSize else { throw FlatBuffer.corrupt("vector element size \(elementSize) read as \(size)") }
        try buffer.checkRange(start, count * size, "vector")
        var out: [Int] = []
        out.reserveCapacity(count)
        try buffer.bytes.withUnsafeBytes { raw in
            for i in 0..<count {
                let v = T(littleEndian: raw.loadUnaligned(fromByteOffset: start + i * size, as: T.self))
                guard let n = Int(exactly: v) else { throw FlatBuffer.corrupt("vector element \(v) does not fit an Int") }
                out.append(n)
            }
        }
        return out
    }
}
