import BlazeEngine

/// One translation function per supported TFLite builtin (tract-style table). DEQUANTIZE and
/// DENSIFY are not here: the converter folds them into constants.
extension TFLiteConverter {
    static let translators: [BuiltinOperator: Translator] = [
        .conv2D: conv2D,
        .depthwiseConv2D: depthwiseConv2D,
        .fullyConnected: fullyConnected,
        .add: binary(.add, options: .add),
        .sub: binary(.sub, options: .sub),
        .mul: binary(.mul, options: .mul),
        .div: binary(.div, options: .div),
        .squaredDifference: binary(.squaredDifference, options: nil),
        .maximum: binary(.maximum, options: nil),
        .minimum: binary(.minimum, options: nil),
        .pad: pad,
        .padV2: pad,
        .maxPool2D: pool(max: true),
        .averagePool2D: pool(max: false),
        .relu: unary(.relu),
        .relu6: unary(.relu6),
        .reluN1To1: unary(.reluMinus1To1),
        .logistic: unary(.logistic),
        .tanh: unary(.tanh),
        .neg: unary(.neg),
        .sqrt: unary(.sqrt),
        .rsqrt: unary(.rsqrt),
        .abs: unary(.abs),
        .exp: unary(.exp),
        .hardSwish: unary(.hardSwish),
        .prelu: prelu,
        .leakyRelu: leakyRelu,
        .reshape: reshape,
        .concatenation: concatenation,
        .resizeBilinear: resizeBilinear,
        .depthToSpace: depthToSpace,
        .mean: reduce(.mean),
        .sum: reduce(.sum),
        .reduceMax: reduce(.max),
        .reduceMin: reduce(.min),
        .softmax: softmax,
        .gather: gather,
        .stridedSlice: stridedSlice,
        .transpose: transpose
    ]

    // MARK: Windowed ops

    @Sendable static func conv2D(_ c: inout TranslationContext) throws -> Op {
        typealias F = TFLiteField.Conv2D
        try c.expectInputs(2...3)
        let o = try c.options(.conv2D)
        let params = Conv2DParams(
            strideH: try o.int32(F.strideH), strideW: try o.int32(F.strideW),
            dilationH: try o.int32(F.dilationH, default: 1), dilationW: try o.int32(F.dilationW, default: 1),
            padding: try c.padding(o.int8(F.padding)), activation: try c.activation(o.int8(F.activation)))
        try c.data(0); try c.data(1); c.optionalData(2)
        return .conv2D(params)
    }

    @Sendable static func depthwiseConv2D(_ c: inout TranslationContext) throws -> Op {
        typealias F = TFLiteField.DepthwiseConv2D
        try c.expectInputs(2...3)
        let o = try c.options(.depthwiseConv2D)
        let input = try c.shape(0), filter = try c.shape(1)
        guard input.count == 4, filter.count == 4, input[3] >= 1, filter[3] % input[3] == 0 else {
            throw BlazeError(.shapeMismatch, "filter \(filter) does not fit input \(input)")
        }
        // The multiplier follows from the shapes (as in TFLite); the option, when set, must agree.
        let multiplier = filter[3] / input[3]
        let declared = try o.int32(F.depthMultiplier)
        guard declared == 0 || declared == multiplier else {
            throw BlazeError(.corruptModel, "depth_multiplier \(declared) disagrees with filter \(filter) and input \(input)")
        }
        let dilationH = try o.int32(F.dilationH, default: 1), dilationW = try o.int32(F.dilationW, default: 1)
        if multiplier > 1 && (dilationH > 1 || dilationW > 1) {
            throw BlazeError(.unsupported, "dilation \(dilationH)×\(dilationW) with depth multiplier \(multiplier) is not supported")
        }
        let params = DepthwiseConv2DParams(
            strideH: try o.int32(F.strideH), strideW: try o.int32(F.strideW),
            dilationH: dilationH, dilationW: dilationW, depthMultiplier: multiplier,
            padding: try c.padding(o.int8(F.padding)), activation: try c.activation(o.int8(F.activation)))
        try c.data(0); try c.data(1); c.optionalData(2)
        return .depthwiseConv2D(params)
    }

