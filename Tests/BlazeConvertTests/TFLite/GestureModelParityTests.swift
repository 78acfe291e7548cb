import BlazeEngine
import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeConvert

/// The gesture bundle's three nets (embedder, canned and custom classifier: GATHER, UNPACK,
/// REDUCE_MIN, SOFTMAX besides the ops of the other nets), converted from the unmodified `.tflite`
/// and run against LiteRT (XNNPACK, 1 thread). Fixtures, inputs and provenance: Fixtures/gestures,
/// made by Tools/parity/make_gesture_parity_fixtures.py. Random inputs are regenerated here with
/// the script's SplitMix64 recipe; the other cases' inputs are stored (`input_files`).
///
/// Bound per output: `max|Δ| / max(1, max|ref|) ≤ max(1e-4, 3 · spread)`, as for the wheel nets
/// (`spread`: LiteRT's XNNPACK against its builtin and reference kernels).
@Suite("Gesture nets against LiteRT")
struct GestureModelParityTests {
    struct Output: Decodable { let name: String; let file: String; let shape: [Int]; let max_abs: Float; let spread: Float }
    struct RandomInput: Decodable { let seed: UInt64; let range: [Double] }
    struct Case: Decodable { let name: String; let outputs: [Output]; let random_inputs: [RandomInput]?; let input_files: [String]? }
    struct Net: Decodable { let input_shapes: [[Int]]; let cases: [Case] }
    struct Manifest: Decodable { let models: [String: Net] }

    static let manifest = Result {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: TFLiteTestSupport.fixtureURL("gestures/manifest.json")))
    }
    static let stems = ["canned_gesture_classifier", "custom_gesture_classifier", "gesture_embedder"]

    @Test func manifestListsTheBundlesNets() throws {
        #expect(try Self.manifest.get().models.keys.sorted() == Self.stems)
    }

    struct ClassifierMetadata: Decodable { let labels: [String]?; let score_threshold: Float? }
    struct MetadataManifest: Decodable { let classifier_metadata: [String: ClassifierMetadata] }

    /// A bundle inside a bundle (the gesture bundle's shape) converts every net of the inner one;
    /// each classifier keeps its labels and score threshold as the script read them (Python's
    /// zipfile and a flatbuffer walk), and one without metadata gets none.
    @Test func nestedBundleConvertsWithLabelsAndThresholds() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let written = try ModelConversion.convertTaskBundle(
            bytes: TFLiteTestSupport.fixtureBytes("gestures/nested_classifiers.task"), bundleName: "nested_classifiers.task",
            outputDirectory: scratch.url)
        #expect(written.map(\.lastPathComponent).sorted() == ["canned_gesture_classifier.bkm", "custom_gesture_classifier.bkm"])
        let expected = try JSONDecoder().decode(
            MetadataManifest.self, from: Data(contentsOf: TFLiteTestSupport.fixtureURL("gestures/manifest.json"))
        ).classifier_metadata
        for url in written {
            let stem = url.deletingPathExtension().lastPathComponent
            let want = try #require(expected[stem])
            let metadata = try Model(contentsOf: url).graph.metadata
            #expect(metadata["output.0.labels"]?.components(separatedBy: "\n") == want.labels, "\(stem)")
            #expect(metadata["output.0.score_threshold"].flatMap(Float.init) == want.score_threshold, "\(stem)")
        }
        #expect(expected["custom_gesture_classifier"]?.labels?.count == 9 && expected["canned_gesture_classifier"]?.labels == nil)
    }

    @Test(arguments: stems)
    func matchesLiteRT(stem: String) throws {
        let net = try #require(try Self.manifest.get().models[stem])
        let graph = try TFLiteConverter.convert(
            tfliteBytes: TFLiteTestSupport.fixtureBytes("gestures/models/\(stem).tflite"), modelName: "\(stem).tflite")
        let model = try Model(graph: graph)
        #expect(model.inputs.map(\.shape) == net.input_shapes)
        for c in net.cases {
            let inputs = try Self.inputs(net, c)
            for (kernels, threads) in [(KernelSet.reference, 1), (.optimized, 1), (.optimized, 2)] {
                let outputs = try model.makeSession(kernels: kernels, threads: threads).run(inputs)
                try #require(outputs.count == c.outputs.count)
                for (ours, o) in zip(outputs, c.outputs) {
                    let stored = try NPYArray(contentsOf: TFLiteTestSupport.fixtureURL("gestures/\(o.file)")).values
                    let error = maxAbsDifference(ours, stored) / max(1, o.max_abs)
                    let bound = max(1e-4, 3 * o.spread)
                    let what = "\(stem)/\(c.name) \(o.name), \(kernels) at \(threads) thread(s)"
                    print("[Gesture nets] \(what): max |Δ| / max(1, max|ref|) = \(error)")
                    #expect(ours.count == o.shape.reduce(1, *) && error <= bound, "\(what): \(error) > \(bound)")
                }
            }
        }
    }

    /// The case's inputs in model order, as the script made them.
    static func inputs(_ net: Net, _ c: Case) throws -> [[Float]] {
        if let files = c.input_files {
            return try files.map { try NPYArray(contentsOf: TFLiteTestSupport.fixtureURL("gestures/\($0)")).values }
        }
        let randoms = try #require(c.random_inputs)
        return zip(net.input_shapes, randoms).map { shape, spec in
            var rng = SeededRandom(seed: spec.seed)
            let lo = spec.range[0], hi = spec.range[1]
            return (0..<shape.reduce(1, *)).map { _ in Float(lo + (hi - lo) * rng.unit()) }
        }
    }
}
