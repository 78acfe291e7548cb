import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ModelFile {
    /// Reads a `.bkm` file through a read-only memory map (page-aligned, so the 64-byte weight
    /// alignment holds in memory too); a pipe or FIFO is read into memory instead. Errors carry
    /// the file path as context.
    public static func read(contentsOf url: URL) throws -> Graph {
        guard url.isFileURL else {
            throw BlazeError(.invalidInput, "not a file URL: \(url.absoluteString)")
        }
        let path = url.path
        return try withMappedFile(path) { bytes in
            // Opening and mapping errors name the path already.
            do { return try read(bytes: bytes) } catch let e as BlazeError { throw e.within(path) }
        }
    }

    /// Passes the bytes of the file at `path` to `body`: a regular file memory-mapped (unmapped
    /// after), a pipe or FIFO read whole (`FileDescriptorIO`, which also refuses directories and
    /// files over its size limit). An empty file gives an empty buffer.
    static func withMappedFile<R>(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let kind = "a .bkm model"
        return try FileDescriptorIO.withOpenFile(path: path, kind: kind) { fd, regularSize in
            guard let size = regularSize else {
                let data = try FileDescriptorIO.readToEnd(fd, path: path, kind: kind, regularSize: nil)
                return try data.withUnsafeBytes { try body($0) }
            }
            if size == 0 { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != UnsafeMutableRawPointer(bitPattern: -1) else {
                throw BlazeError(.io, "cannot memory-map \(size) bytes: \(String(cString: strerror(errno)))", context: path)
            }
            defer { munmap(base, size) }
            return try body(UnsafeRawBufferPointer(start: base, count: size))
        }
    }
}
