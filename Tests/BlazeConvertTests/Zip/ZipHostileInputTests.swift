import BlazeTestSupport
@testable import BlazeConvert
import BlazeEngine
import Foundation
import Testing

/// Damaged and lying archives: every one must end in a typed `BlazeError`, never a trap.
@Suite("Zip archive hostile input")
struct ZipHostileInputTests {
    /// Opens `bytes` and extracts every entry.
    static func extractAll(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let archive = try ZipArchive(bytes: bytes)
        return try archive.entries.map { try archive.extract($0) }
    }

    /// Asserts that opening/extracting `bytes` throws a BlazeError of `kind` whose message
    /// contains every one of `words`.
    static func expectError(
        _ bytes: [UInt8], _ kind: BlazeError.Kind, _ words: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = zipError({ _ = try extractAll(bytes) }, sourceLocation: sourceLocation) else { return }
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        for word in words {
            #expect(error.message.contains(word), "'\(word)' not in: \(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test("every truncation of a small archive throws .corruptModel")
    func truncations() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        #expect(try Self.extractAll(bytes).count == 2)
        for length in 0..<bytes.count {
            let error = zipError { _ = try Self.extractAll(Array(bytes[..<length])) }
            #expect(error?.kind == .corruptModel, "length \(length)")
        }
    }

    @Test("leading bytes removed: the central directory's offsets no longer fit")
    func leadingBytesRemoved() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        for drop in 1..<bytes.count {
            let error = zipError { _ = try Self.extractAll(Array(bytes[drop...])) }
            #expect(error?.kind == .corruptModel, "dropped \(drop)")
        }
    }

