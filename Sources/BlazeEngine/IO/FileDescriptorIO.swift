import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `write(2)` until every byte is out: the one loop behind the output transaction
/// (`OutputFiles`) and the command-line tools' standard streams; `read(2)` to the end: the one
/// way input files are read (images, models to convert, `.npy` tensors, and `.bkm` models, which
/// `ModelFile` memory-maps when they are regular files).
public enum FileDescriptorIO {
    /// Largest input file read whole (no photo, model or tensor we take comes near it).
    public static let maximumInputBytes = 1 << 30

    /// Reads the whole file at `path` with `open`/`read`: regular files, and also pipes and FIFOs
    /// (`blaze faces <(curl …)`), which Foundation's `Data(contentsOf:)` misreports as a
    /// permission problem. Errors carry `path` as context and say what it is (a directory, a link
    /// loop…) in the system's words; `kind` names what was expected ("an image file").
    public static func readFile(path: String, kind: String) throws -> Data {
        try withOpenFile(path: path, kind: kind) { fd, regularSize in
            try readToEnd(fd, path: path, kind: kind, regularSize: regularSize)
        }
    }

    /// Opens `path` for reading, refuses a directory or a regular file over `maximumInputBytes`,
    /// and passes the descriptor and, for a regular file, its size (nil for a pipe, FIFO or
    /// device) to `body`; closes it after. Errors are `readFile(path:kind:)`'s.
    package static func withOpenFile<R>(path: String, kind: String, _ body: (Int32, Int?) throws -> R) throws -> R {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BlazeError(.io, "cannot open: \(String(cString: strerror(errno)))", context: path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw BlazeError(.io, "cannot stat: \(String(cString: strerror(errno)))", context: path) }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: throw BlazeError(.invalidInput, "is a directory, not \(kind)", context: path)
        case S_IFREG:
            guard Int(st.st_size) <= maximumInputBytes else {
                throw BlazeError(.invalidInput, "the file has \(st.st_size) bytes, \(limitText(kind))", context: path)
            }
            return try body(fd, Int(st.st_size))
        default: return try body(fd, nil)  // FIFO, pipe, character device: read to the end
        }
    }

    /// Reads `fd` to its end, at most `maximumInputBytes`; `regularSize` sizes the buffer.
    package static func readToEnd(_ fd: Int32, path: String, kind: String, regularSize: Int?) throws -> Data {
        var data = Data(capacity: regularSize ?? 1 << 16)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            #if canImport(Glibc)
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            #else
                let n = chunk.withUnsafeMutableBytes { Darwin.read(fd, $0.baseAddress, $0.count) }
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                throw BlazeError(.io, "cannot read: \(String(cString: strerror(errno)))", context: path)
            }
            if n == 0 { return data }
            guard data.count + n <= maximumInputBytes else { throw BlazeError(.invalidInput, limitText(kind), context: path) }
            data.append(contentsOf: chunk[0..<n])
        }
    }

    private static func limitText(_ kind: String) -> String {
        "more than the \(maximumInputBytes)-byte limit for \(kind)"
    }

    /// Writes all of `bytes` to `fd`, retrying after `EINTR`. Returns nil, or the `errno` of the
    /// failure (`EIO` for a write that made no progress).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var done = 0
        while done < bytes.count {
            #if canImport(Glibc)
                let n = Glibc.write(fd, base + done, bytes.count - done)
            #else
                let n = Darwin.write(fd, base + done, bytes.count - done)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            done += n
        }
        return nil
    }
}
