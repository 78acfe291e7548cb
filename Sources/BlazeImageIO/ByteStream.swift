import BlazeEngine
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Buffered reads from a file descriptor (file, pipe or stdin) that never ask for more bytes than
/// the caller needs next, so that a frame is available as soon as its bytes have arrived.
final class ByteStream {
    let fd: Int32
    private let closesOnDeinit: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0, end = 0

    init(fileDescriptor: Int32, closesOnDeinit: Bool, bufferSize: Int = 1 << 16) {
        fd = fileDescriptor
        self.closesOnDeinit = closesOnDeinit
        buffer = .allocate(byteCount: bufferSize, alignment: 64)
    }

    deinit {
        buffer.deallocate()
        if closesOnDeinit { close(fd) }
    }

    /// One `read`, retried on EINTR; 0 at end of input.
    private func rawRead(_ destination: UnsafeMutableRawPointer, _ count: Int) throws -> Int {
        while true {
            let n = Glibc.read(fd, destination, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw BlazeError(.io, "read failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Refills the (empty) buffer; false at end of input.
    private func fill() throws -> Bool {
        start = 0
        end = try rawRead(buffer.baseAddress!, buffer.count)
        return end > 0
    }

    /// The bytes up to (not including) the next `\n`; nil at end of input before any byte.
    /// A line longer than `maxLength` throws `LineTooLong` (callers say what they expected); one
    /// cut by the end of input is an error.
    func readLine(maxLength: Int) throws -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if start == end {
                guard try fill() else {
                    if line.isEmpty { return nil }
                    throw BlazeError(.invalidInput, "input ends inside a header line")
                }
            }
            while start < end {
                let b = buffer[start]
                start += 1
                if b == 0x0A { return line }
                line.append(b)
                guard line.count <= maxLength else { throw LineTooLong(maxLength: maxLength) }
            }
        }
    }

    /// Reads up to `count` bytes into `destination`; returns fewer only at end of input.
    func read(into destination: UnsafeMutableRawPointer, count: Int) throws -> Int {
        var done = 0
        let buffered = min(end - start, count)
        if buffered > 0 {
            destination.copyMemory(from: buffer.baseAddress! + start, byteCount: buffered)
            start += buffered
            done = buffered
        }
        while done < count {
            let n = try rawRead(destination + done, count - done)
            if n == 0 { break }
            done += n
        }
        return done
    }
}

/// `ByteStream.readLine` found no line break within `maxLength` bytes.
struct LineTooLong: Error {
    let maxLength: Int
}
