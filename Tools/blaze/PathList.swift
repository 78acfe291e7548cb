import BlazeCLISupport
import Foundation

/// The lines of `--files-from FILE|-`, read as they are needed (a list of 10⁶ paths runs in
/// constant memory). Blank lines are skipped and a trailing `\r` is dropped. A read error ends
/// the list and is kept in `failure` for the caller to report.
final class PathListReader: Sequence, IteratorProtocol {
    /// Longer lines are not paths (`PATH_MAX` is 4096 on Linux); they are reported and skipped.
    static let maxLineLength = 1 << 16

    let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0, atEnd = false
    private(set) var failure: String?
    private(set) var skippedLongLines = 0

    /// Opens `path` (`-` is standard input).
    init(path: String) throws {
        name = path == "-" ? "standard input" : path
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            var st = stat()
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
                throw UsageError("--files-from \(path): is a folder; give a file with one image path per line (or give the folder as an input)")
            }
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw UsageError("--files-from \(path): cannot open: \(String(cString: strerror(errno)))") }
            ownsDescriptor = true
        }
    }

    deinit { if ownsDescriptor { close(fd) } }

    func next() -> String? {
        var line: [UInt8] = []
        var tooLong = false
        while true {
            if start == end {
                if atEnd || !refill() {
                    // The last line may lack its newline.
                    if tooLong { skippedLongLines += 1; return nil }
                    return line.isEmpty ? nil : finished(line) ?? next()
                }
            }
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                if !tooLong { line += buffer[start..<newline] }
                start = newline + 1
                if tooLong || line.count > Self.maxLineLength {
                    skippedLongLines += 1
                    line.removeAll(keepingCapacity: true)
                    tooLong = false
                    continue
                }
                if let path = finished(line) { return path }
                line.removeAll(keepingCapacity: true)
            } else {
                if !tooLong { line += buffer[start..<end] }
                if line.count > Self.maxLineLength { tooLong = true; line.removeAll() }
                start = end
            }
        }
    }

    /// The path of one line, or nil for a blank one.
    private func finished(_ line: [UInt8]) -> String? {
        var bytes = line[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }

    private func refill() -> Bool {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { start = 0; end = n; return true }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { failure = "--files-from \(name): read failed: \(String(cString: strerror(errno)))" }
            atEnd = true
            return false
        }
    }

    /// The number of non-blank lines of a regular file (for progress), or nil for a pipe or
    /// anything that cannot be read twice.
    static func countPaths(in path: String) -> Int? {
        guard path != "-" else { return nil }
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, let reader = try? PathListReader(path: path) else { return nil }
        var count = 0
        while reader.next() != nil { count += 1 }
        return reader.failure == nil ? count : nil
    }
}
