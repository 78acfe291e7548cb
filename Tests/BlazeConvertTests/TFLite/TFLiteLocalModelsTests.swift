import BlazeEngine
import Foundation
import Testing
@testable import BlazeConvert

/// Converts every `.tflite` in the folder named by `BLAZECONVERT_TFLITE_DIR` and prints its op
/// histogram and FLOPs. Skipped unless the variable is set, so the suite stays hermetic; used to
/// check the nets that are too large to ship as fixtures, e.g.
/// `BLAZECONVERT_TFLITE_DIR=/tmp/nets swift test -c release --filter TFLiteLocalModelsTests`.
@Suite struct TFLiteLocalModelsTests {
    static let directory = ProcessInfo.processInfo.environment["BLAZECONVERT_TFLITE_DIR"]

    @Test(.enabled(if: directory != nil)) func convertsEveryModelInDirectory() throws {
        let dir = URL(fileURLWithPath: try #require(Self.directory))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tflite") }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(file)))
            let clock = ContinuousClock()
            let start = clock.now
            do {
                let graph = try TFLiteConverter.convert(tfliteBytes: bytes, modelName: file)
                let elapsed = clock.now - start
                let inputs = graph.inputs.map { "\(graph.tensors[$0].name)\(graph.tensors[$0].shape)" }
                let outputs = graph.outputs.map { "\(graph.tensors[$0].name)\(graph.tensors[$0].shape)" }
                let f16 = graph.constants.filter { $0.storage == .float16 }.count
                print("""
                    [local] \(file): \(graph.nodes.count) nodes, \(graph.tensors.count) tensors, \(graph.constants.count) constants (\(f16) fp16), \
                    FLOPs \(String(format: "%.3f", Double(TFLiteTestSupport.flops(graph)) / 1e6)) M, \(elapsed)
                    [local]   inputs \(inputs) outputs \(outputs)
                    [local]   ops: \(TFLiteTestSupport.describeHistogram(graph))
                    """)
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
    }
}
