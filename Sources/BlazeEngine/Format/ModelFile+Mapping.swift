import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ModelFile {
    /// Reads a `.bkm` file through a read-only memory map (page-aligned, so the 64-byte weight
    /// alignment holds in memory too). Errors carry the file path as context.
    public static func read(contentsOf url: URL) throws -> Graph {
        guard url.isFileURL else {
            throw BlazeError(.invalidInput, "not a file URL: \(url.absoluteString)")
        }
        let path = url.path
        do {
            return try withMappedFile(path) { try read(bytes: $0) }
        } catch let e as BlazeError {
            throw e.within(path)
        }
    }

    /// Maps `path` read-only, passes its bytes to `body`, unmaps. An empty file gives an empty buffer.
    static func withMappedFile<R>(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BlazeError(.io, "cannot open: \(errnoDescription())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw BlazeError(.io, "cannot stat: \(errnoDescription())") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw BlazeError(.io, "not a regular file") }
        guard let size = Int(exactly: info.st_size), size >= 0 else {
            throw BlazeError(.io, "file size \(info.st_size) is not addressable")
        }
        if size == 0 { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw BlazeError(.io, "cannot memory-map \(size) bytes: \(errnoDescription())")
        }
        defer { munmap(base, size) }
        return try body(UnsafeRawBufferPointer(start: base, count: size))
    }

    private static func errnoDescription() -> String {
        String(cString: strerror(errno))
    }
}
