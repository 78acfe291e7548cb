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
        guard headerLength <= bytes.count - headerStart else { throw fail("expected a header of \(headerLength) bytes, got a truncated file") }
        let headerBytes = bytes[headerStart..<(headerStart + headerLength)]
        guard let header = String(bytes: headerBytes, encoding: major == 3 ? .utf8 : .isoLatin1) else {
            throw fail("expected a readable .npy header")
        }
        let descr = Self.value(of: "descr", in: header)
        guard let d = descr, d == "'<f4'" || d == "\"<f4\"" else {
            throw fail("expected dtype '<f4' (little-endian float32), got \(descr ?? "none")")
        }
        let order = Self.value(of: "fortran_order", in: header)
        guard order == "False" else { throw fail("expected C order (fortran_order False), got \(order ?? "none")") }
        guard let shapeText = Self.value(of: "shape", in: header), shapeText.hasPrefix("("), shapeText.hasSuffix(")") else {
            throw fail("expected a shape tuple in the .npy header")
        }
        var shape: [Int] = []
        for part in shapeText.dropFirst().dropLast().split(separator: ",") {
            let t = part.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { continue }
            guard let v = Int(t), v >= 0 else { throw fail("expected non-negative integer dims, got '\(t)'") }
            shape.append(v)
        }
        guard let count = ShapeMath.elementCount(shape), count <= (bytes.count - headerStart - headerLength) / 4,
              count * 4 == bytes.count - headerStart - headerLength else {
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
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BlazeError(.io, "cannot read \(url.path): \(error.localizedDescription)")
        }
        do { try self.init(bytes: [UInt8](data)) } catch let e as BlazeError { throw e.within(url.lastPathComponent) }
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

    /// Extracts the text of `'key': value` from a .npy header dict.
    private static func value(of key: String, in header: String) -> String? {
        guard let r = header.range(of: "'\(key)'") ?? header.range(of: "\"\(key)\"") else { return nil }
        var rest = header[r.upperBound...].drop { $0 == " " }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        if rest.first == "(" {
            guard let close = rest.firstIndex(of: ")") else { return nil }
            return String(rest[...close])
        }
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return rest[..<end].trimmingCharacters(in: .whitespaces)
    }
}
