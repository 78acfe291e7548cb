import BlazeEngine
import Foundation
import Testing

/// The committed libFuzzer corpora (`Fuzz/Corpus/<target>`: seeds plus every input the fuzzers
/// kept), replayed as ordinary tests so each parser meets all of them in every test run, not only
/// during `make fuzz`.
public enum FuzzCorpus {
    /// Every file of `target`'s corpus, sorted by name; an empty or missing corpus is a failure.
    public static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = RepoPaths.root.appendingPathComponent("Fuzz/Corpus/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        try #require(!names.isEmpty, "\(folder.path) holds no inputs")
        return try names.map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    /// Runs `body` on every input of `target`: each either succeeds or throws a `BlazeError` with a
    /// message; any other error type is a failure. Prints how many inputs went each way.
    public static func replay(_ target: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: ([UInt8]) throws -> Void) throws {
        var accepted = 0, rejected = 0
        for (name, bytes) in try inputs(target) {
            do {
                try body(bytes)
                accepted += 1
            } catch let error as BlazeError {
                #expect(!error.message.isEmpty, "\(target)/\(name): an error without a message", sourceLocation: sourceLocation)
                rejected += 1
            } catch {
                Issue.record("\(target)/\(name): \(type(of: error)) \(error), not a BlazeError", sourceLocation: sourceLocation)
            }
        }
        print("[Fuzz corpus] \(target): \(accepted + rejected) inputs, \(accepted) accepted, \(rejected) rejected")
    }
}
