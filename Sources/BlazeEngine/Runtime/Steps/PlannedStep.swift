/// One step of a `LoweredGraph` bound for the optimised kernel set: pointers bound to the arena and
/// the weights, geometry resolved, the work split decided. Built once per session; `execute` then
/// allocates nothing.
///
/// A kernel of a level (`ISAKernelSet`, Sources/BlazeKernels) is called from its case here and
/// nowhere else.
enum PlannedStep {
    /// Nothing to do: a RESHAPE whose output shares its input's memory, or a node another step
    /// does the work of.
    case none
    /// A plain copy of `count` floats (a RESHAPE that could not alias, e.g. of a constant).
    case copy(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>, count: Int)
    case gemm(GemmStep)
    case binary(BinaryStep)
    case unary(UnaryStep)
    case leakyRelu(LeakyReluStep)
    case pad(PadStep)
    case concatenation(ConcatenationStep)
    case depthToSpace(DepthToSpaceStep)
    case stridedCopy(StridedCopyStep)
    case reduce(ReduceStep)
    case transposeConv(TransposeConvStep)
    case gather(GatherStep)
    /// A tiny op whose reference kernel is also its optimised one (MediaPipe's face-attention ops,
    /// SOFTMAX of a classifier head).
    case referenceKernel(Session.Step)
    /// CONV_2D / FULLY_CONNECTED / DEPTHWISE_CONV_2D on the packed SIMD kernels (maybe fused).
    case packedConv(PackedConvStep)
    /// Pooling / RESIZE_BILINEAR on the SIMD row kernels.
    case simdRows(SIMDRowStep)
    /// Ten nodes of a layer normalisation as one step (see `LayerNormFusion`).
    case layerNorm(LayerNormStep)
    /// TRANSPOSE, pointwise CONV_2Ds, TRANSPOSE back [, ADD] as channel-major convs (see
    /// `ChannelMajorConvChains`).
    case channelMajorConvs(ChannelMajorConvChainStep)

    /// Runs the step; parallel parts go to `pool` (which runs them inline with one thread).
    func execute(_ pool: WorkerPool) {
        switch self {
        case .none: return
        case .copy(let from, let to, let count): to.update(from: from, count: count)
        case .gemm(let s): s.execute(pool)
        case .binary(let s): s.execute(pool)
        case .unary(let s): s.execute(pool)
        case .leakyRelu(let s): s.execute(pool)
        case .pad(let s): s.execute(pool)
        case .concatenation(let s): s.run()
        case .depthToSpace(let s): s.execute(pool)
        case .stridedCopy(let s): s.execute(pool)
        case .reduce(let s): s.run()
        case .gather(let s): s.run()
        case .transposeConv(let s): s.execute(pool)
        case .referenceKernel(let s): Executor.execute(s)
        case .packedConv(let s): s.execute(pool)
        case .simdRows(let s): s.execute(pool)
        case .layerNorm(let s): s.execute(pool)
        case .channelMajorConvs(let s): s.execute(pool)
        }
    }

