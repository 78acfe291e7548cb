/// The subset of the TFLite schema (`tensorflow/lite/schema/schema.fbs`, version 3) that the
/// converter reads: enum values and table field ids.

/// A TFLite builtin operator code (`BuiltinOperator`). Unknown codes are kept as they are.
struct BuiltinOperator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    var rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }

    static let add = Self(rawValue: 0)
    static let averagePool2D = Self(rawValue: 1)
    static let concatenation = Self(rawValue: 2)
    static let conv2D = Self(rawValue: 3)
    static let depthwiseConv2D = Self(rawValue: 4)
    static let depthToSpace = Self(rawValue: 5)
    static let dequantize = Self(rawValue: 6)
    static let fullyConnected = Self(rawValue: 9)
    static let logistic = Self(rawValue: 14)
    static let maxPool2D = Self(rawValue: 17)
    static let mul = Self(rawValue: 18)
    static let relu = Self(rawValue: 19)
    static let reluN1To1 = Self(rawValue: 20)
    static let relu6 = Self(rawValue: 21)
    static let reshape = Self(rawValue: 22)
    static let resizeBilinear = Self(rawValue: 23)
    static let softmax = Self(rawValue: 25)
    static let tanh = Self(rawValue: 28)
    static let custom = Self(rawValue: 32)
    static let pad = Self(rawValue: 34)
    static let gather = Self(rawValue: 36)
    static let transpose = Self(rawValue: 39)
    static let mean = Self(rawValue: 40)
    static let sub = Self(rawValue: 41)
    static let div = Self(rawValue: 42)
    static let stridedSlice = Self(rawValue: 45)
    static let exp = Self(rawValue: 47)
    static let prelu = Self(rawValue: 54)
    static let maximum = Self(rawValue: 55)
    static let minimum = Self(rawValue: 57)
    static let neg = Self(rawValue: 59)
    static let padV2 = Self(rawValue: 60)
    static let sum = Self(rawValue: 74)
    static let sqrt = Self(rawValue: 75)
    static let rsqrt = Self(rawValue: 76)
    static let reduceMax = Self(rawValue: 82)
    static let unpack = Self(rawValue: 88)
    static let reduceMin = Self(rawValue: 89)
    static let leakyRelu = Self(rawValue: 98)
    static let squaredDifference = Self(rawValue: 99)
    static let abs = Self(rawValue: 101)
    static let hardSwish = Self(rawValue: 117)
    static let densify = Self(rawValue: 124)

    /// The schema's name (`CONV_2D`), or `BUILTIN_<code>` for codes this table does not know.
    var name: String {
        let i = Int(rawValue)
        return Self.names.indices.contains(i) ? Self.names[i] : "BUILTIN_\(rawValue)"
    }

    var description: String { name }

    /// Names of codes 0...208 (schema of TensorFlow 2.18), index = code.
    static let names: [String] = [
        "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE",
        "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D",
        "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU",
        "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
        "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD",
        "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN",
        "SUB", "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN",
        "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU",
        "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT",
        "SLICE", "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG",
        "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK",
        "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY",
        "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU",
        "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND",
        "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND",
        "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2",
        "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE",
        "BROADCAST_TO", "RFFT2D", "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND",
        "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE",
        "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL",
        "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
        "UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
        "STABLEHLO_LOGISTIC", "STABLEHLO_ADD", "STABLEHLO_DIVIDE", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM",
        "STABLEHLO_RESHAPE", "STABLEHLO_CLAMP", "STABLEHLO_CONCATENATE", "STABLEHLO_BROADCAST_IN_DIM",
        "STABLEHLO_CONVOLUTION", "STABLEHLO_SLICE", "STABLEHLO_CUSTOM_CALL", "STABLEHLO_REDUCE", "STABLEHLO_ABS",
        "STABLEHLO_AND", "STABLEHLO_COSINE", "STABLEHLO_EXPONENTIAL", "STABLEHLO_FLOOR", "STABLEHLO_LOG",
        "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE", "STABLEHLO_OR", "STABLEHLO_POWER", "STABLEHLO_REMAINDER",
        "STABLEHLO_RSQRT", "STABLEHLO_SELECT", "STABLEHLO_SUBTRACT", "STABLEHLO_TANH", "STABLEHLO_SCATTER",
        "STABLEHLO_COMPARE", "STABLEHLO_CONVERT", "STABLEHLO_DYNAMIC_SLICE", "STABLEHLO_DYNAMIC_UPDATE_SLICE",
        "STABLEHLO_PAD", "STABLEHLO_IOTA", "STABLEHLO_DOT_GENERAL", "STABLEHLO_REDUCE_WINDOW", "STABLEHLO_SORT",
        "STABLEHLO_WHILE", "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE", "DILATE", "STABLEHLO_RNG_BIT_GENERATOR",
        "REDUCE_WINDOW", "STABLEHLO_COMPOSITE", "STABLEHLO_SHIFT_LEFT", "STABLEHLO_CBRT"
    ]
}

