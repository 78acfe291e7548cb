import BlazeEngine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file atomically: write a temporary file next to it, flush it to disk, rename it over
/// the destination. Readers see the old file or the complete new one, never a partial one; on any
/// error the temporary file is removed and the destination is left as it was.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to url: URL) throws {
        guard url.isFileURL else { throw BlazeError(.invalidInput, "not a file URL: \(url.absoluteString)") }
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        let temp = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"

        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create temporary file \(temp)") }
        var closed = false
        var renamed = false
        defer {
            if !closed { close(fd) }
            if !renamed { unlink(temp) }
        }
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = systemWrite(fd, raw.baseAddress.map { $0 + done }, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure("cannot write \(temp)")
                }
                done += n
            }
        }
        guard fsync(fd) == 0 else { throw failure("cannot flush \(temp)") }
        closed = true
        guard close(fd) == 0 else { throw failure("cannot close \(temp)") }
        guard rename(temp, path) == 0 else { throw failure("cannot rename \(temp) to \(path)") }
        renamed = true
    }

    private static func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(fd, p, n)
        #else
        return Darwin.write(fd, p, n)
        #endif
    }

    /// An `.io` error with the current `errno` (call right after the failing system call).
    private static func failure(_ what: String) -> BlazeError {
        BlazeError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
