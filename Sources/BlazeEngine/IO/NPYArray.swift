import Foundation

/// A float32 array in NumPy's `.npy` format (versions 1.0–3.0 read, 1.0 written), C order.
/// Used by `blaze-model run` and the parity tests; anything but `<f4` C-order data is an error.
public struct NPYArray: Sendable, Equatable {
    public var shape: [Int]
    public var values: [Float]

    public init(shape: [Int], values: [Float]) {
        precondition(ShapeMath.elementCount(shape) == values.count, "shape does not match value count")
        self.shape = shape
        self.values = values
    }

    private static let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)
    /// Longest accepted header, as numpy's `max_header_size` default.
    public static let maximumHeaderLength = 10_000

    /// Parses `.npy` bytes. Throws `BlazeError(.invalidInput)` saying what was expected and what was found.
    public init(bytes: [UInt8]) throws {
        func fail(_ message: String) -> BlazeError { BlazeError(.invalidInput, message) }
        guard bytes.count >= 10, Array(bytes[0..<6]) == Self.magic else {
            throw fail("expected a .npy file (magic \\x93NUMPY), got \(bytes.count < 6 ? "\(bytes.count) bytes" : "other bytes")")
        }
        let major = bytes[6]
        let headerLength: Int, headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw fail("expected a .npy v\(major) header, got a truncated file") }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        default:
            throw fail("expected .npy format version 1.0–3.0, got \(major).\(bytes[7])")
        }
        guard headerLength <= Self.maximumHeaderLength else {
            throw fail("expected a header of at most \(Self.maximumHeaderLength) bytes (numpy's own limit), got one of \(headerLength) bytes")
        }
        guard headerLength <= bytes.count - headerStart else { throw fail("expected a header of \(headerLength) bytes, got a truncated file") }
        let headerBytes = bytes[headerStart..<(headerStart + headerLength)]
        guard let header = String(bytes: headerBytes, encoding: major == 3 ? .utf8 : .isoLatin1) else {
            throw fail("expected a readable .npy header")
        }
        let fields = try NPYHeader.parse(header)
        guard case .string(let d)? = fields["descr"], d == "<f4" else {
            throw fail("expected dtype '<f4' (little-endian float32), got \(fields["descr"].map { "\($0)" } ?? "none")")
        }
        guard case .bool(let fortran)? = fields["fortran_order"], !fortran else {
            throw fail("expected C order (fortran_order False), got \(fields["fortran_order"].map { "\($0)" } ?? "none")")
        }
        guard case .tuple(let shape)? = fields["shape"] else {
            throw fail("expected a shape tuple in the .npy header, got \(fields["shape"].map { "\($0)" } ?? "none")")
        }
        guard let count = ShapeMath.elementCount(shape), count <= (bytes.count - headerStart - headerLength) / 4,
            count * 4 == bytes.count - headerStart - headerLength
        else {
            throw fail("expected \(ShapeMath.describe(shape)) float32 data, got \(bytes.count - headerStart - headerLength) data bytes")
        }
        let dataStart = headerStart + headerLength
        var values = [Float](repeating: 0, count: count)
        bytes.withUnsafeBytes { raw in
            for i in 0..<count {
                values[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: dataStart + 4 * i, as: UInt32.self)))
            }
        }
        self.shape = shape
        self.values = values
    }

    public init(contentsOf url: URL) throws {
        let data = try FileDescriptorIO.readFile(path: url.path, kind: "an .npy file")
        // The reader names the path when it fails; the decoder names it here, the same way.
        do { try self.init(bytes: [UInt8](data)) } catch let e as BlazeError { throw e.within(url.path) }
    }

    /// `.npy` v1.0 bytes, dtype `<f4`, C order.
    public func encoded() -> [UInt8] {
        let shapeText = shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': \(shapeText), }"
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var out = Self.magic + [1, 0, UInt8(header.utf8.count & 0xff), UInt8(header.utf8.count >> 8)]
        out += Array(header.utf8)
        out.reserveCapacity(out.count + values.count * 4)
        for v in values {
            let b = v.bitPattern.littleEndian
            out += [UInt8(b & 0xff), UInt8(b >> 8 & 0xff), UInt8(b >> 16 & 0xff), UInt8(b >> 24)]
        }
        return out
    }
}

