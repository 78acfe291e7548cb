import BlazeEngine

// Zip layout read here (PKWARE APPNOTE 6.3.10; all integers little-endian; no ZIP64,
// no multi-disk, no encryption):
//
//   [prefix: any bytes, e.g. the 2 bytes before MediaPipe's .task zip]
//   local file header   "PK\3\4" 0x04034b50 (30 bytes + name + extra), then the entry's data
//     @0 sig u32 · @4 version u16 · @6 flags u16 · @8 method u16 · @10 time u16 · @12 date u16
//     @14 crc u32 · @18 csize u32 · @22 usize u32 · @26 nameLen u16 · @28 extraLen u16
//   … one per entry …
//   central directory   "PK\1\2" 0x02014b50 (46 bytes + name + extra + comment), one per entry
//     @0 sig · @4 made-by u16 · @6 needed u16 · @8 flags u16 · @10 method u16 · @12 time
//     @14 date · @16 crc u32 · @20 csize u32 · @24 usize u32 · @28 nameLen u16
//     @30 extraLen u16 · @32 commentLen u16 · @34 disk u16 · @36 internal attrs u16
//     @38 external attrs u32 · @42 local header offset u32
//   end of central dir  "PK\5\6" 0x06054b50 (22 bytes + comment ≤ 65535)
//     @0 sig · @4 this disk u16 · @6 CD disk u16 · @8 entries on disk u16 · @10 entries u16
//     @12 CD size u32 · @16 CD offset u32 · @20 commentLen u16
//
// The end record is found by scanning backwards from the end. The central directory always
// ends where the end record starts, so `eocd - cdSize` is where it really begins; the difference
// from the recorded `cdOffset` is the length of any prefix, and is added to every local header
// offset (what Info-ZIP and Python's zipfile do). The central directory's sizes and CRC are
// authoritative; the local header is read only for its own name/extra lengths (data start).

/// A read-only zip archive held in memory: stored and deflated entries, CRC-checked.
///
/// Hostile-safe: every offset and size is bounds-checked with overflow-reporting arithmetic, and
/// every problem is a `BlazeError` (`.corruptModel` for damaged or lying archives, `.unsupported`
/// for ZIP64, multi-disk, encryption and compression methods other than stored/deflate).
public struct ZipArchive: Sendable {
    /// The entries in central-directory order.
    public let entries: [ZipEntry]

    /// Bytes before the archive proper (0 for an ordinary zip, 2 for MediaPipe's `.task`).
    public let prefixLength: Int

    /// Largest entry extracted, whatever its header says (a zip bomb guard).
    public static let maximumEntrySize = 1 << 30

    /// The archive as given, prefix included.
    let bytes: [UInt8]

    static let localHeaderSignature: UInt32 = 0x0403_4b50
    static let centralHeaderSignature: UInt32 = 0x0201_4b50
    static let endRecordSignature: UInt32 = 0x0605_4b50
    static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    static let localHeaderSize = 30
    static let centralHeaderSize = 46
    static let endRecordSize = 22

    /// Parses the end-of-central-directory record and the central directory of `bytes`.
    /// Entries' data is only read (and validated) by `extract`.
    public init(bytes: [UInt8]) throws {
        self.bytes = bytes
        let eocd = try Self.findEndRecord(bytes)
        // The end record was found with all 22 bytes in bounds, so these reads cannot fail.
        let thisDisk = ZipBytes.u16(bytes, eocd + 4) ?? 0
        let cdDisk = ZipBytes.u16(bytes, eocd + 6) ?? 0
        let entriesOnDisk = ZipBytes.u16(bytes, eocd + 8) ?? 0
        let totalEntries = ZipBytes.u16(bytes, eocd + 10) ?? 0
        let cdSize32 = ZipBytes.u32(bytes, eocd + 12) ?? 0
        let cdOffset32 = ZipBytes.u32(bytes, eocd + 16) ?? 0

        if eocd >= 20, ZipBytes.u32(bytes, eocd - 20) == Self.zip64LocatorSignature {
            throw BlazeError(.unsupported, "ZIP64 archives are not supported (ZIP64 end-of-central-directory locator at offset \(eocd - 20))")
        }
        if totalEntries == 0xFFFF || cdSize32 == 0xFFFF_FFFF || cdOffset32 == 0xFFFF_FFFF {
            throw BlazeError(.unsupported, "ZIP64 archives are not supported (end record at offset \(eocd) holds ZIP64 marker values)")
        }
        if thisDisk != 0 || cdDisk != 0 || entriesOnDisk != totalEntries {
            throw BlazeError(
                .unsupported,
                "multi-disk (spanned) zip archives are not supported (end record at offset \(eocd): disk \(thisDisk), central directory on disk \(cdDisk), \(entriesOnDisk) of \(totalEntries) entries on this disk)"
            )
        }

        let cdSize = Int(cdSize32), cdOffset = Int(cdOffset32)
        guard let cdStart = ZipBytes.subtract(eocd, cdSize), cdStart >= 0 else {
            throw BlazeError(.corruptModel, "central directory size \(cdSize) is larger than the \(eocd) bytes before the end record at offset \(eocd)")
        }
        guard let prefix = ZipBytes.subtract(cdStart, cdOffset), prefix >= 0 else {
            throw BlazeError(
                .corruptModel, "end record at offset \(eocd) says the central directory (\(cdSize) bytes) starts at offset \(cdOffset), past where it must start (\(cdStart))")
        }
        guard let minimum = ZipBytes.multiply(Int(totalEntries), Self.centralHeaderSize), minimum <= cdSize else {
            throw BlazeError(.corruptModel, "end record at offset \(eocd) declares \(totalEntries) entries, which cannot fit in a \(cdSize)-byte central directory")
        }
        self.prefixLength = prefix
        self.entries = try Self.readCentralDirectory(
            bytes, start: cdStart, end: eocd, count: Int(totalEntries), prefix: prefix)
    }