    @Test("deflated entry whose declared uncompressed size is too small or too large")
    func lyingUncompressedSize() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        let record = ZipPatch.centralRecord(bytes, "small.txt")
        let size = ZipPatch.u32(bytes, record + 24)
        var smaller = bytes
        ZipPatch.set32(&smaller, record + 24, size - 1)
        Self.expectError(smaller, .corruptModel, "small.txt", "more than the declared \(size - 1) bytes")
        var larger = bytes
        ZipPatch.set32(&larger, record + 24, size + 1)
        Self.expectError(larger, .corruptModel, "small.txt", "ends after \(size) bytes")
        var zero = bytes
        ZipPatch.set32(&zero, record + 24, 0)
        Self.expectError(zero, .corruptModel, "more than the declared 0 bytes")
        // Beyond deflate's 1032:1 ratio: refused before anything is allocated.
        var bomb = bytes
        ZipPatch.set32(&bomb, record + 24, 200_000_000)
        Self.expectError(bomb, .corruptModel, "small.txt", "maximum ratio")
        var overCap = bytes
        ZipPatch.set32(&overCap, record + 24, 0x7FFF_FFFF)
        Self.expectError(overCap, .unsupported, "small.txt", "limit")
        var zip64 = bytes
        ZipPatch.set32(&zip64, record + 24, 0xFFFF_FFFF)
        Self.expectError(zip64, .unsupported, "small.txt", "ZIP64")
    }

    @Test("deflated entry whose compressed size is too small or runs past the end")
    func lyingCompressedSize() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        let record = ZipPatch.centralRecord(bytes, "small.txt")
        let size = ZipPatch.u32(bytes, record + 20)
        var smaller = bytes
        ZipPatch.set32(&smaller, record + 20, size / 2)
        Self.expectError(smaller, .corruptModel, "small.txt", "truncated")
        var pastEnd = bytes
        ZipPatch.set32(&pastEnd, record + 20, UInt32(bytes.count))
        Self.expectError(pastEnd, .corruptModel, "small.txt", "run past the end")
        // A larger size inside the file is harmless: the stream ends at its final block.
        var larger = bytes
        ZipPatch.set32(&larger, record + 20, size + 10)
        #expect(try Self.extractAll(larger) == Self.extractAll(bytes))
    }

    @Test("stored entry with inconsistent or oversized sizes")
    func lyingStoredSizes() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        let record = ZipPatch.centralRecord(bytes, "tiny.txt")
        var mismatch = bytes
        ZipPatch.set32(&mismatch, record + 24, 17)
        Self.expectError(mismatch, .corruptModel, "tiny.txt", "stored", "differs")
        var both = bytes
        ZipPatch.set32(&both, record + 20, 100_000)
        ZipPatch.set32(&both, record + 24, 100_000)
        Self.expectError(both, .corruptModel, "tiny.txt", "run past the end")
        var shorter = bytes
        ZipPatch.set32(&shorter, record + 20, 10)
        ZipPatch.set32(&shorter, record + 24, 10)
        Self.expectError(shorter, .corruptModel, "tiny.txt", "CRC-32 mismatch")
    }

    @Test("local header offsets past the end, into the middle of data, or overflowing")
    func lyingLocalOffsets() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        let record = ZipPatch.centralRecord(bytes, "tiny.txt")
        for offset: UInt32 in [UInt32(bytes.count), UInt32(bytes.count - 10), 0x7FFF_FFF0, 0xFFFF_FFFE] {
            var patched = bytes
            ZipPatch.set32(&patched, record + 42, offset)
            Self.expectError(patched, .corruptModel, "tiny.txt", "local header")
        }
        var middle = bytes
        ZipPatch.set32(&middle, record + 42, ZipPatch.u32(bytes, record + 42) + 1)
        Self.expectError(middle, .corruptModel, "tiny.txt", "signature")
        // Pointing at the other entry's local header: the names disagree.
        var other = bytes
        ZipPatch.set32(&other, record + 42, ZipPatch.u32(bytes, ZipPatch.centralRecord(bytes, "small.txt") + 42))
        Self.expectError(other, .corruptModel, "tiny.txt", "small.txt")
        var zip64 = bytes
        ZipPatch.set32(&zip64, record + 42, 0xFFFF_FFFF)
        Self.expectError(zip64, .unsupported, "ZIP64")
    }

    @Test("local header name/extra lengths running past the end")
    func lyingLocalLengths() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        let record = ZipPatch.centralRecord(bytes, "tiny.txt")
        let local = ZipPatch.localHeader(bytes, record: record)
        var extra = bytes
        ZipPatch.set16(&extra, local + 28, 0xFFFF)
        Self.expectError(extra, .corruptModel, "tiny.txt", "run past the end")
        var name = bytes
        ZipPatch.set16(&name, local + 26, 0xFFFF)
        Self.expectError(name, .corruptModel, "tiny.txt")
    }

    @Test("end record lying about the central directory")
    func lyingEndRecord() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        let eocd = ZipPatch.endRecord(bytes)
        let cdSize = ZipPatch.u32(bytes, eocd + 12), cdOffset = ZipPatch.u32(bytes, eocd + 16)

        var offsetTooFar = bytes
        ZipPatch.set32(&offsetTooFar, eocd + 16, cdOffset + 1)
        Self.expectError(offsetTooFar, .corruptModel, "central directory", "starts at offset \(cdOffset + 1)")
        var offsetHuge = bytes
        ZipPatch.set32(&offsetHuge, eocd + 16, 0xFFFF_FFF0)
        Self.expectError(offsetHuge, .corruptModel, "central directory")
        // One byte too early: read as a 1-byte prefix, so every local offset is off by one.
        var offsetShort = bytes
        ZipPatch.set32(&offsetShort, eocd + 16, cdOffset - 1)
        Self.expectError(offsetShort, .corruptModel, "signature")

        var sizeTooLarge = bytes
        ZipPatch.set32(&sizeTooLarge, eocd + 12, UInt32(eocd + 1))
        Self.expectError(sizeTooLarge, .corruptModel, "central directory size")
        var sizeShort = bytes
        ZipPatch.set32(&sizeShort, eocd + 12, cdSize - 1)
        Self.expectError(sizeShort, .corruptModel, "central directory")

        var tooManyEntries = bytes
        ZipPatch.set16(&tooManyEntries, eocd + 10, 40)
        ZipPatch.set16(&tooManyEntries, eocd + 8, 40)
        Self.expectError(tooManyEntries, .corruptModel, "40 entries")
        var oneMoreEntry = bytes
        ZipPatch.set16(&oneMoreEntry, eocd + 10, 3)
        ZipPatch.set16(&oneMoreEntry, eocd + 8, 3)
        Self.expectError(oneMoreEntry, .corruptModel, "3 entries")

        var multiDisk = bytes
        ZipPatch.set16(&multiDisk, eocd + 4, 1)
        Self.expectError(multiDisk, .unsupported, "multi-disk")
        var zip64 = bytes
        ZipPatch.set32(&zip64, eocd + 16, 0xFFFF_FFFF)
        Self.expectError(zip64, .unsupported, "ZIP64")
        var commentPastEnd = bytes
        ZipPatch.set16(&commentPastEnd, eocd + 20, 5)
        Self.expectError(commentPastEnd, .corruptModel, "end-of-central-directory")
    }

    @Test("central record lengths past the directory, wrong signatures, encryption")
    func lyingCentralRecords() throws {
        let bytes = try ZipFixtures.bytes("small.zip")
        let record = ZipPatch.centralRecord(bytes, "small.txt")
        var nameLength = bytes
        ZipPatch.set16(&nameLength, record + 28, 0xFFFF)
        Self.expectError(nameLength, .corruptModel, "central directory record #0")
        var signature = bytes
        signature[record + 2] = 9
        Self.expectError(signature, .corruptModel, "central directory record #0", "signature")
        var encrypted = bytes
        ZipPatch.set16(&encrypted, record + 8, ZipPatch.u16(bytes, record + 8) | 1)
        Self.expectError(encrypted, .unsupported, "small.txt", "encrypted")
        var deflate64 = bytes
        ZipPatch.set16(&deflate64, record + 10, 9)
        Self.expectError(deflate64, .unsupported, "'small.txt'", "compression method 9", "deflate64")
        var stored = bytes
        ZipPatch.set16(&stored, record + 10, 0)
        Self.expectError(stored, .corruptModel, "small.txt", "stored")
    }

    @Test("random byte flips in a deflated archive: extracts the original bytes or throws")
    func randomFlips() throws {
        try Self.flipTrials(archive: "small.zip", trials: 2000, seed: 0x5EED_2026)
    }

    @Test("random byte flips in the big deflated entries' data")
    func randomFlipsInBigStreams() throws {
        try Self.flipTrials(archive: "deflated.zip", trials: 300, seed: 0xF11B, onlyData: ["text.txt", "far.bin", "fast.txt"])
    }

    /// Each trial flips 1–4 random bytes (anywhere, or in half of the trials only inside the
    /// deflate data), then opens and extracts everything. A corrupted entry can only pass the
    /// CRC by chance (2^-32), so anything extracted must equal the original.
    static func flipTrials(archive name: String, trials: Int, seed: UInt64, onlyData: [String] = []) throws {
        let original = try ZipFixtures.bytes(name)
        let reference = try ZipArchive(bytes: original)
        let originals = try reference.entries.map { try reference.extract($0) }
        let dataRanges: [Range<Int>] = (onlyData.isEmpty ? reference.entries.filter { $0.method == 8 }.map(\.name) : onlyData).map {
            let record = ZipPatch.centralRecord(original, $0)
            let start = ZipPatch.dataStart(original, record: record)
            return start..<start + Int(ZipPatch.u32(original, record + 20))
        }
        var rng = SeededRandom(seed: seed)
        var failures = 0, successes = 0
        for trial in 0..<trials {
            var bytes = original
            for _ in 0...Int.random(in: 0..<4, using: &rng) {
                let inData = !onlyData.isEmpty || trial % 2 == 0
                let range = inData ? dataRanges[Int.random(in: 0..<dataRanges.count, using: &rng)] : 0..<bytes.count
                bytes[Int.random(in: range, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            do {
                let archive = try ZipArchive(bytes: bytes)
                for (i, entry) in archive.entries.enumerated() {
                    do {
                        let out = try archive.extract(entry)
                        #expect(i < originals.count && out == originals[i], "trial \(trial): entry \(i) extracted to different bytes")
                        successes += 1
                    } catch is BlazeError {
                        failures += 1
                    }
                }
            } catch is BlazeError {
                failures += 1
            }
        }
        // Both outcomes occur (the flips are not all harmless, nor all fatal).
        #expect(failures > trials / 4)
        #expect(successes > 0)
    }
}
