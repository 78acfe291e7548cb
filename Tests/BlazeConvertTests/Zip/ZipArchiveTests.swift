@testable import BlazeConvert
import BlazeEngine
import Foundation
import Testing

/// ZipArchive against archives written by Python's zipfile (Tools/fixtures/make_zip_fixtures.py);
/// expected contents (size, CRC, SHA-256) come from the script's inputs, in expected.json.
@Suite("Zip archive reading")
struct ZipArchiveTests {
    @Test("every entry extracts to the bytes the fixture script zipped", arguments: ZipFixtures.readableArchives)
    func extractsAsWritten(archiveName: String) throws {
        let expected = try #require(try ZipFixtures.expected()[archiveName])
        let archive = try ZipArchive(bytes: ZipFixtures.bytes(archiveName))
        #expect(Set(archive.entries.map(\.name)) == Set(expected.keys))
        #expect(archive.entries.count == expected.count)
        for entry in archive.entries {
            let want = try #require(expected[entry.name])
            #expect(entry.method == want.method, "\(entry.name)")
            #expect(entry.uncompressedSize == want.size, "\(entry.name)")
            #expect(entry.crc32 == want.crc32, "\(entry.name)")
            let bytes = try archive.extract(entry)
            #expect(bytes.count == want.size, "\(entry.name)")
            #expect(ZipTestSHA256.hex(bytes) == want.sha256, "\(entry.name)")
            #expect(try archive.extract(named: entry.name) == bytes)
        }
    }

    @Test("the deflate fixture exercises dynamic, fixed and stored blocks")
    func deflateFixtureCoversBlockTypes() throws {
        let archive = try ZipArchive(bytes: ZipFixtures.bytes("deflated.zip"))
        let byName = Dictionary(uniqueKeysWithValues: archive.entries.map { ($0.name, $0) })
        // Each the size the script promises, and compressed as expected for the block types.
        let text = try #require(byName["text.txt"])
        #expect(text.method == 8 && text.uncompressedSize >= 100_000 && text.compressedSize < text.uncompressedSize / 3)
        let random = try #require(byName["random.bin"])
        #expect(random.method == 8 && random.uncompressedSize >= 100_000 && random.compressedSize > random.uncompressedSize)
        let zeros = try #require(byName["zeros.bin"])
        #expect(zeros.compressedSize * 500 < zeros.uncompressedSize)
        // First block header bits: text dynamic (2), short string fixed (1), random stored (0).
        let bytes = try ZipFixtures.bytes("deflated.zip")
        func firstBlockType(_ name: String) -> UInt8 {
            let data = ZipPatch.dataStart(bytes, record: ZipPatch.centralRecord(bytes, name))
            return bytes[data] >> 1 & 3
        }
        #expect(firstBlockType("text.txt") == 2)
        #expect(firstBlockType("short.txt") == 1)
        #expect(firstBlockType("random.bin") == 0)
    }

    @Test("a prefix before the archive: relative offsets shifted, absolute ones kept")
    func prefixedArchives() throws {
        let relative = try ZipArchive(bytes: ZipFixtures.bytes("prefixed.zip"))
        #expect(relative.prefixLength == 2)
        #expect(relative.entries.first?.localHeaderOffset == 2)
        // MediaPipe's .task layout: 2 bytes before the first local header, offsets counting them.
        let absolute = try ZipArchive(bytes: ZipFixtures.bytes("prefixed_absolute.zip"))
        #expect(absolute.prefixLength == 0)
        #expect(absolute.entries.first?.localHeaderOffset == 2)
        #expect(try absolute.extract(named: "model.tflite").count == 3000)
    }

    @Test("a fake end-record signature inside the archive comment is skipped")
    func commentWithFakeSignature() throws {
        let bytes = try ZipFixtures.bytes("comment.zip")
        let archive = try ZipArchive(bytes: bytes)
        #expect(archive.entries.map(\.name) == ["a.txt"])
        #expect(try archive.extract(named: "a.txt") == Array("entry before a tricky comment\n".utf8))
    }

