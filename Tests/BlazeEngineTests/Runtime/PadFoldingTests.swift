import BlazeModels
import BlazeTestSupport
import Testing
@testable import BlazeEngine

/// Zero PADs folded away by the optimised plan: spatial PADs into the conv that reads them
/// (`PadFolding`), channel PADs into a fused conv's residual (`FusionPlan`). Each graph is run
/// through the optimised session and the reference kernels (which run every PAD as written).
@Suite struct PadFoldingTests {
    /// A small graph builder: tensors by name, constants filled from a seeded generator.
    struct Builder {
        var tensors: [TensorDescriptor] = []
        var constants: [Constant] = []
        var nodes: [Node] = []
        var rng = SeededRandom(seed: 0x5EED_0F0D)

        mutating func tensor(_ name: String, _ shape: [Int]) -> Int {
            tensors.append(TensorDescriptor(name: name, shape: shape))
            return tensors.count - 1
        }

        mutating func constant(_ name: String, _ shape: [Int]) -> Int {
            let values = (0..<shape.reduce(1, *)).map { _ in Float(rng.unit() * 2 - 1) }
            constants.append(Constant(shape: shape, values: values))
            tensors.append(TensorDescriptor(name: name, shape: shape, constant: constants.count - 1))
            return tensors.count - 1
        }

        mutating func node(_ op: Op, _ inputs: [Int], _ name: String) throws -> Int {
            let shape = try op.inferOutputShape(inputs.map { tensors[$0].shape })
            let out = tensor(name, shape)
            nodes.append(Node(op: op, inputs: inputs, outputs: [out]))
            return out
        }

        func graph(inputs: [Int], outputs: [Int]) throws -> Graph {
            let g = Graph(tensors: tensors, constants: constants, nodes: nodes, inputs: inputs, outputs: outputs)
            try g.validate()
            return g
        }
    }

    /// The graph's outputs from the reference kernels, and from the optimised session at 1, 2 and
    /// 3 threads, on seeded inputs `unit · scale + offset`.
    static func referenceAndOptimized(
        _ graph: Graph, seed: UInt64, scale: Double, offset: Double
    ) throws -> (reference: [[Float]], optimized: [(threads: Int, outputs: [[Float]])]) {
        let model = try Model(graph: graph)
        var rng = SeededRandom(seed: seed)
        let inputs = graph.inputs.map { t in
            (0..<graph.tensors[t].shape.reduce(1, *)).map { _ in Float(rng.unit() * scale + offset) }
        }
        let reference = try model.run(inputs, kernels: .reference)
        let optimized = try (1...3).map { (threads: Int) -> (threads: Int, outputs: [[Float]]) in
            (threads, try model.makeSession(kernels: .optimized, threads: threads).run(inputs))
        }
        return (reference, optimized)
    }