    /// Prepares `op` on bound views. Shapes were validated with the graph, so errors here are
    /// programmer errors. `scratch` is the session's im2col buffer (see `scratchCount`).
    ///
    /// `fusion` (CONV_2D / DEPTHWISE_CONV_2D only) folds the following ADD / PRELU / RELU nodes into
    /// the kernel's epilogue; `out` is then the last fused node's output (see `FusionPlan`).
    /// `foldedPad` (same ops): `x[0]` is the unpadded source of a zero PAD the conv absorbs, or
    /// (`channelMajor`) the source of a TRANSPOSE a pointwise conv reads directly (see
    /// `PadFolding`). `kernels`: the model's cache of packed conv kernels and this node's index, so
    /// sessions share packed weights.
    static func make(
        _ op: Op, inputs x: [TensorView], output out: MutableTensorView,
        scratch: UnsafeMutablePointer<Float>?, threads: Int,
        fusion: ConvFusion? = nil, foldedPad: PadFolding.Fold? = nil,
        level: any ISAKernelSet.Type,
        kernels cache: (PackedKernelCache, node: Int)? = nil
    ) throws -> PlannedStep {
        /// The model's copy of a packed kernel (packed now if this is the first session to ask).
        func shared<K>(_ pack: () -> K) -> K {
            guard let (cache, node) = cache else { return pack() }
            return cache.kernel(PackedKernelCache.key(node: node, fusion: fusion, fold: foldedPad), make: pack)
        }
        let bias = x.count > 2 ? x[2].data : nil
        func folded(_ g: ConvGeometry) -> ConvGeometry {
            guard let f = foldedPad, !f.channelMajor else { return g }
            return g.foldingPad(top: f.top, left: f.left, source: x[0].shape)
        }
        switch op {
        case .conv2D(var p):
            if let a = fusion?.activation { p.activation = a }
            let g = folded(try p.geometry(input: foldedPad?.paddedShape ?? x[0].shape, filter: x[1].shape))
            let channelMajor = foldedPad?.channelMajor ?? false
            if fusion != nil || channelMajor || level.prefersPackedConv(g) {
                func pack() -> any ConvKernel {
                    level.conv(
                        params: p, geometry: g, filter: x[1].data, bias: bias, prelu: fusion?.prelu,
                        residualActivation: fusion?.residualActivation ?? .none,
                        residualChannels: fusion?.residualChannels, channelMajorInput: channelMajor)
                }
                let k = shared(pack)
                return .packedConv(
                    PackedConvStep(
                        .conv(k), input: x[0].data, output: out.data,
                        residual: fusion?.residual, threads: threads))
            }
            return .gemm(
                GemmStep(
                    conv: g, activation: p.activation, input: x[0].data, filter: x[1].data,
                    bias: bias, output: out.data, scratch: scratch, threads: threads))
        case .fullyConnected(let p):
            let O = x[1].shape[0], I = x[1].shape[1]
            if level.prefersPackedFullyConnected(rows: x[0].count / I, inputSize: I, outputSize: O) {
                let k = shared {
                    level.fullyConnected(
                        params: p, rows: x[0].count / I, inputSize: I, outputSize: O,
                        weights: x[1].data, bias: bias, backend: .automatic)
                }
                return .packedConv(PackedConvStep(.conv(k), input: x[0].data, output: out.data, residual: nil, threads: threads))
            }
            return .gemm(
                GemmStep(
                    fullyConnected: p.activation, input: x[0].data, inputCount: x[0].count, weights: x[1].data,
                    weightsShape: x[1].shape, bias: bias, output: out.data))
        case .depthwiseConv2D(var p):
            if let a = fusion?.activation { p.activation = a }
            let g = folded(try p.geometry(input: foldedPad?.paddedShape ?? x[0].shape, filter: x[1].shape))
            // Every level: the packed kernel is 3× faster than a row loop even without FMA.
            func pack() -> any DepthwiseKernel {
                level.depthwise(
                    params: p, geometry: g, filter: x[1].data, bias: bias, prelu: fusion?.prelu,
                    residualActivation: fusion?.residualActivation ?? .none)
            }
            let k = shared(pack)
            return .packedConv(
                PackedConvStep(
                    .depthwise(k), input: x[0].data, output: out.data,
                    residual: fusion?.residual, threads: threads))
        case .maxPool2D(let p), .averagePool2D(let p):
            let average: Bool
            if case .averagePool2D = op { average = true } else { average = false }
            let g = try p.geometry(input: x[0].shape)
            let k = level.pool(params: p, geometry: g, average: average)
            return .simdRows(SIMDRowStep(k, work: out.count * g.kernelH * g.kernelW, input: x[0].data, output: out.data, threads: threads))
        case .binary(let p):
            return .binary(BinaryStep(.binary(p.kind), activation: p.activation, a: x[0], b: x[1], output: out, threads: threads))
        case .prelu:
            return .binary(BinaryStep(.prelu, activation: .none, a: x[0], b: x[1], output: out, threads: threads))
        case .unary(let kind):
            return .unary(UnaryStep(kind, input: x[0].data, output: out.data, count: out.count, threads: threads))
        case .leakyRelu(let p):
            return .leakyRelu(LeakyReluStep(p, input: x[0].data, output: out.data, count: out.count, level: level, threads: threads))
        case .pad(let p):
            return .pad(PadStep(p, input: x[0], output: out, threads: threads))
        case .reshape:
            if UnsafePointer(out.data) == x[0].data { return .none }
            return .copy(from: x[0].data, to: out.data, count: out.count)
        case .concatenation(let p):
            return .concatenation(try ConcatenationStep(p, inputs: x, output: out))
        case .resizeBilinear(let p):
            let k = level.resizeBilinear(params: p, inputShape: x[0].shape)
            return .simdRows(SIMDRowStep(k, work: out.count * 4, input: x[0].data, output: out.data, threads: threads))
        case .depthToSpace(let p):
            return .depthToSpace(DepthToSpaceStep(p, input: x[0], output: out, threads: threads))
        case .reduce(let p):
            return .reduce(try ReduceStep(p, input: x[0], output: out))
        case .stridedSlice(let p):
            return .stridedCopy(try StridedCopyStep(slice: p, input: x[0], output: out, threads: threads))
        case .transpose(let p):
            return .stridedCopy(StridedCopyStep(transpose: p, input: x[0], output: out, threads: threads))
        case .transposeConv2D(let p):
            return .transposeConv(
                try TransposeConvStep(
                    p, input: x[0], filter: x[1], bias: x.count > 2 ? x[2] : nil,
                    output: out, threads: threads))
        case .gather(let p):
            return .gather(try GatherStep(p, input: x[0], output: out))
        case .landmarksToTransformMatrix, .transformTensorBilinear, .transformLandmarks, .softmax:
            return .referenceKernel(Session.Step(op: op, inputs: x, output: out))
        }
    }

    /// Floats of im2col scratch `op` needs.
    static func scratchCount(_ op: Op, inputs: [[Int]]) -> Int {
        guard case .conv2D(let p) = op, let g = try? p.geometry(input: inputs[0], filter: inputs[1]) else { return 0 }
        return GemmStep.scratchCount(g)
    }
}
