import Foundation
import Testing

/// One of the package's executables, driven as a user drives it: a child process working in a
/// scratch folder of its own. Swift Testing makes a suite instance per test (and per argument),
/// so a suite that holds one gets a fresh folder each test, removed when the test ends.
public final class CommandLineTool: Sendable {
    public let name: String
    public let executable: URL
    public let scratch: ScratchFolder
    /// The working folder of every run.
    public var work: URL { scratch.url }

    public init(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.name = name
        executable = try #require(ProcessRunner.executable(name), "\(name) not built next to the tests", sourceLocation: sourceLocation)
        scratch = try ScratchFolder()
    }

    deinit { scratch.remove() }

    /// Runs the tool with `arguments` in `work`; a crash (an end by signal) fails the test.
    public func run(_ arguments: [String], stdin: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        let r = try ProcessRunner.run(executable, arguments, currentDirectory: work, stdin: stdin)
        #expect(!r.crashed, "\(name) \(arguments) crashed: \(r.stderr)", sourceLocation: sourceLocation)
        return r
    }

    /// The path of `name` in `work`.
    public func path(_ name: String) -> String { scratch.path(name) }
}
