import Foundation
#if canImport(Glibc)
    import Glibc
#endif

extension ProcessRunner {
    /// Runs `executable` with its standard error on a pseudo-terminal (so `isatty(2)` is true, as
    /// in a user's shell) and standard output on a pipe; returns what each received.
    public static func runWithTerminalStderr(_ executable: URL, _ arguments: [String]) throws -> ProcessResult {
        let pty = try PseudoTerminalCalls()
        let master = pty.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, pty.grantpt(master) == 0, pty.unlockpt(master) == 0, let name = pty.ptsname(master) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminal: \(String(cString: strerror(errno)))"])
        }
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { close(master); throw CocoaError(.fileReadUnknown) }
        let process = Process()
        let command = ProcessRunner.command(executable, arguments)  // through BLAZE_TEST_RUNNER when set
        process.executableURL = command.executable
        process.arguments = command.arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        close(slave)
        let terminal = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                // Once the child (the last holder of the slave side) exits, read fails with EIO.
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n > 0 { terminal.data.append(contentsOf: buffer[0..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
            }
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        close(master)
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: terminal.data, as: UTF8.self),
            crashed: process.terminationReason == .uncaughtSignal)
    }
}

/// glibc's pseudo-terminal calls, looked up at run time: its headers declare them only under
/// `_XOPEN_SOURCE`, which Swift's Glibc module does not set.
private struct PseudoTerminalCalls {
    typealias IntOfInt = @convention(c) (Int32) -> Int32
    let openpt: IntOfInt, grantpt: IntOfInt, unlockpt: IntOfInt
    let ptsname: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    init() throws {
        func symbol<T>(_ name: String, as _: T.Type) throws -> T {
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(name) not found"])
            }
            return unsafeBitCast(address, to: T.self)
        }
        openpt = try symbol("posix_openpt", as: IntOfInt.self)
        grantpt = try symbol("grantpt", as: IntOfInt.self)
        unlockpt = try symbol("unlockpt", as: IntOfInt.self)
        ptsname = try symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
    }
}
