import BlazeEngine

extension ZipArchive {
    /// The uncompressed bytes of `entry` (one of `entries`), CRC-checked.
    ///
    /// Throws `.unsupported` for encrypted entries and methods other than 0 (stored) and
    /// 8 (deflate), and `.corruptModel` when the local header, the data or the CRC disagree with
    /// the central directory, or the data runs past the end of the archive.
    public func extract(_ entry: ZipEntry) throws -> [UInt8] {
        let label = "zip entry '\(entry.name)' (local header at offset \(entry.localHeaderOffset))"
        if entry.isEncrypted {
            throw BlazeError(.unsupported, "\(label) is encrypted; encrypted zip entries are not supported")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw BlazeError(
                .unsupported,
                "zip entry '\(entry.name)' uses compression method \(entry.method) (\(ZipEntry.methodName(entry.method))); only 0 (stored) and 8 (deflate) are supported")
        }
        guard entry.uncompressedSize >= 0, entry.uncompressedSize <= Self.maximumEntrySize else {
            throw BlazeError(.unsupported, "\(label) declares \(entry.uncompressedSize) uncompressed bytes, more than the \(Self.maximumEntrySize)-byte limit")
        }
        let range = try dataRange(of: entry, label: label)

        let output: [UInt8]
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw BlazeError(
                    .corruptModel, "\(label) is stored but its compressed size (\(entry.compressedSize)) differs from its uncompressed size (\(entry.uncompressedSize))")
            }
            output = Array(bytes[range])
        } else {
            // Deflate's best case is 2 bits per 258-byte match: 1032 output bytes per input byte.
            guard let bound = ZipBytes.multiply(entry.compressedSize, 1032), entry.uncompressedSize <= bound else {
                throw BlazeError(
                    .corruptModel,
                    "\(label) declares \(entry.uncompressedSize) uncompressed bytes from \(entry.compressedSize) deflated bytes, beyond deflate's maximum ratio of 1032")
            }
            do {
                output = try bytes.withUnsafeBufferPointer { all in
                    try Inflater.inflate(
                        UnsafeBufferPointer(rebasing: all[range]), expectedSize: entry.uncompressedSize)
                }
            } catch let error as BlazeError {
                throw BlazeError(error.kind, "\(label), deflate data at offset \(range.lowerBound): \(error.message)", context: error.context)
            }
        }
        let crc = ZipCRC32.checksum(output)
        guard crc == entry.crc32 else {
            throw BlazeError(
                .corruptModel,
                "\(label): CRC-32 mismatch, the extracted \(output.count) bytes have \(ZipBytes.hex(crc)) but the central directory says \(ZipBytes.hex(entry.crc32))")
        }
        return output
    }

    /// Where `entry`'s data lies: after its local header (whose own name/extra lengths count,
    /// not the central directory's), `compressedSize` bytes, entirely inside the archive.
    private func dataRange(of entry: ZipEntry, label: String) throws -> Range<Int> {
        let offset = entry.localHeaderOffset
        guard ZipBytes.contains(bytes, offset, count: Self.localHeaderSize) else {
            throw BlazeError(.corruptModel, "\(label): the \(Self.localHeaderSize)-byte local header does not fit in the \(bytes.count)-byte archive")
        }
        let sig = ZipBytes.u32(bytes, offset) ?? 0
        guard sig == Self.localHeaderSignature else {
            throw BlazeError(.corruptModel, "\(label): expected local header signature \(ZipBytes.hex(Self.localHeaderSignature)), found \(ZipBytes.hex(sig))")
        }
        let nameLength = Int(ZipBytes.u16(bytes, offset + 26) ?? 0)
        let extraLength = Int(ZipBytes.u16(bytes, offset + 28) ?? 0)
        let nameStart = offset + Self.localHeaderSize  // cannot overflow: checked by contains
        guard let localName = ZipBytes.string(bytes, nameStart, count: nameLength),
            let start = ZipBytes.add(nameStart, nameLength + extraLength)
        else {
            throw BlazeError(
                .corruptModel, "\(label): the local header's name and extra field (\(nameLength + extraLength) bytes) run past the end of the archive (\(bytes.count) bytes)")
        }
        guard localName == entry.name else {
            throw BlazeError(.corruptModel, "\(label): the local header names '\(localName)', the central directory '\(entry.name)'")
        }
        guard ZipBytes.contains(bytes, start, count: entry.compressedSize) else {
            throw BlazeError(.corruptModel, "\(label): its \(entry.compressedSize) bytes of data at offset \(start) run past the end of the archive (\(bytes.count) bytes)")
        }
        return start..<start + entry.compressedSize
    }
}