    @Test("empty entries, directory entries and an archive without entries")
    func emptyThings() throws {
        let empty = try ZipArchive(bytes: ZipFixtures.bytes("empty.zip"))
        #expect(try empty.extract(named: "empty_stored.txt") == [])
        #expect(try empty.extract(named: "empty_deflated.txt") == [])

        let stored = try ZipArchive(bytes: ZipFixtures.bytes("stored.zip"))
        let dir = try stored.entry(named: "dir/")
        #expect(dir.isDirectory)
        #expect(try stored.extract(dir) == [])

        let none = try ZipArchive(bytes: ZipFixtures.bytes("no_entries.zip"))
        #expect(none.entries.isEmpty)
        let error = zipError { _ = try none.extract(named: "model.tflite") }
        #expect(error?.kind == .invalidInput)
        #expect(error?.message.contains("model.tflite") == true)
    }

    @Test("bzip2 (method 12): a typed .unsupported error naming entry and method; the rest extracts")
    func unsupportedMethod() throws {
        let archive = try ZipArchive(bytes: ZipFixtures.bytes("bzip2.zip"))
        let entry = try archive.entry(named: "data.bz2.txt")
        #expect(entry.method == 12)
        let error = zipError { _ = try archive.extract(entry) }
        #expect(error?.kind == .unsupported)
        #expect(error?.message.contains("'data.bz2.txt'") == true)
        #expect(error?.message.contains("compression method 12") == true)
        #expect(error?.message.contains("bzip2") == true)
        #expect(try archive.extract(named: "plain.txt") == Array("stored next to a bzip2 entry\n".utf8))
    }

    @Test("CRC mismatch: a changed stored byte, and a changed CRC in the central directory")
    func crcMismatch() throws {
        var stored = try ZipFixtures.bytes("stored.zip")
        let hello = ZipPatch.centralRecord(stored, "hello.txt")
        stored[ZipPatch.dataStart(stored, record: hello) + 3] ^= 0x20
        let e1 = zipError { _ = try ZipArchive(bytes: stored).extract(named: "hello.txt") }
        #expect(e1?.kind == .corruptModel)
        #expect(e1?.message.contains("CRC-32 mismatch") == true)
        #expect(e1?.message.contains("hello.txt") == true)

        var deflated = try ZipFixtures.bytes("small.zip")
        let small = ZipPatch.centralRecord(deflated, "small.txt")
        ZipPatch.set32(&deflated, small + 16, ZipPatch.u32(deflated, small + 16) ^ 1)
        let e2 = zipError { _ = try ZipArchive(bytes: deflated).extract(named: "small.txt") }
        #expect(e2?.kind == .corruptModel)
        #expect(e2?.message.contains("CRC-32 mismatch") == true)
    }

    @Test("two entries with one name: extract(named:) refuses, extract(entry) still works")
    func duplicateNames() throws {
        var bytes = try ZipFixtures.bytes("stored.zip")
        // "bytes.bin" → "hello.txt" (same length) in its central record and local header.
        let record = ZipPatch.centralRecord(bytes, "bytes.bin")
        let local = ZipPatch.localHeader(bytes, record: record)
        for (i, c) in "hello.txt".utf8.enumerated() {
            bytes[record + 46 + i] = c
            bytes[local + 30 + i] = c
        }
        let archive = try ZipArchive(bytes: bytes)
        let error = zipError { _ = try archive.extract(named: "hello.txt") }
        #expect(error?.kind == .corruptModel)
        #expect(error?.message.contains("2 entries named 'hello.txt'") == true)
        let sizes = try archive.entries.filter { $0.name == "hello.txt" }.map { try archive.extract($0).count }
        #expect(sizes == [12, 1024])
    }

    @Test("CRC-32 check value and incremental use")
    func crc32() {
        let check = Array("123456789".utf8)
        #expect(ZipCRC32.checksum(check) == 0xCBF4_3926)
        #expect(ZipCRC32.checksum([]) == 0)
        let long = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let split = ZipCRC32.checksum(Array(long[333...]), continuing: ZipCRC32.checksum(Array(long[..<333])))
        #expect(split == ZipCRC32.checksum(long))
        // Against a bitwise reference on lengths around the 8-byte stride.
        for n in 0..<40 {
            let slice = Array(long[..<n])
            var c: UInt32 = 0xFFFF_FFFF
            for b in slice {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            #expect(ZipCRC32.checksum(slice) == ~c, "length \(n)")
        }
    }

    @Test("the test's SHA-256 matches the FIPS 180-4 examples")
    func sha256SelfCheck() {
        #expect(ZipTestSHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            ZipTestSHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
