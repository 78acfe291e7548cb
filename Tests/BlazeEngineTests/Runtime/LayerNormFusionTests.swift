import BlazeModels
import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// Ten-node layer normalisations run as one `LayerNormStep` by the optimised plan
/// (`LayerNormFusion`). The reference kernels run the ten nodes as written; the fused step must
/// give the same bits (it repeats their float operations), at every thread count.
@Suite struct LayerNormFusionTests {
    typealias Builder = PadFoldingTests.Builder

    /// Which tail the normalisation ends in, and the operand order of its commutative nodes.
    struct Variant: CustomStringConvertible, Sendable {
        var beta: Bool
        var swapped: Bool
        var description: String { (beta ? "β" : "no β") + (swapped ? ", swapped operands" : "") }
    }

    /// A constant with the given values.
    static func constant(_ b: inout Builder, _ name: String, _ shape: [Int], _ values: [Float]) -> Int {
        b.constants.append(Constant(shape: shape, values: values))
        b.tensors.append(TensorDescriptor(name: name, shape: shape, constant: b.constants.count - 1))
        return b.tensors.count - 1
    }

    /// `pre = ADD(in, in2)` (so the normalised tensor lives in the arena), the ten nodes, and
    /// `post = ADD(y, x)` when `residual` (x then outlives the normalisation). Returns the graph
    /// and the index of the first normalisation node.
    static func layerNormGraph(
        rows: Int, channels C: Int, _ v: Variant, residual: Bool, gammaConstant: Bool = true,
        extraOutput: Bool = false, firstMeanAxis: Int = -1
    ) throws -> (Graph, first: Int) {
        var b = Builder()
        let shape = [1, 1, rows, C]
        let input = b.tensor("in", shape), input2 = b.tensor("in2", shape)
        let x = try b.node(.binary(BinaryParams(.add)), [input, input2], "x")
        func pair(_ a: Int, _ c: Int) -> [Int] { v.swapped ? [c, a] : [a, c] }
        let mean = Op.reduce(ReduceParams(.mean, axes: [-1], keepDims: true))
        let m = try b.node(.reduce(ReduceParams(.mean, axes: [firstMeanAxis], keepDims: true)), [x], "m")
        let negated = v.beta ? nil : try b.node(.unary(.neg), [m], "neg")
        let d = try b.node(.binary(BinaryParams(.squaredDifference)), pair(x, m), "d")
        let variance = try b.node(mean, [d], "v")
        let eps = constant(&b, "eps", [], [1e-5])
        let ve = try b.node(.binary(BinaryParams(.add)), pair(variance, eps), "ve")
        let r = try b.node(.unary(.rsqrt), [ve], "r")
        let gamma = gammaConstant ? b.constant("gamma", [C]) : b.tensor("gamma_in", [C])
        let s = try b.node(.binary(BinaryParams(.mul)), pair(r, gamma), "s")
        let a = try b.node(.binary(BinaryParams(.mul)), pair(x, s), "xs")
        let shifted: Int
        if let negated {
            shifted = try b.node(.binary(BinaryParams(.mul)), pair(negated, s), "ms")
        } else {
            let ms = try b.node(.binary(BinaryParams(.mul)), pair(m, s), "ms")
            let beta = b.constant("beta", [C])
            shifted = try b.node(.binary(BinaryParams(.sub)), [beta, ms], "shift")
        }
        let y = try b.node(.binary(BinaryParams(.add)), pair(a, shifted), "y")
        var outputs = [y]
        if residual { outputs = [try b.node(.binary(BinaryParams(.add)), [y, x], "post")] }
        if extraOutput { outputs.append(m) }
        let inputs = gammaConstant ? [input, input2] : [input, input2, gamma]
        return (try b.graph(inputs: inputs, outputs: outputs), 1)
    }

