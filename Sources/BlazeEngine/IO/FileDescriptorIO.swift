#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `write(2)` until every byte is out: the one loop behind the output transaction
/// (`OutputFiles`) and the command-line tools' standard streams.
public enum FileDescriptorIO {
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