    /// Offset of the end-of-central-directory record: the last signature within the last
    /// 22 + 65535 bytes whose comment ends exactly at the end of the bytes; failing that (junk
    /// appended after the archive), the last signature whose comment fits.
    static func findEndRecord(_ bytes: [UInt8]) throws -> Int {
        guard bytes.count >= endRecordSize else {
            throw BlazeError(.corruptModel, "\(bytes.count) bytes are too short to be a zip archive (the end-of-central-directory record alone is \(endRecordSize) bytes)")
        }
        let last = bytes.count - endRecordSize
        let first = max(0, last - 0xFFFF)
        var fallback: Int?
        var p = last
        while p >= first {
            if bytes[p] == 0x50, bytes[p + 1] == 0x4b, bytes[p + 2] == 0x05, bytes[p + 3] == 0x06 {
                let commentLength = Int(bytes[p + 20]) | Int(bytes[p + 21]) << 8
                let end = p + endRecordSize + commentLength
                if end == bytes.count { return p }
                if end < bytes.count, fallback == nil { fallback = p }
            }
            p -= 1
        }
        if let fallback { return fallback }
        throw BlazeError(.corruptModel, "no end-of-central-directory record (signature PK\\5\\6) in the last \(bytes.count - first) bytes: not a zip archive, or truncated")
    }

    private static func readCentralDirectory(
        _ bytes: [UInt8], start: Int, end: Int, count: Int, prefix: Int
    ) throws -> [ZipEntry] {
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        var p = start
        for index in 0..<count {
            let here = "central directory record #\(index) at offset \(p)"
            guard let fixedEnd = ZipBytes.add(p, centralHeaderSize), fixedEnd <= end else {
                throw BlazeError(.corruptModel, "\(here) runs past the end of the central directory (offset \(end)); \(count) entries were declared")
            }
            let sig = ZipBytes.u32(bytes, p) ?? 0
            guard sig == centralHeaderSignature else {
                throw BlazeError(.corruptModel, "\(here): expected signature \(ZipBytes.hex(centralHeaderSignature)), found \(ZipBytes.hex(sig))")
            }
            let flags = ZipBytes.u16(bytes, p + 8) ?? 0
            let method = ZipBytes.u16(bytes, p + 10) ?? 0
            let crc = ZipBytes.u32(bytes, p + 16) ?? 0
            let csize = ZipBytes.u32(bytes, p + 20) ?? 0
            let usize = ZipBytes.u32(bytes, p + 24) ?? 0
            let nameLength = Int(ZipBytes.u16(bytes, p + 28) ?? 0)
            let extraLength = Int(ZipBytes.u16(bytes, p + 30) ?? 0)
            let commentLength = Int(ZipBytes.u16(bytes, p + 32) ?? 0)
            let rawOffset = ZipBytes.u32(bytes, p + 42) ?? 0
            let variable = nameLength + extraLength + commentLength  // ≤ 3 × 65535
            guard let next = ZipBytes.add(fixedEnd, variable), next <= end,
                let name = ZipBytes.string(bytes, fixedEnd, count: nameLength)
            else {
                throw BlazeError(.corruptModel, "\(here): name/extra/comment (\(variable) bytes) run past the end of the central directory (offset \(end))")
            }
            if csize == 0xFFFF_FFFF || usize == 0xFFFF_FFFF || rawOffset == 0xFFFF_FFFF {
                throw BlazeError(.unsupported, "zip entry '\(name)' (\(here)) uses ZIP64 sizes or offsets, which are not supported")
            }
            guard let localOffset = ZipBytes.add(Int(rawOffset), prefix) else {
                throw BlazeError(.corruptModel, "zip entry '\(name)' (\(here)): local header offset overflows")
            }
            entries.append(
                ZipEntry(
                    name: name, method: method, flags: flags, compressedSize: Int(csize),
                    uncompressedSize: Int(usize), crc32: crc, localHeaderOffset: localOffset))
            p = next
        }
        return entries
    }

    /// The entry called `name`; throws `.invalidInput` when there is none and `.corruptModel`
    /// when several entries share the name (ambiguous, a classic attack on zip readers).
    public func entry(named name: String) throws -> ZipEntry {
        let matches = entries.filter { $0.name == name }
        guard let first = matches.first else {
            let listing = entries.prefix(20).map { "'\($0.name)'" }.joined(separator: ", ")
            let more = entries.count > 20 ? ", …" : ""
            throw BlazeError(.invalidInput, "no entry named '\(name)' in the zip archive (entries: \(entries.isEmpty ? "none" : listing + more))")
        }
        guard matches.count == 1 else {
            throw BlazeError(.corruptModel, "the zip archive has \(matches.count) entries named '\(name)'")
        }
        return first
    }

    /// The uncompressed bytes of the entry called `name`.
    public func extract(named name: String) throws -> [UInt8] {
        try extract(entry(named: name))
    }
}
