import BlazeEngine
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole input file with `open`/`read`: regular files, and also pipes and FIFOs
/// (`blaze faces <(curl …)`), which Foundation's `Data(contentsOf:)` misreports as a permission
/// problem. Errors say what the path is (a directory, a link loop…) in the system's words.
enum FileBytes {
    /// Largest file read (an image or video header beyond this is not a photo).
    static let maximumBytes = 1 << 30

    static func read(path: String) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BlazeError(.io, "cannot open: \(String(cString: strerror(errno)))", context: path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw BlazeError(.io, "cannot stat: \(String(cString: strerror(errno)))", context: path) }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: throw BlazeError(.invalidInput, "is a directory, not an image file", context: path)
        case S_IFREG:
            guard Int(st.st_size) <= maximumBytes else {
                throw BlazeError(.invalidInput, "the file has \(st.st_size) bytes, more than the \(maximumBytes)-byte limit for one image", context: path)
            }
        default: break  // FIFO, pipe, character device: read to the end below
        }
        var data = Data(capacity: st.st_mode & S_IFMT == S_IFREG ? Int(st.st_size) : 1 << 16)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw BlazeError(.io, "cannot read: \(String(cString: strerror(errno)))", context: path)
            }
            if n == 0 { return data }
            guard data.count + n <= maximumBytes else {
                throw BlazeError(.invalidInput, "more than the \(maximumBytes)-byte limit for one image", context: path)
            }
            data.append(contentsOf: chunk[0..<n])
        }
    }
}
