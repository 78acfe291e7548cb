@testable import BlazeConvert
import BlazeEngine
import Foundation
import Testing

/// The zip fixtures (Tests/BlazeConvertTests/Fixtures/zip) written by
/// Tools/fixtures/make_zip_fixtures.py with Python's zipfile, and their expected contents.
enum ZipFixtures {
    struct Expected: Decodable, Sendable {
        let size: Int
        let method: UInt16
        let crc32: UInt32
        let sha256: String
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        let stem = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        let url = try #require(
            Bundle.module.url(forResource: stem, withExtension: ext, subdirectory: "Fixtures/zip"),
            "missing fixture Fixtures/zip/\(name); run Tools/fixtures/make_zip_fixtures.py")
        return [UInt8](try Data(contentsOf: url))
    }

    /// archive name → entry name → expected contents.
    static func expected() throws -> [String: [String: Expected]] {
        try JSONDecoder().decode([String: [String: Expected]].self, from: Data(bytes("expected.json")))
    }

    static let readableArchives = [
        "stored.zip", "deflated.zip", "prefixed.zip", "prefixed_absolute.zip", "comment.zip",
        "empty.zip", "no_entries.zip", "small.zip"
    ]
}

/// Little-endian patching and central-directory navigation for building hostile variants of
/// the fixtures. Independent of the reader under test (walks the records by their own sizes).
enum ZipPatch {
    static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
    static func set16(_ b: inout [UInt8], _ at: Int, _ v: Int) {
        b[at] = UInt8(truncatingIfNeeded: v)
        b[at + 1] = UInt8(truncatingIfNeeded: v >> 8)
    }
    static func set32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }

    /// Offset of the end record (archives without a comment: the last 22 bytes).
    static func endRecord(_ b: [UInt8]) -> Int { b.count - 22 }

    /// Offsets of the central-directory records, in order (no prefix in the archive).
    static func centralRecords(_ b: [UInt8]) -> [Int] {
        let eocd = endRecord(b)
        var p = Int(u32(b, eocd + 16))
        var result: [Int] = []
        for _ in 0..<u16(b, eocd + 10) {
            result.append(p)
            p += 46 + u16(b, p + 28) + u16(b, p + 30) + u16(b, p + 32)
        }
        return result
    }

    /// The central record of the entry called `name`.
    static func centralRecord(_ b: [UInt8], _ name: String) -> Int {
        centralRecords(b).first { p in
            let n = u16(b, p + 28)
            return String(decoding: b[p + 46..<p + 46 + n], as: UTF8.self) == name
        }!
    }

    /// Offset of the local header the central record at `record` points to.
    static func localHeader(_ b: [UInt8], record: Int) -> Int { Int(u32(b, record + 42)) }

    /// Offset of the entry's data (after its local header's name and extra field).
    static func dataStart(_ b: [UInt8], record: Int) -> Int {
        let local = localHeader(b, record: record)
        return local + 30 + u16(b, local + 26) + u16(b, local + 28)
    }
}

/// SHA-256 (FIPS 180-4), to compare extracted bytes with the digests in expected.json.
enum ZipTestSHA256 {
    static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
    ]

    static func hex(_ message: [UInt8]) -> String {
        var h: [UInt32] = [
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
        ]
        var data = message
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        let bitLength = UInt64(message.count) * 8
        for i in (0..<8).reversed() { data.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
        var w = [UInt32](repeating: 0, count: 64)
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for t in 0..<16 {
                let j = chunk + 4 * t
                w[t] = UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
            }
            for t in 16..<64 {
                let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for t in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[t] &+ w[t]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ maj
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (i, v) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] = h[i] &+ v }
        }
        return h.map { v in
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 8 - s.count) + s
        }.joined()
    }
}

/// Writes a deflate bit stream by hand (fields least-significant bit first, Huffman codes most
/// significant bit first), for streams no compressor would produce.
struct DeflateBitWriter {
    var bytes: [UInt8] = []
    var bitCount = 0

    mutating func bits(_ value: Int, _ count: Int) {
        for i in 0..<count {
            if bitCount % 8 == 0 { bytes.append(0) }
            if value >> i & 1 != 0 { bytes[bytes.count - 1] |= UInt8(1 << (bitCount % 8)) }
            bitCount += 1
        }
    }

    mutating func code(_ value: Int, _ length: Int) {
        for i in (0..<length).reversed() { bits(value >> i & 1, 1) }
    }

    /// A symbol of the fixed literal/length code (RFC 1951 §3.2.6).
    mutating func fixedLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: code(0x30 + symbol, 8)
        case 144...255: code(0x190 + symbol - 144, 9)
        case 256...279: code(symbol - 256, 7)
        default: code(0xC0 + symbol - 280, 8)
        }
    }

    /// A fixed distance code (5 bits).
    mutating func fixedDistance(_ symbol: Int) { code(symbol, 5) }
}

/// Runs `body` and returns the `BlazeError` it throws (recording an issue if it throws
/// something else or nothing).
func zipError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> BlazeError? {
    do {
        try body()
        Issue.record("expected a BlazeError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as BlazeError {
        return error
    } catch {
        Issue.record("expected a BlazeError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
