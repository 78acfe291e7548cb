import BlazeModels
import Testing
@testable import BlazeEngine

/// TRANSPOSE → pointwise CONV_2D… → TRANSPOSE [→ ADD] run as channel-major convs
/// (`ChannelMajorConvChains`), at the levels that prefer them: each graph runs through the
/// optimised session at 1–3 threads and through the reference kernels (which do every TRANSPOSE
/// as written), and the plan is checked to hold the chain step, or not, as expected.
@Suite struct ChannelMajorConvChainTests {
    typealias Builder = PadFoldingTests.Builder

    /// The chain steps of the optimised plan (1 thread): step index → stage count.
    static func chainSteps(_ graph: Graph) throws -> [Int: Int] {
        let session = try Model(graph: graph).makeSession(kernels: .optimized, threads: 1)
        var found: [Int: Int] = [:]
        for (i, step) in session.plannedSteps.enumerated() {
            if case .channelMajorConvs(let s) = step { found[i] = s.stages.count }
        }
        return found
    }

    static func prefersChains(_ graph: Graph) throws -> Bool { try Model(graph: graph).levelKernels.prefersChannelMajorConv }

    /// TRANSPOSE (channels ↔ width) → CONV_2D with a constant `filter` → TRANSPOSE `back`; the
    /// conv's output is a graph output too when `convIsOutput` (then it is read twice).
    static func transposeConvTranspose(
        input: [Int], filter: [Int], padding: Padding = .valid, back: [Int] = [0, 1, 3, 2], convIsOutput: Bool = false
    ) throws -> Graph {
        var b = Builder()
        let x = b.tensor("x", input)
        let t = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [x], "t")
        let f = b.constant("f", filter)
        let o = try b.node(.conv2D(Conv2DParams(padding: padding)), [t, f], "o")
        let z = try b.node(.transpose(TransposeParams(perm: back)), [o], "z")
        return try b.graph(inputs: [x], outputs: convIsOutput ? [z, o] : [z])
    }

    /// face_blendshapes' token mixing: [97, 64] tokens × channels, 97 → 384 (ReLU) → 97, residual ADD.
    @Test(arguments: [(97, 64, 384), (13, 40, 7), (5, 33, 50)])
    func tokenMixingWithResidual(_ c: (Int, Int, Int)) throws {
        let (tokens, channels, hidden) = c
        var b = Builder()
        let x = b.tensor("x", [1, 1, tokens, channels])
        let r = b.tensor("r", [1, 1, tokens, channels])
        let t = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [x], "t")
        let f1 = b.constant("f1", [hidden, 1, 1, tokens]), b1 = b.constant("b1", [hidden])
        let h = try b.node(.conv2D(Conv2DParams(padding: .valid, activation: .relu)), [t, f1, b1], "h")
        let f2 = b.constant("f2", [tokens, 1, 1, hidden]), b2 = b.constant("b2", [tokens])
        let o = try b.node(.conv2D(Conv2DParams(padding: .valid)), [h, f2, b2], "o")
        let z = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [o], "z")
        let y = try b.node(.binary(BinaryParams(.add, activation: .relu6)), [r, z], "y")
        let graph = try b.graph(inputs: [x, r], outputs: [y])

        let chains = ChannelMajorConvChains(graph: graph, minPixels: 16)
        #expect(
            chains.chains[4]
                == ChannelMajorConvChains.Chain(
                    source: x, convs: [1, 2], buffers: [h], residual: r, residualActivation: .relu6, output: y, nodes: 0...4))
        #expect(chains.skipped == [0, 1, 2, 3])
        try PadFoldingTests.expectMatchesReference(graph, "token mixing \(c)")
        let expected = try Self.prefersChains(graph) && channels >= 2 * Model(graph: graph).levelKernels.lanes ? [4: 2] : [:]
        #expect(try Self.chainSteps(graph) == expected)
    }

    /// One conv, no ADD, the second TRANSPOSE's output a graph output; and 3-D pixel axes
    /// (`[1, H, W, C]` ↔ `[1, C, H, W]`-style perms).
    @Test func singleConvAndSpatialPixels() throws {
        var b = Builder()
        let x = b.tensor("x", [1, 1, 20, 48])
        let t = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [x], "t")
        let f = b.constant("f", [9, 1, 1, 20])
        let o = try b.node(.conv2D(Conv2DParams(padding: .same, activation: .reluMinus1To1)), [t, f], "o")
        let z = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [o], "z")
        let graph = try b.graph(inputs: [x], outputs: [z])
        #expect(ChannelMajorConvChains(graph: graph, minPixels: 1).chains[2]?.convs == [1])
        try PadFoldingTests.expectMatchesReference(graph, "single conv")

        var s = Builder()
        let x4 = s.tensor("x4", [1, 6, 4, 8])  // stored [6, 32]: 6 channels of 4×8 pixels
        let t4 = try s.node(.transpose(TransposeParams(perm: [0, 2, 3, 1])), [x4], "t4")  // [1, 4, 8, 6]
        let f4 = s.constant("f4", [5, 1, 1, 6]), b4 = s.constant("b4", [5])
        let o4 = try s.node(.conv2D(Conv2DParams(padding: .valid)), [t4, f4, b4], "o4")  // [1, 4, 8, 5]
        let z4 = try s.node(.transpose(TransposeParams(perm: [0, 3, 1, 2])), [o4], "z4")  // [1, 5, 4, 8]
        let graph4 = try s.graph(inputs: [x4], outputs: [z4])
        #expect(ChannelMajorConvChains(graph: graph4, minPixels: 1).chains[2]?.convs == [1])
        try PadFoldingTests.expectMatchesReference(graph4, "spatial pixels")
    }

    /// Not chains: an intermediate read twice, a second TRANSPOSE that is not the inverse kind (H ↔ W),
    /// a 1×3 conv inside. And a chain whose residual is a conv output.
    @Test func chainsThatMustNotForm() throws {
        let cases = [
            (try Self.transposeConvTranspose(input: [1, 1, 12, 40], filter: [12, 1, 1, 12], convIsOutput: true), "intermediate read twice"),
            (try Self.transposeConvTranspose(input: [1, 3, 12, 40], filter: [12, 1, 1, 12], back: [0, 2, 1, 3]), "not channel-major"),
            (try Self.transposeConvTranspose(input: [1, 1, 12, 40], filter: [12, 1, 3, 12], padding: .same), "1×3 conv")
        ]
        for (graph, label) in cases {
            #expect(ChannelMajorConvChains(graph: graph, minPixels: 1).chains.isEmpty, "\(label)")
            try PadFoldingTests.expectMatchesReference(graph, label)
        }

        // The residual is a conv output (planned before the chain) and the ADD is the chain's.
        var a = Builder()
        let xa = a.tensor("xa", [1, 1, 16, 64]), ya = a.tensor("ya", [1, 1, 16, 64])
        let fr = a.constant("fr", [64, 1, 1, 64])
        let ra = try a.node(.conv2D(Conv2DParams(padding: .valid)), [ya, fr], "ra")
        let ta = try a.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [xa], "ta")
        let fa = a.constant("fa", [16, 1, 1, 16])
        let oa = try a.node(.conv2D(Conv2DParams(padding: .valid)), [ta, fa], "oa")
        let za = try a.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [oa], "za")
        let sum = try a.node(.binary(BinaryParams(.add)), [za, ra], "sum")
        let graphA = try a.graph(inputs: [xa, ya], outputs: [sum])
        #expect(ChannelMajorConvChains(graph: graphA, minPixels: 1).chains[4]?.residual == ra)
        try PadFoldingTests.expectMatchesReference(graphA, "ADD of a conv output after the chain")
    }

    /// A chain whose second TRANSPOSE feeds another pointwise conv (face_blendshapes' input
    /// embedding has this form, with too few pixels to chain): `PadFolding` must not fold that
    /// TRANSPOSE into the conv after it (the conv would read the chain's last conv output, which the
    /// chain never writes) — the optimised plan must still match the reference.
    @Test func chainFeedingAPointwiseConv() throws {
        var b = Builder()
        let x = b.tensor("x", [1, 1, 24, 48])  // [K = 24, P = 48]
        let t = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [x], "t")
        let f1 = b.constant("f1", [30, 1, 1, 24]), b1 = b.constant("b1", [30])
        let o = try b.node(.conv2D(Conv2DParams(padding: .valid, activation: .relu)), [t, f1, b1], "o")
        let z = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [o], "z")  // [1, 1, 30, 48]
        let f2 = b.constant("f2", [16, 1, 1, 48])
        let y = try b.node(.conv2D(Conv2DParams(padding: .valid)), [z, f2], "y")
        let graph = try b.graph(inputs: [x], outputs: [y])
        #expect(ChannelMajorConvChains(graph: graph, minPixels: 16).chains[2]?.output == z)
        #expect(PadFolding(graph: graph).folds[3]?.channelMajor == true)  // what the exclusion prevents
        var claims = NodeClaims(nodeCount: graph.nodes.count)
        claims.claim(0...2)
        #expect(PadFolding(graph: graph, claims: &claims).folds.isEmpty)
        try PadFoldingTests.expectMatchesReference(graph, "chain feeding a pointwise conv")
        let expected = try Self.prefersChains(graph) && 48 >= 2 * Model(graph: graph).levelKernels.lanes ? [2: 1] : [:]
        #expect(try Self.chainSteps(graph) == expected)
    }

    /// face_blendshapes: its four token-mixing MLPs become chain steps (with their residual ADDs) at
    /// the levels that prefer them; the input embedding's two pixels stay a folded conv.
    @Test func blendshapesTokenMixing() throws {
        let model = try BundledModel.faceBlendshapes.load()
        let steps = model.makeSession(kernels: .optimized, threads: 1).plannedSteps
        let chains = steps.compactMap { if case .channelMajorConvs(let s) = $0 { s.stages.count } else { nil } }
        #expect(chains == (model.levelKernels.prefersChannelMajorConv ? [2, 2, 2, 2] : []))
    }
}
