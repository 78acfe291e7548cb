/// One file of a zip archive, as its central-directory record describes it.
///
/// Sizes and the CRC are the central directory's (the local header may hold zeros when the
/// entry was written with a data descriptor). `localHeaderOffset` is already corrected for
/// bytes prefixed to the archive, i.e. it is the position of the local header in the bytes
/// given to `ZipArchive(bytes:)`.
public struct ZipEntry: Sendable, Equatable {
    /// The entry's path inside the archive ("dir/file.tflite"; directories end in "/").
    /// Decoded as UTF-8; invalid sequences become U+FFFD.
    public let name: String
    /// Compression method: 0 stored, 8 deflate; others are listed but cannot be extracted.
    public let method: UInt16
    /// General-purpose bit flags (bit 0: encrypted, bit 3: data descriptor, bit 11: UTF-8 name).
    public let flags: UInt16
    /// Bytes of (compressed) data after the local header.
    public let compressedSize: Int
    /// Bytes after decompression; extraction produces exactly this many or throws.
    public let uncompressedSize: Int
    /// CRC-32 (ISO-HDLC, the zlib one) of the uncompressed bytes.
    public let crc32: UInt32
    /// Offset of the entry's local file header in the archive's bytes.
    public let localHeaderOffset: Int

    public init(
        name: String, method: UInt16, flags: UInt16 = 0, compressedSize: Int, uncompressedSize: Int,
        crc32: UInt32, localHeaderOffset: Int
    ) {
        self.name = name
        self.method = method
        self.flags = flags
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.crc32 = crc32
        self.localHeaderOffset = localHeaderOffset
    }

    /// True for directory entries (name ending in "/"); they extract to no bytes.
    public var isDirectory: Bool { name.hasSuffix("/") }

    /// Whether the general-purpose flags mark the entry as encrypted.
    public var isEncrypted: Bool { flags & 0x0001 != 0 }

    /// A human-readable name of a zip compression method, for error messages.
    static func methodName(_ method: UInt16) -> String {
        switch method {
        case 0: return "stored"
        case 1: return "shrunk"
        case 2, 3, 4, 5: return "reduced"
        case 6: return "imploded"
        case 8: return "deflate"
        case 9: return "deflate64"
        case 10: return "PKWARE DCL implode"
        case 12: return "bzip2"
        case 14: return "LZMA"
        case 18: return "IBM TERSE"
        case 19: return "IBM LZ77 z"
        case 93: return "zstd"
        case 95: return "xz"
        case 96: return "JPEG"
        case 97: return "WavPack"
        case 98: return "PPMd"
        case 99: return "AES-encrypted"
        default: return "unknown"
        }
    }
}