/// `TFLiteTensorType`.
struct TFLiteTensorType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    var rawValue: Int8
    init(rawValue: Int8) { self.rawValue = rawValue }

    static let float32 = Self(rawValue: 0)
    static let float16 = Self(rawValue: 1)
    static let int32 = Self(rawValue: 2)
    static let uint8 = Self(rawValue: 3)
    static let int64 = Self(rawValue: 4)
    static let int8 = Self(rawValue: 9)

    private static let names = [
        "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64",
        "INT8", "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16",
        "INT4", "BFLOAT16"
    ]

    var name: String {
        let i = Int(rawValue)
        return Self.names.indices.contains(i) ? Self.names[i] : "TYPE_\(rawValue)"
    }

    var description: String { name }

    /// Bytes per element for the types whose data the converter reads.
    var byteSize: Int? {
        switch self {
        case .float32, .int32: return 4
        case .float16: return 2
        case .int64: return 8
        case .uint8, .int8: return 1
        default: return nil
        }
    }
}

/// `BuiltinOptions` union type tags.
enum BuiltinOptionsType: UInt8, Sendable {
    case conv2D = 1
    case depthwiseConv2D = 2
    case pool2D = 5
    case fullyConnected = 8
    case softmax = 9
    case concatenation = 10
    case add = 11
    case resizeBilinear = 15
    case reshape = 17
    case mul = 21
    case pad = 22
    case gather = 23
    case transpose = 26
    case reducer = 27
    case sub = 28
    case div = 29
    case stridedSlice = 32
    case exp = 33
    case dequantize = 38
    case maximumMinimum = 39
    case neg = 42
    case padV2 = 43
    case unpack = 64
    case leakyRelu = 75
    case squaredDifference = 76
    case abs = 78
    case depthToSpace = 94
    case densify = 99

    var name: String {
        switch self {
        case .conv2D: return "Conv2DOptions"
        case .depthwiseConv2D: return "DepthwiseConv2DOptions"
        case .pool2D: return "Pool2DOptions"
        case .fullyConnected: return "FullyConnectedOptions"
        case .softmax: return "SoftmaxOptions"
        case .concatenation: return "ConcatenationOptions"
        case .add: return "AddOptions"
        case .resizeBilinear: return "ResizeBilinearOptions"
        case .reshape: return "ReshapeOptions"
        case .mul: return "MulOptions"
        case .pad: return "PadOptions"
        case .gather: return "GatherOptions"
        case .transpose: return "TransposeOptions"
        case .reducer: return "ReducerOptions"
        case .sub: return "SubOptions"
        case .div: return "DivOptions"
        case .stridedSlice: return "StridedSliceOptions"
        case .exp: return "ExpOptions"
        case .dequantize: return "DequantizeOptions"
        case .maximumMinimum: return "MaximumMinimumOptions"
        case .neg: return "NegOptions"
        case .padV2: return "PadV2Options"
        case .unpack: return "UnpackOptions"
        case .leakyRelu: return "LeakyReluOptions"
        case .squaredDifference: return "SquaredDifferenceOptions"
        case .abs: return "AbsOptions"
        case .depthToSpace: return "DepthToSpaceOptions"
        case .densify: return "DensifyOptions"
        }
    }
}

/// Field ids (vtable slots) of the tables read, in schema order.
enum TFLiteField {
    enum Model { static let version = 0, operatorCodes = 1, subgraphs = 2, description = 3, buffers = 4, metadata = 6 }
    enum OperatorCode { static let deprecatedBuiltinCode = 0, customCode = 1, version = 2, builtinCode = 3 }
    enum SubGraph { static let tensors = 0, inputs = 1, outputs = 2, operators = 3, name = 4 }
    enum Tensor { static let shape = 0, type = 1, buffer = 2, name = 3, quantization = 4, isVariable = 5, sparsity = 6 }
    enum Operator { static let opcodeIndex = 0, inputs = 1, outputs = 2, builtinOptionsType = 3, builtinOptions = 4, customOptions = 5, builtinOptions2Type = 11 }
    enum Buffer { static let data = 0, offset = 1, size = 2 }
    enum Metadata { static let name = 0, buffer = 1 }
    enum Sparsity { static let traversalOrder = 0, blockMap = 1, dimMetadata = 2 }
    enum DimensionMetadata { static let format = 0, denseSize = 1, arraySegmentsType = 2, arrayIndicesType = 4 }
    /// `Int32Vector` / `Uint16Vector` / `Uint8Vector`: one field `values`.
    enum IndexVector { static let values = 0 }

    enum Conv2D { static let padding = 0, strideW = 1, strideH = 2, activation = 3, dilationW = 4, dilationH = 5 }
    enum DepthwiseConv2D { static let padding = 0, strideW = 1, strideH = 2, depthMultiplier = 3, activation = 4, dilationW = 5, dilationH = 6 }
    enum Pool2D { static let padding = 0, strideW = 1, strideH = 2, filterW = 3, filterH = 4, activation = 5 }
    enum FullyConnected { static let activation = 0, weightsFormat = 1, keepNumDims = 2 }
    enum Concatenation { static let axis = 0, activation = 1 }
    /// AddOptions, SubOptions, MulOptions, DivOptions: the fused activation is field 0.
    enum Arithmetic { static let activation = 0 }
    enum ResizeBilinear { static let alignCorners = 2, halfPixelCenters = 3 }
    enum Reshape { static let newShape = 0 }
    enum Reducer { static let keepDims = 0 }
    enum StridedSlice { static let beginMask = 0, endMask = 1, ellipsisMask = 2, newAxisMask = 3, shrinkAxisMask = 4, offset = 5 }
    enum DepthToSpace { static let blockSize = 0 }
    enum Softmax { static let beta = 0 }
    enum Gather { static let axis = 0, batchDims = 1 }
    enum Unpack { static let num = 0, axis = 1 }
    enum LeakyRelu { static let alpha = 0 }
}
