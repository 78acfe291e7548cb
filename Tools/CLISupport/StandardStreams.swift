import BlazeEngine
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output could not be written: a full device, a closed descriptor or a reader that went
/// away. The tools report it (when standard error still works) and exit with status 1.
public struct StreamWriteError: Error, CustomStringConvertible {
    public let stream: String
    public let reason: String
    public var description: String { "cannot write \(stream): \(reason)" }
}

/// The tools' only way to standard output and standard error: unbuffered `write(2)` calls, so a
/// failure is seen at the line that caused it (Foundation's `FileHandle.write` traps on one, and
/// `print` loses it in a buffer flushed at exit).
public enum StandardStreams {
    /// Call once at start: a closed pipe then fails a write with `EPIPE` instead of killing the
    /// process with `SIGPIPE`, so it is reported like any other write failure.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether a line meant for standard error could not be written; the tools exit 1 then.
    public static var errorOutputFailed: Bool { errorFailures.load() }

    private static let errorFailures = FlagBox()

    static func write(_ fd: Int32, _ text: String) -> Int32? {
        Array(text.utf8).withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0) }
    }

    static func markErrorOutputFailed() { errorFailures.set() }
}

/// A flag set once from any thread (a failed write to standard error).
final class FlagBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    func load() -> Bool { lock.lock(); defer { lock.unlock() }; return value }
}

/// Writes one line to standard error, control characters made visible and newlines folded.
/// A failure cannot be reported anywhere; it is remembered in `StandardStreams.errorOutputFailed`.
public func printError(_ line: String) {
    let text = terminalSafe(line.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")) + "\n"
    if StandardStreams.write(STDERR_FILENO, text) != nil { StandardStreams.markErrorOutputFailed() }
}

/// Writes one line (or several, separated by `\n`) to standard output at once, so JSON Lines
/// consumers see each line when it is done. Control characters other than the line breaks are
/// made visible. Throws `StreamWriteError` when the line cannot be written.
public func printLine(_ line: String) throws(StreamWriteError) {
    let text = line.split(separator: "\n", omittingEmptySubsequences: false).map { terminalSafe(String($0)) }.joined(separator: "\n") + "\n"
    if let code = StandardStreams.write(STDOUT_FILENO, text) {
        throw StreamWriteError(stream: "standard output", reason: String(cString: strerror(code)))
    }
}

/// `text` with every control character (C0 but tab, DEL, C1) replaced by a visible `\u{…}`, so a
/// file or tensor name cannot move the cursor, recolour or retitle the user's terminal.
public func terminalSafe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if isControl(scalar) {
            out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}

private func isControl(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\t") || (0x7F...0x9F).contains(s.value)
}
