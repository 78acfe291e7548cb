/// Every operation the engine can run: one enum, parameter payloads, one dispatch place
/// (`Executor.execute`). TFLite semantics throughout; activations are NHWC float32.
///
/// Inputs per case (tensor indices in `Node.inputs`, in this order):
/// - `conv2D`: x `[N,H,W,C]`, filter OHWI `[O,KH,KW,C]`, optional bias `[O]`.
/// - `depthwiseConv2D`: x `[N,H,W,C]`, filter 1HWO `[1,KH,KW,C·M]`, optional bias `[C·M]`.
/// - `fullyConnected`: x (flattened to `[count/I, I]`), weights `[O,I]`, optional bias `[O]`.
/// - `binary`: a, b (NumPy broadcasting).
/// - `prelu`: x, alpha (alpha broadcast against x).
/// - `concatenation`: any number ≥ 1 of tensors of equal rank.
/// - `transposeConv2D`: x `[N,H,W,C]`, filter OHWI `[O,KH,KW,C]`, optional bias `[O]`.
/// - `transformTensorBilinear`: x `[1,H,W,C]`, matrix `[1,4,4]`.
/// - `transformLandmarks`: landmarks `[1,N,2|3]`, matrix `[1,4,4]`.
/// - `gather`: x only (its indices are a parameter, constant in every model we read).
/// - everything else: exactly one input.
/// Every op has exactly one output.
public enum Op: Sendable, Equatable {
    case conv2D(Conv2DParams)
    case depthwiseConv2D(DepthwiseConv2DParams)
    case fullyConnected(FullyConnectedParams)
    case maxPool2D(Pool2DParams)
    case averagePool2D(Pool2DParams)
    case binary(BinaryParams)
    case unary(UnaryKind)
    case prelu
    case pad(PadParams)
    case reshape(ReshapeParams)
    case concatenation(ConcatenationParams)
    case resizeBilinear(ResizeBilinearParams)
    case depthToSpace(DepthToSpaceParams)
    case reduce(ReduceParams)
    case stridedSlice(StridedSliceParams)
    case transpose(TransposeParams)
    /// MediaPipe's `Convolution2DTransposeBias` (see `TransposeConv2DParams`).
    case transposeConv2D(TransposeConv2DParams)
    /// MediaPipe's `Landmarks2TransformMatrix` v2 (see `LandmarksToTransformMatrixParams`).
    case landmarksToTransformMatrix(LandmarksToTransformMatrixParams)
    /// MediaPipe's `TransformTensorBilinear` v2 (see `TransformTensorBilinearParams`).
    case transformTensorBilinear(TransformTensorBilinearParams)
    /// MediaPipe's `TransformLandmarks` v2 (see `TransformLandmarksShape`).
    case transformLandmarks
    /// SOFTMAX over the last axis (see `SoftmaxParams`).
    case softmax(SoftmaxParams)
    /// GATHER of constant indices along one axis (see `GatherParams`).
    case gather(GatherParams)
    /// LEAKY_RELU with one scalar slope (see `LeakyReluParams`).
    case leakyRelu(LeakyReluParams)

    /// A short stable name for inspection and errors (`CONV_2D`, `ADD`, …), close to TFLite's.
    public var name: String {
        switch self {
        case .conv2D: return "CONV_2D"
        case .depthwiseConv2D: return "DEPTHWISE_CONV_2D"
        case .fullyConnected: return "FULLY_CONNECTED"
        case .maxPool2D: return "MAX_POOL_2D"
        case .averagePool2D: return "AVERAGE_POOL_2D"
        case .binary(let p): return p.kind.name
        case .unary(let k): return k.name
        case .prelu: return "PRELU"
        case .pad: return "PAD"
        case .reshape: return "RESHAPE"
        case .concatenation: return "CONCATENATION"
        case .resizeBilinear: return "RESIZE_BILINEAR"
        case .depthToSpace: return "DEPTH_TO_SPACE"
        case .reduce(let p): return p.kind.name
        case .stridedSlice: return "STRIDED_SLICE"
        case .transpose: return "TRANSPOSE"
        case .transposeConv2D: return "TRANSPOSE_CONV_BIAS"
        case .landmarksToTransformMatrix: return "LANDMARKS_TO_TRANSFORM_MATRIX"
        case .transformTensorBilinear: return "TRANSFORM_TENSOR_BILINEAR"
        case .transformLandmarks: return "TRANSFORM_LANDMARKS"
        case .softmax: return "SOFTMAX"
        case .gather: return "GATHER"
        case .leakyRelu: return "LEAKY_RELU"
        }
    }

