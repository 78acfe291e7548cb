import BlazeTestSupport
import BlazeEngine
import Foundation
import Testing
@testable import BlazeConvert

/// Single-op models against LiteRT: a one-op `.tflite` and the LiteRT interpreter's output on a
/// seeded input (with the op's corner points for HARD_SWISH and LEAKY_RELU; odd sizes, kernels
/// and strides, SAME and VALID for MediaPipe's Convolution2DTransposeBias) (Fixtures/ops, made by
/// Tools/parity/make_op_fixtures.py). Converted by our converter and run by the engine at 1 and 2
/// threads (the planner's optimised step) and by the reference kernel.
@Suite("Single-op models (HARD_SWISH, LEAKY_RELU, Convolution2DTransposeBias) against LiteRT")
struct SingleOpParityTests {
    @Test(arguments: ["hard_swish", "transpose_conv_bias_same", "transpose_conv_bias_valid", "transpose_conv_bias_same_k4"])
    func matchesLiteRT(op: String) throws {
        let graph = try TFLiteConverter.convert(tfliteBytes: TFLiteTestSupport.fixtureBytes("ops/\(op).tflite"), modelName: "\(op).tflite")
        let input = try NPYArray(contentsOf: TFLiteTestSupport.fixtureURL("ops/\(op).input.npy"))
        let expected = try NPYArray(contentsOf: TFLiteTestSupport.fixtureURL("ops/\(op).output.npy"))
        #expect(graph.nodes.count == 1)
        let model = try Model(graph: graph)
        for (kernels, threads) in [(KernelSet.optimized, 1), (.optimized, 2), (.reference, 1)] {
            let output = try model.makeSession(kernels: kernels, threads: threads).run([input.values])[0]
            #expect(output.count == expected.values.count)
            let worst = maxAbsDifference(output, expected.values)
            // HARD_SWISH: LiteRT (XNNPACK) and the plain formula differ only by rounding (≈ 1 ulp of 8).
            // Transposed convolutions sum up to 13·9 products in their own order: 1e-5 of the range.
            let scale = max(1, expected.values.maxMagnitude())
            let bound: Float = op == "hard_swish" ? 1e-6 : 1e-5 * scale
            #expect(worst <= bound, "\(op), \(kernels) kernels at \(threads) thread(s): max |Δ| \(worst)")
        }
    }

    /// LEAKY_RELU, bit for bit (one compare and one multiply: NaN payloads, signed zeros and
    /// denormals included). `leaky_relu` (alpha 0.3) is LiteRT's default XNNPACK output, equal to
    /// TFLite's reference kernel there; `leaky_relu_negative_alpha` (alpha −1.7, signalling NaN,
    /// negative denormals) is TFLite's reference kernel, where XNNPACK differs on 5 elements (±0,
    /// the negative denormals, the signalling NaN: see the script).
    @Test(arguments: [("leaky_relu", Float(0.3)), ("leaky_relu_negative_alpha", -1.7)])
    func leakyReluMatchesLiteRTBitwise(op: String, alpha: Float) throws {
        let graph = try TFLiteConverter.convert(tfliteBytes: TFLiteTestSupport.fixtureBytes("ops/\(op).tflite"), modelName: "\(op).tflite")
        let input = try NPYArray(contentsOf: TFLiteTestSupport.fixtureURL("ops/\(op).input.npy"))
        let expected = try NPYArray(contentsOf: TFLiteTestSupport.fixtureURL("ops/\(op).output.npy"))
        #expect(graph.nodes.map(\.op) == [.leakyRelu(LeakyReluParams(alpha: alpha))])
        let model = try Model(graph: graph)
        for (kernels, threads) in [(KernelSet.optimized, 1), (.optimized, 2), (.reference, 1)] {
            let output = try model.makeSession(kernels: kernels, threads: threads).run([input.values])[0]
            try #require(output.count == expected.values.count)
            let differing = output.indices.filter { output[$0].bitPattern != expected.values[$0].bitPattern }
            #expect(differing.isEmpty, "\(op), \(kernels) kernels at \(threads) thread(s): \(differing.count) elements differ, first at \(differing.first ?? -1)")
        }
    }

    /// HARD_SWISH by hand: x · relu6(x + 3) / 6.
    @Test func hardSwishHandComputed() throws {
        let x: [Float] = [-4, -3, -1.5, 0, 1, 3, 5]
        let expected: [Float] = [0, 0, -0.375, 0, 4.0 / 6, 3, 5]
        var b = GraphBuilderForOps()
        let graph = try b.unary(.hardSwish, count: x.count)
        let y = try Model(graph: graph).makeSession(threads: 1).run([x])[0]
        for (got, want) in zip(y, expected) { #expect(abs(got - want) <= 1e-7, "\(got) vs \(want)") }
    }
}

/// A one-node graph `y = unary(x)` over a `[count]` tensor.
struct GraphBuilderForOps {
    mutating func unary(_ kind: UnaryKind, count: Int) throws -> Graph {
        let tensors = [TensorDescriptor(name: "x", shape: [count]), TensorDescriptor(name: "y", shape: [count])]
        let graph = Graph(
            tensors: tensors, constants: [], nodes: [Node(op: .unary(kind), inputs: [0], outputs: [1])],
            inputs: [0], outputs: [1], metadata: [:])
        try graph.validate()
        return graph
    }
}