    @Sendable static func fullyConnected(_ c: inout TranslationContext) throws -> Op {
        typealias F = TFLiteField.FullyConnected
        try c.expectInputs(2...3)
        let o = try c.options(.fullyConnected)
        let format = try o.int8(F.weightsFormat)
        guard format == 0 else {
            throw BlazeError(.unsupported, "weights format \(format == 1 ? "SHUFFLED4x16INT8" : String(format)) is not supported")
        }
        let params = FullyConnectedParams(
            activation: try c.activation(o.int8(F.activation)),
            keepNumDims: try o.bool(F.keepNumDims))
        try c.data(0); try c.data(1); c.optionalData(2)
        return .fullyConnected(params)
    }

    static func pool(max: Bool) -> Translator {
        { c in
            typealias F = TFLiteField.Pool2D
            try c.expectInputs(1...1)
            let o = try c.options(.pool2D)
            let params = Pool2DParams(
                filterH: try o.int32(F.filterH), filterW: try o.int32(F.filterW),
                strideH: try o.int32(F.strideH), strideW: try o.int32(F.strideW),
                padding: try c.padding(o.int8(F.padding)), activation: try c.activation(o.int8(F.activation)))
            try c.data(0)
            return max ? .maxPool2D(params) : .averagePool2D(params)
        }
    }

    // MARK: Elementwise

    /// Binary op; `options` names the options table holding a fused activation (field 0), if the builtin has one.
    static func binary(_ kind: BinaryKind, options: BuiltinOptionsType?) -> Translator {
        { c in
            try c.expectInputs(2...2)
            var activation = Activation.none
            if let options {
                activation = try c.activation(c.options(options).int8(TFLiteField.Arithmetic.activation))
            }
            try c.data(0); try c.data(1)
            return .binary(BinaryParams(kind, activation: activation))
        }
    }

    static func unary(_ kind: UnaryKind) -> Translator {
        { c in
            try c.expectInputs(1...1)
            try c.data(0)
            return .unary(kind)
        }
    }

    @Sendable static func prelu(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(2...2)
        try c.data(0); try c.data(1)
        return .prelu
    }

    /// LEAKY_RELU: alpha from LeakyReluOptions, 0 when the options or the field are absent (the
    /// schema default, which TFLite uses too); a non-finite alpha is refused.
    @Sendable static func leakyRelu(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(1...1)
        let alpha = try c.options(.leakyRelu).finiteFloat32(TFLiteField.LeakyRelu.alpha, "alpha")
        try c.data(0)
        return .leakyRelu(LeakyReluParams(alpha: alpha))
    }

    // MARK: Shape and data movement

    /// PAD and PADV2: paddings `[rank, 2]` constant; PADV2's optional third input is the pad value.
    @Sendable static func pad(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(2...3)
        let rank = try c.shape(0).count
        let flat = try c.ints(1, "paddings")
        guard flat.count == 2 * rank else {
            throw BlazeError(.shapeMismatch, "paddings have \(flat.count) values for an input of rank \(rank)")
        }
        let value = c.optionalTensor(2) == nil ? Float(0) : try c.floatScalar(2, "constant value")
        try c.data(0)
        return .pad(PadParams(paddings: (0..<rank).map { [flat[2 * $0], flat[2 * $0 + 1]] }, value: value))
    }

    /// RESHAPE: the target shape comes from the constant second input, else `new_shape` in the
    /// options, else the declared output shape; one -1 is resolved from the input's element count.
    @Sendable static func reshape(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(1...2)
        let input = try c.shape(0)
        var shape: [Int]
        if c.optionalTensor(1) != nil {
            shape = try c.ints(1, "shape")
        } else if let s = try c.options(.reshape).ints(TFLiteField.Reshape.newShape) {
            shape = s
        } else {
            shape = try c.outputShape()
        }
        guard shape.count <= Graph.Limits.maxRank, let total = ShapeMath.elementCount(input) else {
            throw BlazeError(.shapeMismatch, "cannot reshape \(input) to \(shape)")
        }
        let unknown = shape.indices.filter { shape[$0] == -1 }
        if unknown.count == 1 {
            var known = 1
            for (i, d) in shape.enumerated() where i != unknown[0] {
                guard d >= 0 else { throw BlazeError(.shapeMismatch, "invalid shape \(shape)") }
                let (p, overflow) = known.multipliedReportingOverflow(by: d)
                guard !overflow else { throw BlazeError(.shapeMismatch, "invalid shape \(shape)") }
                known = p
            }
            guard known > 0, total % known == 0 else {
                throw BlazeError(.shapeMismatch, "cannot reshape \(input) to \(shape)")
            }
            shape[unknown[0]] = total / known
        } else if !unknown.isEmpty || shape.contains(where: { $0 < 0 }) {
            throw BlazeError(.shapeMismatch, "invalid shape \(shape)")
        }
        try c.data(0)
        return .reshape(ReshapeParams(shape: shape))
    }

