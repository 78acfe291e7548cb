import BlazeEngine
import Foundation
import Testing
import BlazeTestSupport
@testable import BlazeConvert

/// Fixture access and graph summaries for the TFLite converter tests.
enum TFLiteTestSupport {
    static func fixtureURL(_ relativePath: String) throws -> URL {
        let url = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/" + relativePath)
        return url
    }

    static func fixtureBytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtureURL(relativePath)))
    }

    /// An original MediaPipe model from Models/sources (provenance in Models/README.md).
    static func model(_ stem: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: RepoPaths.modelSources.appendingPathComponent("\(stem).tflite")))
    }

    /// Op name → count.
    static func histogram(_ graph: Graph) -> [String: Int] {
        var h: [String: Int] = [:]
        for node in graph.nodes { h[node.op.name, default: 0] += 1 }
        return h
    }

    static func describeHistogram(_ graph: Graph) -> String {
        histogram(graph).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// 2 × multiply-accumulates of every conv / depthwise / fully connected node.
    static func flops(_ graph: Graph) -> Int {
        graph.nodes.reduce(0) { sum, node in
            sum + 2
                * node.op.multiplyAccumulates(
                    inputs: node.inputs.map { graph.tensors[$0].shape },
                    output: graph.tensors[node.outputs[0]].shape)
        }
    }

    /// Converts and expects a `BlazeError`; returns it.
    static func conversionError(_ bytes: [UInt8], modelName: String = "tiny.tflite") -> BlazeError? {
        do {
            _ = try TFLiteConverter.convert(tfliteBytes: bytes, modelName: modelName)
            return nil
        } catch let e as BlazeError {
            return e
        } catch {
            Issue.record("unexpected error type \(type(of: error)): \(error)")
            return nil
        }
    }
}