/// The header of a `.npy` file: a Python dict literal with exactly the keys `descr` (a string),
/// `fortran_order` (`True`/`False`) and `shape` (a tuple of non-negative integers), as numpy
/// writes and requires it; padded with spaces and a newline. Anything else (another key, a key
/// twice, a value of another type, trailing text) is rejected, as numpy rejects it.
enum NPYHeader {
    enum Value: CustomStringConvertible {
        case string(String), bool(Bool), tuple([Int])
        var description: String {
            switch self {
            case .string(let s): "'\(s)'"
            case .bool(let b): b ? "True" : "False"
            case .tuple(let t): "(" + t.map(String.init).joined(separator: ", ") + (t.count == 1 ? ",)" : ")")
            }
        }
    }

    static func parse(_ text: String) throws -> [String: Value] {
        var p = Parser(chars: Array(text.unicodeScalars))
        var fields: [String: Value] = [:]
        p.skipSpaces()
        try p.expect("{")
        p.skipSpaces()
        while !p.consume("}") {
            guard case .string(let key) = try p.value() else { throw p.fail("expected a string key") }
            guard ["descr", "fortran_order", "shape"].contains(key) else { throw p.fail("unexpected key '\(key)' (numpy allows descr, fortran_order, shape)") }
            guard fields[key] == nil else { throw p.fail("key '\(key)' appears twice") }
            p.skipSpaces()
            try p.expect(":")
            p.skipSpaces()
            fields[key] = try p.value()
            p.skipSpaces()
            if p.consume(",") {
                p.skipSpaces()
            } else {
                try p.expect("}")
                break
            }
        }
        while let c = p.peek(), c == " " || c == "\n" || c == "\t" || c == "\r" || c == "\0" { p.index += 1 }
        guard p.peek() == nil else { throw p.fail("unexpected text after the header dict") }
        for key in ["descr", "fortran_order", "shape"] where fields[key] == nil {
            throw BlazeError(.invalidInput, "expected the .npy header to have the key '\(key)', it has \(fields.keys.sorted())")
        }
        return fields
    }

    struct Parser {
        let chars: [Unicode.Scalar]
        var index = 0

        func peek() -> Unicode.Scalar? { index < chars.count ? chars[index] : nil }
        mutating func skipSpaces() { while peek() == " " { index += 1 } }
        mutating func consume(_ c: Unicode.Scalar) -> Bool {
            guard peek() == c else { return false }
            index += 1
            return true
        }
        mutating func expect(_ c: Unicode.Scalar) throws {
            guard consume(c) else { throw fail("expected '\(c)'") }
        }
        func fail(_ what: String) -> BlazeError {
            BlazeError(.invalidInput, "malformed .npy header at character \(index): \(what)")
        }

        mutating func value() throws -> Value {
            switch peek() {
            case "'", "\"":
                let quote = chars[index]
                index += 1
                var s = String.UnicodeScalarView()
                while let c = peek(), c != quote {
                    guard c != "\\", c != "\n" else { throw fail("escapes and line breaks in strings are not supported") }
                    s.append(c)
                    index += 1
                }
                try expect(quote)
                return .string(String(s))
            case "T", "F":
                for word in ["True", "False"] where chars[index...].starts(with: word.unicodeScalars) {
                    index += word.unicodeScalars.count
                    return .bool(word == "True")
                }
                throw fail("expected True or False")
            case "(":
                index += 1
                var dims: [Int] = []
                var commas = 0
                skipSpaces()
                while !consume(")") {
                    var digits = ""
                    while let c = peek(), ("0"..."9").contains(c) { digits.unicodeScalars.append(c); index += 1 }
                    guard let v = Int(digits) else { throw fail("expected a non-negative integer dimension") }
                    dims.append(v)
                    skipSpaces()
                    if consume(",") {
                        commas += 1; skipSpaces()
                    } else {
                        try expect(")")
                        break
                    }
                }
                // `(3)` is the integer 3 in Python, not a tuple.
                guard dims.count != 1 || commas == 1 else { throw fail("a one-dimensional shape needs a trailing comma, e.g. (3,)") }
                return .tuple(dims)
            default:
                throw fail("expected a string, True/False or a tuple")
            }
        }
    }
}
