import Foundation

/// Runs one of the package's executables (built next to the test bundle) and captures its output.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    /// True when the process ended by a signal (a crash), not by `exit`.
    public let crashed: Bool
}

public enum ProcessRunner {
    /// The build products directory (`.build/<config>`), found from the test bundle's location.
    /// On Linux the test runner is itself the `.xctest` executable, read from `/proc/self/exe`
    /// (Foundation's `Bundle.allBundles` leaks, which LeakSanitizer reports).
    public static var productsDirectory: URL {
        #if os(Linux)
            if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: exe).deletingLastPathComponent()
            }
        #endif
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    public static func executable(_ name: String) -> URL? {
        let candidates = [productsDirectory, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// `BLAZE_TEST_RUNNER`: a program that starts the package's own executables when they are
    /// built for another architecture (`make test-aarch64` sets it to `Tools/aarch64/run`, which
    /// runs them under qemu-user); it gets the executable's path, then its arguments.
    public static var testRunner: URL? {
        ProcessInfo.processInfo.environment["BLAZE_TEST_RUNNER"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    }

    /// What to start for `executable` with `arguments`: through `testRunner` when one is set and
    /// `executable` was built with the tests; anything else (`/bin/sh`) starts as it is.
    public static func command(_ executable: URL, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
        guard let runner = testRunner, executable.path.hasPrefix(productsDirectory.path + "/") else { return (executable, arguments) }
        return (runner, [executable.path] + arguments)
    }

    public static func run(
        _ executable: URL, _ arguments: [String], currentDirectory: URL? = nil,
        environment: [String: String]? = nil, stdin: Data? = nil
    ) throws -> ProcessResult {
        let process = Process()
        let (program, programArguments) = command(executable, arguments)
        process.executableURL = program
        process.arguments = programArguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Feed stdin and drain both pipes concurrently, so that a child writing while it still
        // reads cannot block on a full pipe.
        let errBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        let writer = input.fileHandleForWriting
        // A child that exits without reading all of stdin must not kill the test run with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        DispatchQueue.global().async {
            if let stdin { try? writer.write(contentsOf: stdin) }
            try? writer.close()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self),
            crashed: process.terminationReason == .uncaughtSignal)
    }
}

final class DataBox: @unchecked Sendable {
    // Written by one background task, read after `group.wait()`.
    var data = Data()
}

extension ProcessRunner {
    /// Runs `executable` through `/bin/sh` with `redirections` applied to it (e.g. `>/dev/full`,
    /// `>&-`, `2>/dev/full`): `exec` replaces the shell, so a crash of the tool is seen as one.
    public static func run(
        _ executable: URL, _ arguments: [String], redirections: String,
        currentDirectory: URL? = nil
    ) throws -> ProcessResult {
        let (program, programArguments) = command(executable, arguments)
        return try run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" \"$@\" \(redirections)", program.path] + programArguments,
            currentDirectory: currentDirectory)
    }
}
