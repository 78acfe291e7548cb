import BlazeEngine

/// A minimal FlexBuffers reader: the schemaless format of TFLite custom options (MediaPipe stores
/// its op attributes as one map). It decodes scalars, strings, keys, maps and vectors (untyped,
/// typed and fixed-length) into `FlexValue`s. Nothing is trusted: every offset and size is
/// checked against the bytes, nesting is capped, and the values decoded are capped by the input
/// size (offsets may be shared, so a small hostile buffer could otherwise expand without bound).
/// Errors are `BlazeError(.corruptModel)` saying what and where.
enum FlexValue: Sendable, Equatable {
    case null
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case bool(Bool)
    case string(String)
    case vector([FlexValue])
    case map([String: FlexValue])

    /// Parses a whole FlexBuffer (the root is at its end).
    static func parse(_ bytes: ArraySlice<UInt8>) throws -> FlexValue {
        var reader = FlexReader(bytes: Array(bytes))
        return try reader.root()
    }
}

private struct FlexReader {
    let bytes: [UInt8]
    var budget: Int
    static let maxDepth = 16

    init(bytes: [UInt8]) {
        self.bytes = bytes
        budget = 2 * bytes.count + 16
    }

    func fail(_ message: String) -> BlazeError { BlazeError(.corruptModel, "flexbuffer: \(message)") }

    mutating func root() throws -> FlexValue {
        guard bytes.count >= 3 else { throw fail("\(bytes.count) bytes, too short for a root") }
        let width = Int(bytes[bytes.count - 1])
        guard [1, 2, 4, 8].contains(width), bytes.count >= 2 + width else {
            throw fail("root byte width \(width) is not 1, 2, 4 or 8 or does not fit")
        }
        return try value(at: bytes.count - 2 - width, parentWidth: width, packed: bytes[bytes.count - 2], depth: 0)
    }

    func uint(_ at: Int, _ width: Int) throws -> UInt64 {
        guard [1, 2, 4, 8].contains(width), at >= 0, at <= bytes.count - width else {
            throw fail("read of \(width) bytes at \(at) is outside the \(bytes.count)-byte buffer")
        }
        var v: UInt64 = 0
        for i in 0..<width { v |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
        return v
    }

    func int(_ at: Int, _ width: Int) throws -> Int64 {
        let v = try uint(at, width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: v << shift) >> Int64(shift)
    }

    func float(_ at: Int, _ width: Int) throws -> Double {
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(try uint(at, 4))))
        case 8: return Double(bitPattern: try uint(at, 8))
        default: throw fail("float of \(width) bytes at \(at)")
        }
    }

    /// The position an offset at `at` points back to.
    func target(_ at: Int, _ width: Int) throws -> Int {
        let offset = try uint(at, width)
        guard offset <= UInt64(at) else { throw fail("offset \(offset) at \(at) points before the buffer") }
        return at - Int(offset)
    }

    /// Element count stored before a vector at `start`, checked against the bytes after it.
    mutating func count(_ start: Int, _ width: Int, bytesEach: Int) throws -> Int {
        let n = try uint(start - width, width)
        guard n <= UInt64(bytes.count), start + Int(n) * bytesEach <= bytes.count else {
            throw fail("vector at \(start) claims \(n) elements, more than the buffer holds")
        }
        budget -= Int(n)
        guard budget >= 0 else { throw fail("more values than the buffer can hold (shared offsets?)") }
        return Int(n)
    }

    func cString(_ start: Int) throws -> String {
        guard start >= 0, start < bytes.count, let end = bytes[start...].firstIndex(of: 0) else {
            throw fail("key at \(start) has no terminating NUL")
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    mutating func value(at: Int, parentWidth: Int, packed: UInt8, depth: Int) throws -> FlexValue {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        let type = Int(packed >> 2), width = 1 << Int(packed & 3)
        switch type {
        case 0: return .null
        case 1: return .int(try int(at, parentWidth))
        case 2: return .uint(try uint(at, parentWidth))
        case 3: return .float(try float(at, parentWidth))
        case 26: return .bool(try uint(at, parentWidth) != 0)
        case 4: return .string(try cString(try target(at, parentWidth)))
        case 5, 25:
            let start = try target(at, parentWidth)
            let n = try count(start, width, bytesEach: 1)
            return .string(String(decoding: bytes[start..<(start + n)], as: UTF8.self))
        case 6: return .int(try int(try target(at, parentWidth), width))
        case 7: return .uint(try uint(try target(at, parentWidth), width))
        case 8: return .float(try float(try target(at, parentWidth), width))
        case 9:
            let start = try target(at, parentWidth)
            let n = try count(start, width, bytesEach: width + 1)
            let keysAt = try target(start - 3 * width, width)
            let rawKeyWidth = try uint(start - 2 * width, width)
            guard [1, 2, 4, 8].contains(rawKeyWidth) else { throw fail("map at \(start) has key width \(rawKeyWidth)") }
            let keyWidth = Int(rawKeyWidth)
            let keyCount = try count(keysAt, keyWidth, bytesEach: keyWidth)
            guard keyCount == n else { throw fail("map at \(start) has \(n) values but \(keyCount) keys") }
            var map: [String: FlexValue] = [:]
            for i in 0..<n {
                let key = try cString(try target(keysAt + i * keyWidth, keyWidth))
                guard map[key] == nil else { throw fail("map at \(start) repeats key '\(key)'") }
                map[key] = try value(at: start + i * width, parentWidth: width, packed: bytes[start + n * width + i], depth: depth + 1)
            }
            return .map(map)
        case 10:
            let start = try target(at, parentWidth)
            let n = try count(start, width, bytesEach: width + 1)
            return .vector(
                try (0..<n).map { i in
                    try value(at: start + i * width, parentWidth: width, packed: bytes[start + n * width + i], depth: depth + 1)
                })
        case 11...15, 36:
            let element = type == 36 ? 26 : type - 10
            let start = try target(at, parentWidth)
            let n = try count(start, width, bytesEach: width)
            return try typedVector(start, n, element: element, width: width, depth: depth)
        case 16...24:
            let start = try target(at, parentWidth)
            let n = 2 + (type - 16) / 3
            guard start + n * width <= bytes.count else { throw fail("fixed vector at \(start) runs past the buffer") }
            return try typedVector(start, n, element: 1 + (type - 16) % 3, width: width, depth: depth)
        default:
            throw fail("unknown value type \(type) at \(at)")
        }
    }

    mutating func typedVector(_ start: Int, _ n: Int, element: Int, width: Int, depth: Int) throws -> FlexValue {
        let packed = UInt8(element << 2) | UInt8(width.trailingZeroBitCount)
        return .vector(try (0..<n).map { i in try value(at: start + i * width, parentWidth: width, packed: packed, depth: depth + 1) })
    }
}

extension FlexValue {
    /// The integer value, if this is an integer (or a float with an exact integer value).
    var integer: Int? {
        switch self {
        case .int(let v): return Int(exactly: v)
        case .uint(let v): return Int(exactly: v)
        case .bool(let b): return b ? 1 : 0
        case .float(let d): return d.isFinite && d == d.rounded() ? Int(exactly: d) : nil
        default: return nil
        }
    }

    /// The numeric value as a Double.
    var number: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .uint(let v): return Double(v)
        case .float(let d): return d
        default: return nil
        }
    }
}
