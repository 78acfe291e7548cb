import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Makes a FIFO at `path` standing in for a pipe (`<(curl …)`), and a thread that writes `bytes`
/// into it once a reader opens it. False when the FIFO cannot be made.
public func makeFIFO(at path: String, feeding bytes: Data) -> Bool {
    guard mkfifo(path, 0o644) == 0 else { return false }
    Thread { try? bytes.write(to: URL(fileURLWithPath: path)) }.start()
    return true
}