    /// Optimised at 1–3 threads within 1e-5 (relative to max(1, max|ref|)) of the reference kernels.
    static func expectMatchesReference(_ graph: Graph, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (reference, runs) = try referenceAndOptimized(graph, seed: 0xFADE, scale: 2, offset: -1)
        for (threads, optimized) in runs {
            for (k, (a, r)) in zip(optimized, reference).enumerated() {
                let error = parityError(a, r)
                #expect(error <= 1e-5, "\(what) output \(k), \(threads) threads: max |Δ| / max(1, max|ref|) \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Indices of the nodes whose op `matches`, and those of them the optimised plan of `model`
    /// (1 thread) does not run (`.none` steps).
    static func unplannedNodes(_ model: Model, _ matches: (Op) -> Bool) -> (nodes: [Int], unplanned: [Int]) {
        let steps = model.makeSession(kernels: .optimized, threads: 1).plannedSteps
        let nodes = model.graph.nodes.indices.filter { matches(model.graph.nodes[$0].op) }
        return (nodes, nodes.filter { if case .none = steps[$0] { true } else { false } })
    }

    /// Every PAD → conv shape the face detector uses and more: asymmetric pads, strides 1 and 2,
    /// 3×3 and 5×5, depthwise and full convs, odd sizes, pads larger than the kernel reach.
    @Test(arguments: [
        // (H, W, C, pads [top, bottom, left, right], kernel, stride, depthwise)
        (24, 24, 8, [1, 1, 1, 1], 3, 1, true),
        (48, 48, 4, [0, 2, 0, 2], 3, 2, true),
        (13, 11, 19, [2, 2, 2, 2], 5, 1, true),
        (9, 14, 33, [1, 2, 0, 1], 5, 2, true),
        (17, 15, 3, [1, 1, 1, 1], 3, 2, false),
        (10, 12, 20, [0, 1, 2, 0], 3, 1, false),
        (7, 9, 5, [3, 0, 0, 3], 3, 1, true)
    ])
    func spatialPadFoldsIntoConv(_ c: (Int, Int, Int, [Int], Int, Int, Bool)) throws {
        let (H, W, C, pads, k, s, depthwise) = c
        var b = Builder()
        let x = b.tensor("x", [1, H, W, C])
        let padded = try b.node(.pad(PadParams(paddings: [[0, 0], [pads[0], pads[1]], [pads[2], pads[3]], [0, 0]])), [x], "padded")
        let y: Int
        if depthwise {
            let f = b.constant("f", [1, k, k, C]), bias = b.constant("bias", [C])
            y = try b.node(
                .depthwiseConv2D(DepthwiseConv2DParams(strideH: s, strideW: s, padding: .valid, activation: .relu)),
                [padded, f, bias], "y")
        } else {
            let f = b.constant("f", [6, k, k, C]), bias = b.constant("bias", [6])
            y = try b.node(.conv2D(Conv2DParams(strideH: s, strideW: s, padding: .valid)), [padded, f, bias], "y")
        }
        let graph = try b.graph(inputs: [x], outputs: [y])
        let folding = PadFolding(graph: graph)
        #expect(folding.skipped == [0])
        #expect(folding.folds[1] == PadFolding.Fold(source: x, top: pads[0], left: pads[2], paddedShape: b.tensors[padded].shape))
        try Self.expectMatchesReference(graph, "\(c)")
        // The PAD step is gone from the optimised plan.
        let session = try Model(graph: graph).makeSession(kernels: .optimized, threads: 1)
        if case .none = session.plannedSteps[0] {} else { Issue.record("PAD still planned for \(c)") }
    }

    /// The source of a folded PAD stays alive until its conv: an op between them must not reuse its
    /// memory. Here the PAD comes first, then a large unrelated op that could take x's memory.
    @Test func foldedSourceOutlivesOpsBetweenPadAndConv() throws {
        var b = Builder()
        let x = b.tensor("x", [1, 8, 8, 4])
        let other = b.tensor("other", [1, 8, 8, 4])
        let padded = try b.node(.pad(PadParams(paddings: [[0, 0], [1, 1], [1, 1], [0, 0]])), [x], "padded")
        let z = try b.node(.unary(.neg), [other], "z")
        let f = b.constant("f", [1, 3, 3, 4])
        let y = try b.node(.depthwiseConv2D(DepthwiseConv2DParams(padding: .valid)), [padded, f], "y")
        let sum = try b.node(.binary(BinaryParams(.add)), [y, z], "sum")
        let graph = try b.graph(inputs: [x, other], outputs: [sum])
        let folding = PadFolding(graph: graph)
        let plan = ArenaPlan(graph: graph, extendedReads: folding.extendedReads)
        #expect(plan.last[x] >= 2)
        ArenaPlanTests.expectNoLiveOverlap(graph, plan, "pad → neg → depthwise")
        try Self.expectMatchesReference(graph, "pad → neg → depthwise")
    }

    /// Not folded: a PAD with a value, a channel pad before a conv, a PAD read twice.
    @Test func padsThatMustRunStay() throws {
        var b = Builder()
        let x = b.tensor("x", [1, 6, 6, 3])
        let valued = try b.node(.pad(PadParams(paddings: [[0, 0], [1, 1], [1, 1], [0, 0]], value: 0.5)), [x], "valued")
        let f = b.constant("f", [1, 3, 3, 3])
        let y1 = try b.node(.depthwiseConv2D(DepthwiseConv2DParams(padding: .valid)), [valued, f], "y1")
        let channels = try b.node(.pad(PadParams(paddings: [[0, 0], [0, 0], [0, 0], [0, 1]])), [x], "channels")
        let f4 = b.constant("f4", [2, 1, 1, 4])
        let y2 = try b.node(.conv2D(Conv2DParams(padding: .valid)), [channels, f4], "y2")
        let twice = try b.node(.pad(PadParams(paddings: [[0, 0], [1, 1], [1, 1], [0, 0]])), [x], "twice")
        let y3 = try b.node(.depthwiseConv2D(DepthwiseConv2DParams(padding: .valid)), [twice, f], "y3")
        let graph = try b.graph(inputs: [x], outputs: [y1, y2, y3, twice])
        let folding = PadFolding(graph: graph)
        #expect(folding.skipped.isEmpty)
        try Self.expectMatchesReference(graph, "unfoldable pads")
    }

    /// conv → PAD(x, channels) → ADD → RELU, BlazeFace's channel-growing shortcut: one fused step
    /// whose residual is x with fewer channels.
    @Test(arguments: [(8, 24, 28), (5, 28, 32), (7, 42, 48), (3, 3, 20), (6, 16, 17)])
    func channelPadResidualFusesIntoConv(_ c: (Int, Int, Int)) throws {
        let (S, C, O) = c
        var b = Builder()
        let x = b.tensor("x", [1, S, S, C])
        let relu0 = try b.node(.unary(.relu), [x], "block_in")
        let f = b.constant("f", [O, 1, 1, C]), bias = b.constant("bias", [O])
        let conv = try b.node(.conv2D(Conv2DParams(padding: .valid)), [relu0, f, bias], "conv")
        let padded = try b.node(.pad(PadParams(paddings: [[0, 0], [0, 0], [0, 0], [0, O - C]])), [relu0], "padded")
        let sum = try b.node(.binary(BinaryParams(.add)), [padded, conv], "sum")
        let out = try b.node(.unary(.relu), [sum], "out")
        let graph = try b.graph(inputs: [x], outputs: [out])
        try Self.expectMatchesReference(graph, "channel pad \(c)")
        let session = try Model(graph: graph).makeSession(kernels: .optimized, threads: 1)
        let none = session.plannedSteps.indices.filter { if case .none = session.plannedSteps[$0] { true } else { false } }
        #expect(none == [2, 3, 4], "PAD, ADD and RELU fold into the conv (steps planned: \(session.plannedSteps))")
    }

    /// TRANSPOSE → pointwise CONV_2D where the source is the conv input stored channel-major: the
    /// conv reads the source (`Fold.channelMajor`), the TRANSPOSE step is gone. MLP-Mixer's
    /// `[1, 1, C, W]` → `[1, 1, W, C]` and NCHW → NHWC, with channel and pixel tails, with and
    /// without a fused residual ADD.
    @Test(arguments: [
        // (source shape, perm, output channels)
        ([1, 1, 97, 64], [0, 1, 3, 2], 384),
        ([1, 1, 13, 5], [0, 1, 3, 2], 17),
        ([1, 7, 3, 5], [0, 2, 3, 1], 9),
        ([1, 33, 1, 10], [0, 2, 3, 1], 70)
    ])
    func channelMajorTransposeFoldsIntoPointwiseConv(_ c: ([Int], [Int], Int)) throws {
        let (shape, perm, O) = c
        for residual in [false, true] {
            var b = Builder()
            let x = b.tensor("x", shape)
            let t = try b.node(.transpose(TransposeParams(perm: perm)), [x], "t")
            let C = b.tensors[t].shape[3]
            let f = b.constant("f", [O, 1, 1, C]), bias = b.constant("bias", [O])
            var y = try b.node(.conv2D(Conv2DParams(padding: .same)), [t, f, bias], "y")
            var inputs = [x]
            if residual {
                let r = b.tensor("r", b.tensors[y].shape)
                inputs.append(r)
                y = try b.node(.binary(BinaryParams(.add, activation: .relu)), [y, r], "sum")
            }
            let graph = try b.graph(inputs: inputs, outputs: [y])
            let folding = PadFolding(graph: graph)
            #expect(folding.skipped == [0])
            #expect(folding.folds[1]?.channelMajor == true && folding.folds[1]?.source == x)
            try Self.expectMatchesReference(graph, "\(c) residual \(residual)")
            let session = try Model(graph: graph).makeSession(kernels: .optimized, threads: 1)
            if case .none = session.plannedSteps[0] {} else { Issue.record("TRANSPOSE still planned for \(c)") }
        }
    }

    /// Not folded: a transpose that is not channel-major (H ↔ W), one read twice, one before a 3×3 conv.
    @Test func transposesThatMustRunStay() throws {
        var b = Builder()
        let x = b.tensor("x", [1, 4, 6, 8])
        let swapped = try b.node(.transpose(TransposeParams(perm: [0, 2, 1, 3])), [x], "swapped")
        let f = b.constant("f", [5, 1, 1, 8])
        let y1 = try b.node(.conv2D(Conv2DParams(padding: .same)), [swapped, f], "y1")
        let cm = b.tensor("cm", [1, 1, 8, 6])
        let twice = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [cm], "twice")
        let y2 = try b.node(.conv2D(Conv2DParams(padding: .same)), [twice, f], "y2")
        let f3 = b.constant("f3", [5, 3, 3, 8])
        let cm3 = b.tensor("cm3", [1, 1, 8, 6])
        let t3 = try b.node(.transpose(TransposeParams(perm: [0, 1, 3, 2])), [cm3], "t3")
        let y3 = try b.node(.conv2D(Conv2DParams(padding: .same)), [t3, f3], "y3")
        let graph = try b.graph(inputs: [x, cm, cm3], outputs: [y1, y2, y3, twice])
        #expect(PadFolding(graph: graph).skipped.isEmpty)
        try Self.expectMatchesReference(graph, "unfoldable transposes")
    }

    /// face_blendshapes transposes its tensors before 6 of its 1×1 convs (the two of its input
    /// embedding and the first of each of its 4 token-mixing MLPs): those 6 TRANSPOSEs fold into
    /// the conv; the 4 after the MLPs still run — unless the level runs the token-mixing MLPs as
    /// channel-major chains (`ChannelMajorConvChains`), which drop all 8 of theirs.
    @Test func blendshapesTokenMixingReadsTokensInPlace() throws {
        let model = try BundledModel.faceBlendshapes.load()
        let (transposes, folded) = Self.unplannedNodes(model) { if case .transpose = $0 { true } else { false } }
        let expected = model.levelKernels.prefersChannelMajorConv ? 10 : 6
        #expect(transposes.count == 10 && folded.count == expected, "folded TRANSPOSEs \(folded) of \(transposes)")
    }

    /// The bundled BlazeFace nets lose every PAD in the optimised plan.
    @Test func faceDetectorsRunNoPad() throws {
        for model in [BundledModel.faceDetectionShortRange, .faceDetectionFullRangeSparse] {
            let (pads, folded) = Self.unplannedNodes(try model.load()) { if case .pad = $0 { true } else { false } }
            #expect(!pads.isEmpty)
            for i in pads where !folded.contains(i) { Issue.record("\(model.rawValue): PAD \(i) still runs") }
        }
    }
}
