import Foundation
import Testing

/// Resident memory, for tests that check memory stays flat. It is process-wide and other suites
/// run in parallel, so such a test measures in a child process of the test binary that runs only
/// that test (`measuredAlone`).
public enum ResidentMemory {
    /// The process's resident set size in bytes (`/proc/self/statm`).
    public static func bytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = try #require(text.split(separator: " ").dropFirst().first.flatMap { Int($0) }, "statm: \(text)")
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// False under a sanitizer (`make sanitize` sets `BLAZE_SANITIZER`): freed memory then waits
    /// in the sanitizer's quarantine, so resident memory is not ours (LeakSanitizer checks leaks).
    public static var isOurs: Bool { ProcessInfo.processInfo.environment["BLAZE_SANITIZER"] == nil }

    /// True in the child process, where the test measures. Elsewhere it runs the test binary with
    /// only `test` (a test function's name) in a child, checks that the child passed and printed
    /// `mark` (so that it did measure), and returns false.
    public static func measuredAlone(_ test: String, printing mark: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let variable = "BLAZEKIT_MEASURE_ALONE"
        if ProcessInfo.processInfo.environment[variable] == test { return true }
        let runner = try #require(ProcessRunner.executable("BlazeKitPackageTests.xctest"), "test binary not found", sourceLocation: sourceLocation)
        let child = try ProcessRunner.run(runner, ["--testing-library", "swift-testing", "--filter", test], environment: [variable: test])
        #expect(!child.crashed, sourceLocation: sourceLocation)
        #expect(child.status == 0, "isolated run failed:\n\(child.stdout)\(child.stderr)", sourceLocation: sourceLocation)
        #expect(child.stdout.contains(mark), "the isolated run did not measure: \(child.stdout)", sourceLocation: sourceLocation)
        return false
    }
}
