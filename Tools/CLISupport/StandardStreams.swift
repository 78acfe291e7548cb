import Foundation

/// Writes one line to standard error.
public func printError(_ line: String) {
    FileHandle.standardError.write(Data((line.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
}

/// Writes one line to standard output and flushes, so JSON Lines consumers see each line at once.
public func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
