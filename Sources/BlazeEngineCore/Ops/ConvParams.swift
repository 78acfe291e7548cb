/// CONV_2D parameters. Filter layout OHWI `[O,KH,KW,C]`.
public struct Conv2DParams: Sendable, Equatable {
    public var strideH: Int, strideW: Int
    public var dilationH: Int, dilationW: Int
    public var padding: Padding
    public var activation: Activation

    public init(
        strideH: Int = 1, strideW: Int = 1, dilationH: Int = 1, dilationW: Int = 1,
        padding: Padding, activation: Activation = .none
    ) {
        self.strideH = strideH; self.strideW = strideW
        self.dilationH = dilationH; self.dilationW = dilationW
        self.padding = padding; self.activation = activation
    }

    /// Output `[N,OH,OW,O]` and leading pads, validated against input and filter shapes.
    public func geometry(input: [Int], filter: [Int]) throws -> ConvGeometry {
        guard input.count == 4, filter.count == 4 else {
            throw BlazeError(.shapeMismatch, "CONV_2D expects rank-4 input and filter, got \(ShapeMath.describe(input)) and \(ShapeMath.describe(filter))")
        }
        guard filter[3] == input[3] else {
            throw BlazeError(.shapeMismatch, "CONV_2D filter has \(filter[3]) input channels, input has \(input[3])")
        }
        return try ConvGeometry.make(
            input: input, kernelH: filter[1], kernelW: filter[2], outChannels: filter[0],
            strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW,
            padding: padding, op: "CONV_2D")
    }
}

/// DEPTHWISE_CONV_2D parameters. Filter layout 1HWO `[1,KH,KW,C·multiplier]`.
public struct DepthwiseConv2DParams: Sendable, Equatable {
    public var strideH: Int, strideW: Int
    public var dilationH: Int, dilationW: Int
    public var depthMultiplier: Int
    public var padding: Padding
    public var activation: Activation

    public init(
        strideH: Int = 1, strideW: Int = 1, dilationH: Int = 1, dilationW: Int = 1,
        depthMultiplier: Int = 1, padding: Padding, activation: Activation = .none
    ) {
        self.strideH = strideH; self.strideW = strideW
        self.dilationH = dilationH; self.dilationW = dilationW
        self.depthMultiplier = depthMultiplier
        self.padding = padding; self.activation = activation
    }

    public func geometry(input: [Int], filter: [Int]) throws -> ConvGeometry {
        guard input.count == 4, filter.count == 4, filter[0] == 1 else {
            throw BlazeError(.shapeMismatch, "DEPTHWISE_CONV_2D expects rank-4 input and [1,KH,KW,C·M] filter, got \(ShapeMath.describe(input)) and \(ShapeMath.describe(filter))")
        }
        guard depthMultiplier >= 1, filter[3] == input[3] * depthMultiplier else {
            throw BlazeError(.shapeMismatch, "DEPTHWISE_CONV_2D filter has \(filter[3]) channels, input \(input[3]) × multiplier \(depthMultiplier)")
        }
        return try ConvGeometry.make(
            input: input, kernelH: filter[1], kernelW: filter[2], outChannels: filter[3],
            strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW,
            padding: padding, op: "DEPTHWISE_CONV_2D")
    }
}

/// MAX_POOL_2D / AVERAGE_POOL_2D parameters.
public struct Pool2DParams: Sendable, Equatable {
    public var filterH: Int, filterW: Int
    public var strideH: Int, strideW: Int
    public var padding: Padding
    public var activation: Activation

    public init(filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: Padding, activation: Activation = .none) {
        self.filterH = filterH; self.filterW = filterW
        self.strideH = strideH; self.strideW = strideW
        self.padding = padding; self.activation = activation
    }

    public func geometry(input: [Int]) throws -> ConvGeometry {
        guard input.count == 4 else {
            throw BlazeError(.shapeMismatch, "POOL_2D expects a rank-4 input, got \(ShapeMath.describe(input))")
        }
        return try ConvGeometry.make(
            input: input, kernelH: filterH, kernelW: filterW, outChannels: input[3],
            strideH: strideH, strideW: strideW, dilationH: 1, dilationW: 1,
            padding: padding, op: "POOL_2D")
    }
}