    @Sendable static func concatenation(_ c: inout TranslationContext) throws -> Op {
        typealias F = TFLiteField.Concatenation
        try c.expectInputs(1...4096)
        let o = try c.options(.concatenation)
        let params = ConcatenationParams(axis: try o.int32(F.axis), activation: try c.activation(o.int8(F.activation)))
        for slot in 0..<c.op.inputs.count { try c.data(slot) }
        return .concatenation(params)
    }

    @Sendable static func resizeBilinear(_ c: inout TranslationContext) throws -> Op {
        typealias F = TFLiteField.ResizeBilinear
        try c.expectInputs(2...2)
        let o = try c.options(.resizeBilinear)
        let size = try c.ints(1, "size")
        guard size.count == 2 else { throw BlazeError(.shapeMismatch, "size has \(size.count) values, expected 2") }
        let alignCorners = try o.bool(F.alignCorners), halfPixel = try o.bool(F.halfPixelCenters)
        guard !(alignCorners && halfPixel) else {
            throw BlazeError(.unsupported, "align_corners together with half_pixel_centers is not supported")
        }
        try c.data(0)
        return .resizeBilinear(
            ResizeBilinearParams(
                height: size[0], width: size[1], alignCorners: alignCorners,
                halfPixelCenters: halfPixel))
    }

    @Sendable static func depthToSpace(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(1...1)
        let block = try c.options(.depthToSpace).int32(TFLiteField.DepthToSpace.blockSize)
        try c.data(0)
        return .depthToSpace(DepthToSpaceParams(blockSize: block))
    }

    static func reduce(_ kind: ReduceKind) -> Translator {
        { c in
            try c.expectInputs(2...2)
            let keepDims = try c.options(.reducer).bool(TFLiteField.Reducer.keepDims)
            let axes = try c.ints(1, "axes")
            try c.data(0)
            return .reduce(ReduceParams(kind, axes: axes, keepDims: keepDims))
        }
    }

    @Sendable static func stridedSlice(_ c: inout TranslationContext) throws -> Op {
        typealias F = TFLiteField.StridedSlice
        try c.expectInputs(3...4)
        let o = try c.options(.stridedSlice)
        let ellipsis = try o.int32(F.ellipsisMask), newAxis = try o.int32(F.newAxisMask)
        guard ellipsis == 0, newAxis == 0 else {
            throw BlazeError(.unsupported, "ellipsis_mask \(ellipsis) / new_axis_mask \(newAxis) are not supported")
        }
        let begin = try c.ints(1, "begin"), end = try c.ints(2, "end")
        let strides = c.optionalTensor(3) == nil ? Array(repeating: 1, count: begin.count) : try c.ints(3, "strides")
        try c.data(0)
        return .stridedSlice(
            StridedSliceParams(
                begin: begin, end: end, strides: strides,
                beginMask: try o.int32(F.beginMask), endMask: try o.int32(F.endMask),
                shrinkAxisMask: try o.int32(F.shrinkAxisMask), offset: try o.bool(F.offset)))
    }

    @Sendable static func softmax(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(1...1)
        let beta = try c.options(.softmax).finiteFloat32(TFLiteField.Softmax.beta, "beta")
        try c.data(0)
        return .softmax(SoftmaxParams(beta: beta))
    }

    /// GATHER with constant 1-D indices and `batch_dims` 0 (what MediaPipe's gesture embedder uses).
    @Sendable static func gather(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(2...2)
        let o = try c.options(.gather)
        let batchDims = try o.int32(TFLiteField.Gather.batchDims)
        guard batchDims == 0 else { throw BlazeError(.unsupported, "batch_dims \(batchDims) is not supported") }
        guard try c.shape(1).count == 1 else {
            throw BlazeError(.unsupported, "indices of shape \(try c.shape(1)) are not supported (only 1-D)")
        }
        let indices = try c.ints(1, "indices")
        try c.data(0)
        return .gather(GatherParams(axis: try o.int32(TFLiteField.Gather.axis), indices: indices))
    }

    @Sendable static func transpose(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(2...2)
        let perm = try c.ints(1, "perm")
        try c.data(0)
        return .transpose(TransposeParams(perm: perm))
    }
}
