import BlazeEngine
import Foundation

/// The LiteRT parity fixtures made by `Tools/parity/make_parity_fixtures.py`
/// (LiteRT 2.3.0 with XNNPACK, 1 thread): per net and case, `input.npy` and one `.npy` per output.
public struct ParityFixtures: Sendable {
    public struct Output: Decodable, Sendable { public let name: String; public let file: String; public let shape: [Int] }
    public struct Case: Decodable, Sendable { public let name: String; public let description: String }
    public struct Net: Decodable, Sendable {
        public let source: String
        public let outputs: [Output]
        public let cases: [Case]
    }
    private struct Manifest: Decodable { let models: [String: Net]; let litert_version: String }

    public let directory: URL
    public let nets: [String: Net]
    public let litertVersion: String

    public init(directory: URL = RepoPaths.parityFixtures) throws {
        self.directory = directory
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
        nets = manifest.models
        litertVersion = manifest.litert_version
    }

    public func input(_ stem: String, _ caseName: String) throws -> NPYArray {
        try NPYArray(contentsOf: directory.appendingPathComponent("\(stem)/\(caseName)/input.npy"))
    }

    public func expected(_ stem: String, _ caseName: String) throws -> [NPYArray] {
        try (nets[stem]?.outputs ?? []).map { try NPYArray(contentsOf: directory.appendingPathComponent("\(stem)/\(caseName)/\($0.file)")) }
    }
}

/// The parity measure of the project: `max|Δ| / max(1, max|ref|)` over one output tensor (+∞ on
/// a size mismatch or a NaN in `actual`).
public func parityError(_ actual: [Float], _ reference: [Float]) -> Float {
    maxAbsDifference(actual, reference) / max(1, reference.maxMagnitude())
}

/// The tolerance every net must meet against LiteRT (issue #2).
public let parityTolerance: Float = 1e-4

/// Runs `model` on every fixture case of `stem` with `kernels` and returns the worst parity error
/// per case, together with a description of any shape mismatch.
public func worstParityError(
    model: Model, stem: String, fixtures: ParityFixtures, kernels: KernelSet,
    cases: [String]? = nil
) throws -> [(caseName: String, error: Float)] {
    guard let net = fixtures.nets[stem] else { throw BlazeError(.invalidInput, "no fixtures for \(stem)") }
    let session = model.makeSession(kernels: kernels)
    var result: [(String, Float)] = []
    for c in net.cases where cases == nil || cases!.contains(c.name) {
        let input = try fixtures.input(stem, c.name)
        let outputs = try session.run([input.values])
        let expected = try fixtures.expected(stem, c.name)
        var worst: Float = 0
        for (index, ref) in expected.enumerated() {
            guard let pos = model.outputs.firstIndex(where: { $0.name == net.outputs[index].name }) else {
                throw BlazeError(.shapeMismatch, "\(stem) has no output named \(net.outputs[index].name)")
            }
            guard model.outputs[pos].shape == ref.shape else {
                throw BlazeError(.shapeMismatch, "\(stem) output \(net.outputs[index].name): shape \(model.outputs[pos].shape) vs LiteRT \(ref.shape)")
            }
            worst = worse(worst, parityError(outputs[pos], ref.values))
        }
        result.append((c.name, worst))
    }
    return result
}