/// Resolved spatial geometry of a windowed op (conv, depthwise, pool).
public struct ConvGeometry: Sendable, Equatable {
    public var batch: Int, inH: Int, inW: Int, inC: Int
    public var outH: Int, outW: Int, outC: Int
    public var kernelH: Int, kernelW: Int
    public var strideH: Int, strideW: Int
    public var dilationH: Int, dilationW: Int
    /// Leading (top/left) padding; the trailing padding is whatever remains (SAME pads more at the end).
    public var padTop: Int, padLeft: Int

    public var outputShape: [Int] { [batch, outH, outW, outC] }

    public init(
        batch: Int, inH: Int, inW: Int, inC: Int, outH: Int, outW: Int, outC: Int, kernelH: Int, kernelW: Int,
        strideH: Int, strideW: Int, dilationH: Int, dilationW: Int, padTop: Int, padLeft: Int
    ) {
        self.batch = batch; self.inH = inH; self.inW = inW; self.inC = inC
        self.outH = outH; self.outW = outW; self.outC = outC
        self.kernelH = kernelH; self.kernelW = kernelW
        self.strideH = strideH; self.strideW = strideW
        self.dilationH = dilationH; self.dilationW = dilationW
        self.padTop = padTop; self.padLeft = padLeft
    }

    package static func make(
        input: [Int], kernelH: Int, kernelW: Int, outChannels: Int,
        strideH: Int, strideW: Int, dilationH: Int, dilationW: Int,
        padding: Padding, op: String
    ) throws -> ConvGeometry {
        let limit = 1 << 16
        for (v, what) in [
            (kernelH, "kernel height"), (kernelW, "kernel width"), (strideH, "stride"), (strideW, "stride"),
            (dilationH, "dilation"), (dilationW, "dilation")
        ] where v < 1 || v > limit {
            throw BlazeError(.corruptModel, "\(op) has invalid \(what) \(v)")
        }
        guard input.allSatisfy({ $0 >= 1 && $0 <= limit * 16 }), outChannels >= 1, outChannels <= limit * 16 else {
            throw BlazeError(.shapeMismatch, "\(op) has invalid dims in input \(ShapeMath.describe(input))")
        }
        let h = padding.resolve(input: input[1], kernel: kernelH, stride: strideH, dilation: dilationH)
        let w = padding.resolve(input: input[2], kernel: kernelW, stride: strideW, dilation: dilationW)
        guard h.output >= 1, w.output >= 1 else {
            throw BlazeError(.shapeMismatch, "\(op) kernel \(kernelH)×\(kernelW) does not fit input \(ShapeMath.describe(input))")
        }
        return ConvGeometry(
            batch: input[0], inH: input[1], inW: input[2], inC: input[3],
            outH: h.output, outW: w.output, outC: outChannels,
            kernelH: kernelH, kernelW: kernelW, strideH: strideH, strideW: strideW,
            dilationH: dilationH, dilationW: dilationW, padTop: h.padBefore, padLeft: w.padBefore)
    }
}

/// FULLY_CONNECTED parameters. Weights `[O,I]`; the input is treated as `[count/I, I]`.
public struct FullyConnectedParams: Sendable, Equatable {
    public var activation: Activation
    /// TFLite `keep_num_dims`: output keeps the input's leading dims instead of `[rows, O]`.
    public var keepNumDims: Bool

    public init(activation: Activation = .none, keepNumDims: Bool = false) {
        self.activation = activation; self.keepNumDims = keepNumDims
    }

    public func outputShape(input: [Int], weights: [Int]) throws -> [Int] {
        guard weights.count == 2, weights[1] >= 1, let count = ShapeMath.elementCount(input), count % weights[1] == 0 else {
            throw BlazeError(.shapeMismatch, "FULLY_CONNECTED weights \(ShapeMath.describe(weights)) do not fit input \(ShapeMath.describe(input))")
        }
        if keepNumDims {
            guard let last = input.last, last == weights[1] else {
                throw BlazeError(.shapeMismatch, "FULLY_CONNECTED keep_num_dims needs input's last dim \(weights[1])")
            }
            return Array(input.dropLast()) + [weights[0]]
        }
        return [count / weights[1], weights[0]]
    }
}

extension ConvGeometry {
    /// The same conv computed straight on the unpadded `source` of a zero PAD that added `top` rows
    /// and `left` columns in front (and any number behind): taps that fall in the padding read zeros
    /// either way, and the output size is unchanged.
    package func foldingPad(top: Int, left: Int, source: [Int]) -> ConvGeometry {
        var g = self
        g.inH = source[1]; g.inW = source[2]
        g.padTop += top; g.padLeft += left
        return g
    }
}