    /// Optimised at 1–3 threads bitwise equal to the reference kernels; returns the 1-thread session.
    @discardableResult
    static func expectBitwise(_ graph: Graph, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Session {
        // An offset and a scale per tensor, so the mean and variance are not ~0 and ~1/3.
        let (reference, runs) = try PadFoldingTests.referenceAndOptimized(graph, seed: 0x1A7E_2026, scale: 6, offset: -1.5)
        for (threads, optimized) in runs {
            for (k, (o, r)) in zip(optimized, reference).enumerated() {
                PlannedStepTestKit.expectBitwise(o, r, "\(what) output \(k), \(threads) threads", sourceLocation: sourceLocation)
            }
        }
        return try Model(graph: graph).makeSession(kernels: .optimized, threads: 1)
    }

    static func isLayerNorm(_ s: PlannedStep) -> Bool { if case .layerNorm = s { true } else { false } }
    static func isNone(_ s: PlannedStep) -> Bool { if case .none = s { true } else { false } }

    /// Rows × channels with channel tails (not a multiple of 8), one row, C = 2 and C = 64.
    @Test(arguments: [(97, 64), (1, 2), (5, 13), (33, 8), (4, 100), (16, 7)])
    func fusesAndMatchesReference(_ size: (Int, Int)) throws {
        let (rows, C) = size
        for v in [Variant(beta: false, swapped: false), Variant(beta: false, swapped: true), Variant(beta: true, swapped: false), Variant(beta: true, swapped: true)] {
            for residual in [false, true] {
                let (graph, first) = try Self.layerNormGraph(rows: rows, channels: C, v, residual: residual)
                let fusion = LayerNormFusion(graph: graph)
                #expect(fusion.matches[first]?.nodes == first...(first + 9), "\(v) \(size)")
                #expect((fusion.matches[first]?.beta != nil) == v.beta)
                let what = "\(rows)×\(C), \(v), residual \(residual)"
                let session = try Self.expectBitwise(graph, what)
                #expect(Self.isLayerNorm(session.plannedSteps[first]), "\(what): not fused")
                #expect((first + 1...first + 9).allSatisfy { Self.isNone(session.plannedSteps[$0]) }, "\(what): nodes still run")
            }
        }
    }

    /// Every level's kernel (`ISAKernelSet.layerNorm`, not just the active one) bitwise equal to
    /// the reference kernels running the ten nodes, in place and split into row ranges.
    @Test(arguments: KernelLevels.runnable) func everyLevelMatchesReferenceNodes(level: ISALevel) throws {
        let K = try KernelLevels.kernels(for: level)
        var rng = SeededRandom(seed: 0x1A7E_0003)
        for (rows, C) in [(97, 64), (3, 2), (9, 13), (6, 40), (5, 100), (7, 7), (4, 17)] {
            for beta in [false, true] {
                let (graph, _) = try Self.layerNormGraph(rows: rows, channels: C, Variant(beta: beta, swapped: false), residual: false)
                let n = rows * C
                let a = (0..<n).map { _ in Float(rng.unit() * 6 - 1.5) }, b = (0..<n).map { _ in Float(rng.unit() * 2 - 1) }
                let reference = try Model(graph: graph).run([a, b], kernels: .reference)[0]
                func constant(_ name: String) -> [Float] {
                    graph.tensors.first { $0.name == name }.flatMap { $0.constant }.map { graph.constants[$0].values } ?? []
                }
                let gamma = constant("gamma"), betaValues = constant("beta"), eps = constant("eps")
                #expect(gamma.count == C && eps.count == 1 && betaValues.count == (beta ? C : 0))
                var x = zip(a, b).map { $0 + $1 }  // the graph's first node
                let split = rows / 3
                x.withUnsafeMutableBufferPointer { xb in
                    gamma.withUnsafeBufferPointer { g in
                        betaValues.withUnsafeBufferPointer { bv in
                            for range in [split..<rows, 0..<split] {
                                K.layerNorm(
                                    input: xb.baseAddress!, output: xb.baseAddress!, channels: C, gamma: g.baseAddress!,
                                    beta: beta ? bv.baseAddress! : nil, epsilon: eps[0], rows: range)
                            }
                        }
                    }
                }
                PlannedStepTestKit.expectBitwise(x, reference, "\(level) \(rows)×\(C) β \(beta), in place, split")
            }
        }
    }

    /// Not fused (and still right): a γ that is an input, an intermediate that is a graph output,
    /// a MEAN over another axis.
    @Test func patternsThatMustRunAsWritten() throws {
        let plain = Variant(beta: false, swapped: false)
        let (inputGamma, _) = try Self.layerNormGraph(rows: 6, channels: 16, plain, residual: false, gammaConstant: false)
        let (exposedMean, _) = try Self.layerNormGraph(rows: 6, channels: 16, plain, residual: true, extraOutput: true)
        for (graph, what) in [(inputGamma, "γ an input"), (exposedMean, "mean a graph output")] {
            #expect(LayerNormFusion(graph: graph).matches.isEmpty, "\(what)")
            let session = try Self.expectBitwise(graph, what)
            #expect(!session.plannedSteps.contains(where: Self.isLayerNorm), "\(what)")
        }
        // The same ten nodes with the first MEAN over the rows axis.
        let (rowsMean, _) = try Self.layerNormGraph(rows: 6, channels: 16, plain, residual: false, firstMeanAxis: 2)
        #expect(LayerNormFusion(graph: rowsMean).matches.isEmpty, "MEAN over rows")
        try Self.expectBitwise(rowsMean, "MEAN over rows")
    }

    /// face_blendshapes (MLP-Mixer) normalises its tokens with this pattern eight times.
    @Test func blendshapesRunEightFusedLayerNorms() throws {
        let session = try BundledModel.faceBlendshapes.load().makeSession(kernels: .optimized, threads: 1)
        #expect(session.plannedSteps.filter(Self.isLayerNorm).count == 8)
    }
}
