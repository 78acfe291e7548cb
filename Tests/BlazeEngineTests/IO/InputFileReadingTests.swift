import BlazeEngine
import BlazeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `FileDescriptorIO.readFile`, the one way input files are read (images, models to convert,
/// `.npy` tensors): what it reads, and the typed error for each kind of path it cannot.
@Suite("Input file reading")
final class InputFileReadingTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws { scratch = try ScratchFolder() }

    deinit { scratch.remove() }

    func path(_ name: String) -> String { scratch.path(name) }

    /// Bytes that cross the 64 KB read chunk and a pipe's buffer, with no repeating period.
    let payload: [UInt8] = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }

    /// An error's description ("no error" for nil), for expectations and their messages.
    func text(_ error: BlazeError?) -> String { error.map { "\($0)" } ?? "no error" }

    @Test func regularFileIsReadWhole() throws {
        try Data(payload).write(to: URL(fileURLWithPath: path("data.bin")))
        #expect([UInt8](try FileDescriptorIO.readFile(path: path("data.bin"), kind: "a test file")) == payload)
        try Data().write(to: URL(fileURLWithPath: path("empty.bin")))
        #expect(try FileDescriptorIO.readFile(path: path("empty.bin"), kind: "a test file").isEmpty)
    }

    @Test func fifoIsReadToItsEnd() throws {
        // Foundation's Data(contentsOf:) reported a FIFO (and `<(curl …)`) as a permission problem.
        #expect(makeFIFO(at: path("fifo"), feeding: Data(payload)))
        #expect([UInt8](try FileDescriptorIO.readFile(path: path("fifo"), kind: "a test file")) == payload)
    }

    @Test func pathsThatAreNoFileSayWhatTheyAre() throws {
        let directory = #expect(throws: BlazeError.self) { try FileDescriptorIO.readFile(path: folder.path, kind: "an .npy file") }
        #expect(directory?.kind == .invalidInput && text(directory).contains("is a directory, not an .npy file"), "\(text(directory))")
        #expect(directory?.context == folder.path)

        let missing = #expect(throws: BlazeError.self) { try FileDescriptorIO.readFile(path: path("missing"), kind: "a test file") }
        #expect(missing?.kind == .io && text(missing).contains("No such file or directory"), "\(text(missing))")

        #expect(symlink("loop", path("loop")) == 0)
        let loop = #expect(throws: BlazeError.self) { try FileDescriptorIO.readFile(path: path("loop"), kind: "a test file") }
        #expect(loop?.kind == .io && text(loop).contains("symbolic links"), "\(text(loop))")
    }

    @Test func fileOverTheLimitIsRefusedBeforeReading() throws {
        // A sparse file: its size is past the limit, its blocks are not on disk.
        let fd = open(path("huge"), O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        #expect(ftruncate(fd, off_t(FileDescriptorIO.maximumInputBytes + 1)) == 0)
        close(fd)
        let huge = #expect(throws: BlazeError.self) { try FileDescriptorIO.readFile(path: path("huge"), kind: "a model file") }
        #expect(huge?.kind == .invalidInput, "\(text(huge))")
        #expect(text(huge).contains("\(FileDescriptorIO.maximumInputBytes + 1) bytes, more than the"), "\(text(huge))")
        #expect(text(huge).contains("limit for a model file"), "\(text(huge))")
    }

    @Test func npyFilesAreReadThroughIt() throws {
        let array = NPYArray(shape: [2, 3], values: [1, 2, 3, 4, 5, 6])
        try Data(array.encoded()).write(to: URL(fileURLWithPath: path("a.npy")))
        #expect(try NPYArray(contentsOf: URL(fileURLWithPath: path("a.npy"))) == array)
        let directory = #expect(throws: BlazeError.self) { try NPYArray(contentsOf: folder) }
        #expect(text(directory).contains("is a directory, not an .npy file"), "\(text(directory))")
        // A file that is read but does not decode names its path as the reader's errors do.
        try Data("junk".utf8).write(to: URL(fileURLWithPath: path("bad.npy")))
        let corrupt = #expect(throws: BlazeError.self) { try NPYArray(contentsOf: URL(fileURLWithPath: path("bad.npy"))) }
        #expect(corrupt?.context == path("bad.npy") && text(corrupt).contains("expected a .npy file"), "\(text(corrupt))")
    }
}