    /// Allowed input counts.
    public var inputArity: ClosedRange<Int> {
        switch self {
        case .conv2D, .depthwiseConv2D, .fullyConnected, .transposeConv2D: return 2...3
        case .binary, .prelu, .transformTensorBilinear, .transformLandmarks: return 2...2
        case .concatenation: return 1...4096
        default: return 1...1
        }
    }
}

/// Fused activation applied to an op's output: the subset of TFLite's `ActivationFunctionType`
/// the engine runs. The raw values are the `.bkm` format's own codes, not TFLite's: TFLite numbers
/// RELU_N1_TO_1 2 and RELU6 3, here `relu6` is 2 and `reluMinus1To1` 3 (the converter maps them).
public enum Activation: UInt8, Sendable, Equatable, CaseIterable {
    case none = 0, relu = 1, relu6 = 2, reluMinus1To1 = 3

    /// The clamp interval, the one definition every kernel uses (±infinity: no bound).
    @inline(__always)
    public var range: (lo: Float, hi: Float) {
        switch self {
        case .none: return (-.infinity, .infinity)
        case .relu: return (0, .infinity)
        case .relu6: return (0, 6)
        case .reluMinus1To1: return (-1, 1)
        }
    }

    /// `v` clamped to `lo...hi` with TFLite's semantics: NaN stays NaN (both compares are false).
    @inline(__always)
    public static func clamp(_ v: Float, _ lo: Float, _ hi: Float) -> Float { v < lo ? lo : (v > hi ? hi : v) }

    @inline(__always)
    public func apply(_ v: Float) -> Float {
        let r = range
        return Activation.clamp(v, r.lo, r.hi)
    }
}

/// Spatial padding (TFLite): SAME puts the extra pixel of an odd total at the end.
public enum Padding: UInt8, Sendable, Equatable, CaseIterable {
    case same = 0, valid = 1

    /// Output size and leading pad for one spatial dimension.
    public func resolve(input: Int, kernel: Int, stride: Int, dilation: Int) -> (output: Int, padBefore: Int) {
        let effective = (kernel - 1) * dilation + 1
        switch self {
        case .same:
            let out = (input + stride - 1) / stride
            let total = max((out - 1) * stride + effective - input, 0)
            return (out, total / 2)
        case .valid:
            let out = (input - effective + stride) / stride
            return (max(out, 0), 0)
        }
    }
}

public enum UnaryKind: UInt8, Sendable, Equatable, CaseIterable {
    case relu = 0, relu6 = 1, logistic = 2, neg = 3, sqrt = 4, rsqrt = 5, tanh = 6, abs = 7, exp = 8, reluMinus1To1 = 9
    /// `x · min(max(x + 3, 0), 6) / 6` (TFLite HARD_SWISH).
    case hardSwish = 10

    public var name: String {
        switch self {
        case .relu: return "RELU"
        case .relu6: return "RELU6"
        case .logistic: return "LOGISTIC"
        case .neg: return "NEG"
        case .sqrt: return "SQRT"
        case .rsqrt: return "RSQRT"
        case .tanh: return "TANH"
        case .abs: return "ABS"
        case .exp: return "EXP"
        case .reluMinus1To1: return "RELU_N1_TO_1"
        case .hardSwish: return "HARD_SWISH"
        }
    }
}

public enum BinaryKind: UInt8, Sendable, Equatable, CaseIterable {
    case add = 0, sub = 1, mul = 2, div = 3, squaredDifference = 4, maximum = 5, minimum = 6

    public var name: String {
        switch self {
        case .add: return "ADD"
        case .sub: return "SUB"
        case .mul: return "MUL"
        case .div: return "DIV"
        case .squaredDifference: return "SQUARED_DIFFERENCE"
        case .maximum: return "MAXIMUM"
        case .minimum: return "MINIMUM"
        }
    }
}

public enum ReduceKind: UInt8, Sendable, Equatable, CaseIterable {
    case mean = 0, sum = 1, max = 2, min = 3

    public var name: String {
        switch self {
        case .mean: return "MEAN"
        case .sum: return "SUM"
        case .max: return "REDUCE_MAX"
        case .min: return "REDUCE_MIN"
        }
    }
}

extension UnaryKind {
    /// The fused activation equal to this op, for the RELU family.
    public var clampActivation: Activation? {
        switch self {
        case .relu: return .relu
        case .relu6: return .relu6
        case .reluMinus1To1: return .reluMinus1To1
        default: return nil
        }
    }
}
