import Foundation

/// Scratch space removed by the test that made it.
public struct ScratchFolder: Sendable {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("blaze-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
