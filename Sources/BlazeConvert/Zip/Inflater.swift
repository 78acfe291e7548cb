import BlazeEngine
import CZlib

/// Raw deflate (RFC 1951) through the system's zlib: the format of zip method 8.
///
/// The output buffer has exactly the declared size plus one byte, so a stream that produces more
/// is caught without writing past anything; producing fewer bytes, running out of input before
/// the final block, and every format error zlib reports (invalid block type, bad code lengths,
/// distances before the start of the output…) throw `BlazeError(.corruptModel, …)` with zlib's
/// own reason.
enum Inflater {
    /// Decompresses the raw deflate stream in `input` (no zlib or gzip wrapper) into exactly
    /// `expectedSize` bytes. Bytes after the final block are ignored.
    static func inflate(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int) throws -> [UInt8] {
        guard expectedSize >= 0, expectedSize <= ZipArchive.maximumEntrySize else {
            throw BlazeError(.unsupported, "declared size \(expectedSize) is outside 0…\(ZipArchive.maximumEntrySize) bytes")
        }
        guard let inputBase = input.baseAddress, !input.isEmpty else {
            throw BlazeError(.corruptModel, "the deflate stream is empty (a valid stream has at least one block)")
        }
        var stream = z_stream()
        // -15: a raw deflate stream with a 32 KB window, no zlib header or checksum.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw BlazeError(.io, "zlib could not start an inflate stream")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: expectedSize + 1)
        // zlib's counters are 32-bit; entries are capped far below that (maximumEntrySize).
        let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: inputBase)
            stream.avail_in = UInt32(clamping: input.count)
            stream.next_out = out.baseAddress
            stream.avail_out = UInt32(out.count)
            return CZlib.inflate(&stream, Z_FINISH)
        }
        let produced = Int(stream.total_out)
        switch status {
        case Z_STREAM_END where produced == expectedSize:
            output.removeLast()
            return output
        case Z_STREAM_END where produced < expectedSize:
            throw BlazeError(.corruptModel, "the deflate stream ends after \(produced) bytes, but \(expectedSize) are declared")
        case Z_STREAM_END:
            throw BlazeError(.corruptModel, "the deflate stream holds more than the declared \(expectedSize) bytes")
        case Z_BUF_ERROR where stream.avail_out == 0:
            throw BlazeError(.corruptModel, "the deflate stream holds more than the declared \(expectedSize) bytes")
        case Z_BUF_ERROR:
            throw BlazeError(.corruptModel, "the deflate stream is truncated: its \(input.count) bytes end before the final block (\(produced) bytes out)")
        case Z_DATA_ERROR:
            let reason = stream.msg.map { String(cString: $0) } ?? "invalid data"
            throw BlazeError(.corruptModel, "corrupt deflate data after \(produced) output bytes: \(reason) (zlib)")
        case Z_MEM_ERROR:
            throw BlazeError(.io, "zlib ran out of memory")
        default:
            throw BlazeError(.corruptModel, "inflate failed with zlib status \(status)")
        }
    }
}
