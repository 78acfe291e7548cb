/// A minimal FlatBuffers writer for building test inputs (tables, scalar vectors, table vectors,
/// strings). Objects are laid out front to back: a parent is written before its children, so
/// every `uoffset` points forward as the format requires; each table's vtable sits right before it.
indirect enum FBNode {
    case table([(id: Int, field: FBField)])
    case string(String)
    /// A vector of scalars: raw little-endian element bytes.
    case scalars(count: Int, bytes: [UInt8])
    case tables([FBNode])

    static func ints32(_ v: [Int]) -> FBNode { .scalars(count: v.count, bytes: v.flatMap { fbLE(Int32(truncatingIfNeeded: $0)) }) }
    static func ints16u(_ v: [Int]) -> FBNode { .scalars(count: v.count, bytes: v.flatMap { fbLE(UInt16(truncatingIfNeeded: $0)) }) }
    static func bytes(_ v: [UInt8]) -> FBNode { .scalars(count: v.count, bytes: v) }
}

enum FBField {
    case inline([UInt8])
    case offset(FBNode)

    static func i8(_ v: Int8) -> FBField { .inline(fbLE(v)) }
    static func u8(_ v: UInt8) -> FBField { .inline([v]) }
    static func bool(_ v: Bool) -> FBField { .inline([v ? 1 : 0]) }
    static func i32(_ v: Int32) -> FBField { .inline(fbLE(v)) }
    static func u32(_ v: UInt32) -> FBField { .inline(fbLE(v)) }
    static func u64(_ v: UInt64) -> FBField { .inline(fbLE(v)) }
    static func f32(_ v: Float) -> FBField { .inline(fbLE(v.bitPattern)) }
}

func fbLE<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
    (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
}

struct TinyFlatBufferBuilder {
    private(set) var bytes: [UInt8] = []

    /// A whole buffer: root offset, optional 4-byte file identifier, then the root table.
    static func build(root: FBNode, fileIdentifier: String? = nil) -> [UInt8] {
        var b = TinyFlatBufferBuilder()
        b.bytes = [0, 0, 0, 0]
        b.bytes += fileIdentifier.map { Array($0.utf8.prefix(4)) } ?? [0, 0, 0, 0]
        let root = b.write(root)
        b.patch(at: 0, to: root)
        return b.bytes
    }

    private mutating func align(_ n: Int) {
        while bytes.count % n != 0 { bytes.append(0) }
    }

    private mutating func patch(at position: Int, to target: Int) {
        let v = UInt32(target - position)
        for i in 0..<4 { bytes[position + i] = UInt8(truncatingIfNeeded: v >> (8 * i)) }
    }

    /// Writes `node` (and everything below it) at the end; returns its position.
    @discardableResult
    mutating func write(_ node: FBNode) -> Int {
        switch node {
        case .string(let s):
            align(4)
            let p = bytes.count
            bytes += fbLE(UInt32(s.utf8.count)) + Array(s.utf8) + [0]
            return p
        case .scalars(let count, let raw):
            align(8)
            if bytes.count % 8 == 0 { bytes += [0, 0, 0, 0] }  // so 8-byte elements start 8-aligned
            let p = bytes.count
            bytes += fbLE(UInt32(count)) + raw
            return p
        case .tables(let children):
            align(4)
            let p = bytes.count
            bytes += fbLE(UInt32(children.count))
            bytes += [UInt8](repeating: 0, count: 4 * children.count)
            for (i, child) in children.enumerated() {
                let c = write(child)
                patch(at: p + 4 + 4 * i, to: c)
            }
            return p
        case .table(let unsorted):
            let fields = unsorted.sorted { $0.id < $1.id }
            let slots = (fields.map(\.id).max() ?? -1) + 1
            // Inline layout: soffset, then fields in id order, each aligned to its size.
            var inline: [UInt8] = [0, 0, 0, 0]
            var relative = [Int](repeating: 0, count: slots)
            var pending: [(offsetInTable: Int, child: FBNode)] = []
            for f in fields {
                switch f.field {
                case .inline(let raw):
                    while inline.count % raw.count != 0 { inline.append(0) }
                    relative[f.id] = inline.count
                    inline += raw
                case .offset(let child):
                    while inline.count % 4 != 0 { inline.append(0) }
                    relative[f.id] = inline.count
                    pending.append((inline.count, child))
                    inline += [0, 0, 0, 0]
                }
            }
            while inline.count % 4 != 0 { inline.append(0) }
            align(2)
            let vtable = bytes.count
            bytes += fbLE(UInt16(4 + 2 * slots)) + fbLE(UInt16(inline.count))
            for r in relative { bytes += fbLE(UInt16(r)) }
            align(8)
            let table = bytes.count
            bytes += inline
            let soffset = Int32(table - vtable)
            for i in 0..<4 { bytes[table + i] = UInt8(truncatingIfNeeded: soffset >> (8 * Int32(i))) }
            for (offsetInTable, child) in pending {
                let c = write(child)
                patch(at: table + offsetInTable, to: c)
            }
            return table
        }
    }
}
