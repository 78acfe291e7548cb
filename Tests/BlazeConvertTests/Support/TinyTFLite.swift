@testable import BlazeConvert

/// Builds small `.tflite` flatbuffers (schema v3 subset) for translation tests.
struct TinyTFLite {
    struct Tensor {
        var name: String
        var shape: [Int]
        var type: Int8
        var data: [UInt8]?
        var sparsity: FBNode?
    }

    struct Operator {
        var code: Int32
        var inputs: [Int]
        var outputs: [Int]
        var optionsType: UInt8
        var options: [(id: Int, field: FBField)]?
        var customCode: String?
        var customOptions: [UInt8]?
        var version: Int32 = 1
    }

    var tensors: [Tensor] = []
    var operators: [Operator] = []
    var inputs: [Int] = []
    var outputs: [Int] = []
    var version: UInt32 = 3
    var metadata: [(name: String, data: [UInt8])] = []

    static let float32: Int8 = 0, float16: Int8 = 1, int32: Int8 = 2, int64: Int8 = 4, int8: Int8 = 9

    // MARK: Tensors

    @discardableResult
    mutating func tensor(_ name: String, _ shape: [Int], type: Int8 = float32, data: [UInt8]? = nil, sparsity: FBNode? = nil) -> Int {
        tensors.append(Tensor(name: name, shape: shape, type: type, data: data, sparsity: sparsity))
        return tensors.count - 1
    }

    mutating func input(_ name: String, _ shape: [Int], type: Int8 = float32) -> Int {
        let t = tensor(name, shape, type: type)
        inputs.append(t)
        return t
    }

    mutating func float32Constant(_ name: String, _ shape: [Int], _ values: [Float]) -> Int {
        tensor(name, shape, data: values.flatMap { fbLE($0.bitPattern) })
    }

    mutating func int32Constant(_ name: String, _ values: [Int], shape: [Int]? = nil) -> Int {
        tensor(name, shape ?? [values.count], type: Self.int32, data: values.flatMap { fbLE(Int32($0)) })
    }

    mutating func int64Constant(_ name: String, _ values: [Int], shape: [Int]? = nil) -> Int {
        tensor(name, shape ?? [values.count], type: Self.int64, data: values.flatMap { fbLE(Int64($0)) })
    }

    static func half(_ v: Float) -> [UInt8] { fbLE(Float16(v).bitPattern) }

    /// An fp16 constant plus the DEQUANTIZE that widens it; returns the fp32 output tensor.
    mutating func fp16Weights(_ name: String, _ shape: [Int], _ values: [Float]) -> Int {
        let raw = tensor(name, shape, type: Self.float16, data: values.flatMap(Self.half))
        let out = tensor(name + "_dequantize", shape)
        op(TinyTFLite.dequantize, [raw], [out])
        return out
    }

    // MARK: Operators

    static let add: Int32 = 0, averagePool2D: Int32 = 1, concatenation: Int32 = 2, conv2D: Int32 = 3
    static let depthwiseConv2D: Int32 = 4, depthToSpace: Int32 = 5, dequantize: Int32 = 6, fullyConnected: Int32 = 9
    static let logistic: Int32 = 14, maxPool2D: Int32 = 17, mul: Int32 = 18, relu: Int32 = 19, reluN1To1: Int32 = 20
    static let relu6: Int32 = 21, reshape: Int32 = 22, resizeBilinear: Int32 = 23, softmax: Int32 = 25, tanh: Int32 = 28
    static let custom: Int32 = 32, pad: Int32 = 34, transpose: Int32 = 39, mean: Int32 = 40, sub: Int32 = 41
    static let div: Int32 = 42, stridedSlice: Int32 = 45, exp: Int32 = 47, prelu: Int32 = 54, maximum: Int32 = 55
    static let minimum: Int32 = 57, neg: Int32 = 59, padV2: Int32 = 60, sum: Int32 = 74, sqrt: Int32 = 75
    static let rsqrt: Int32 = 76, reduceMax: Int32 = 82, squaredDifference: Int32 = 99, abs: Int32 = 101, densify: Int32 = 124
    static let gather: Int32 = 36, logSoftmax: Int32 = 50, unpack: Int32 = 88, reduceMin: Int32 = 89, leakyRelu: Int32 = 98

    mutating func op(
        _ code: Int32, _ inputs: [Int], _ outputs: [Int], optionsType: UInt8 = 0,
        options: [(id: Int, field: FBField)]? = nil, customCode: String? = nil, customOptions: [UInt8]? = nil,
        version: Int32 = 1
    ) {
        operators.append(
            Operator(
                code: code, inputs: inputs, outputs: outputs, optionsType: optionsType,
                options: options, customCode: customCode, customOptions: customOptions, version: version))
    }

    // MARK: Serialisation

    func bytes() -> [UInt8] {
        var codes: [(code: Int32, custom: String?, version: Int32)] = []
        func codeIndex(_ o: Operator) -> Int {
            if let i = codes.firstIndex(where: { $0.code == o.code && $0.custom == o.customCode && $0.version == o.version }) { return i }
            codes.append((o.code, o.customCode, o.version))
            return codes.count - 1
        }
        let opIndices = operators.map(codeIndex)

        var buffers: [FBNode] = [.table([])]
        var tensorNodes: [FBNode] = []
        for t in tensors {
            var bufferIndex: UInt32 = 0
            if let data = t.data {
                buffers.append(.table([(0, .offset(.bytes(data)))]))
                bufferIndex = UInt32(buffers.count - 1)
            }
            var fields: [(id: Int, field: FBField)] = [
                (0, .offset(.ints32(t.shape))), (1, .i8(t.type)), (2, .u32(bufferIndex)), (3, .offset(.string(t.name)))
            ]
            if let s = t.sparsity { fields.append((6, .offset(s))) }
            tensorNodes.append(.table(fields))
        }
        let operatorNodes: [FBNode] = operators.enumerated().map { i, o in
            var fields: [(id: Int, field: FBField)] = [
                (0, .u32(UInt32(opIndices[i]))), (1, .offset(.ints32(o.inputs))), (2, .offset(.ints32(o.outputs)))
            ]
            if o.optionsType != 0 {
                fields.append((3, .u8(o.optionsType)))
                fields.append((4, .offset(.table(o.options ?? []))))
            }
            if let bytes = o.customOptions { fields.append((5, .offset(.bytes(bytes)))) }
            return .table(fields)
        }
        let codeNodes: [FBNode] = codes.map { c in
            var fields: [(id: Int, field: FBField)] = [(0, .i8(Int8(min(c.code, 127)))), (2, .i32(c.version)), (3, .i32(c.code))]
            if let s = c.custom { fields.append((1, .offset(.string(s)))) }
            return .table(fields)
        }
        var metadataNodes: [FBNode] = []
        for m in metadata {
            buffers.append(.table([(0, .offset(.bytes(m.data)))]))
            metadataNodes.append(.table([(0, .offset(.string(m.name))), (1, .u32(UInt32(buffers.count - 1)))]))
        }
        let subgraph: FBNode = .table([
            (0, .offset(.tables(tensorNodes))), (1, .offset(.ints32(inputs))), (2, .offset(.ints32(outputs))),
            (3, .offset(.tables(operatorNodes))), (4, .offset(.string("main")))
        ])
        var model: [(id: Int, field: FBField)] = [
            (0, .u32(version)), (1, .offset(.tables(codeNodes))), (2, .offset(.tables([subgraph]))),
            (3, .offset(.string("TinyTFLite"))), (4, .offset(.tables(buffers)))
        ]
        if !metadataNodes.isEmpty { model.append((6, .offset(.tables(metadataNodes)))) }
        return TinyFlatBufferBuilder.build(root: .table(model), fileIdentifier: "TFL3")
    }

    /// Sparsity parameters (no block map): `dims` per level in traversal order 0..<rank.
    static func sparsity(rank: Int, dims: [FBNode]) -> FBNode {
        .table([(0, .offset(.ints32(Array(0..<rank)))), (2, .offset(.tables(dims)))])
    }

    static func denseDim(_ size: Int) -> FBNode { .table([(0, .i8(0)), (1, .i32(Int32(size)))]) }

    /// A CSR level with Uint16 segments and Uint8 indices (the index types the sparse face model uses).
    static func csrDim(segments: [Int], indices: [Int]) -> FBNode {
        .table([
            (0, .i8(1)), (2, .u8(2)), (3, .offset(.table([(0, .offset(.ints16u(segments)))]))),
            (4, .u8(3)), (5, .offset(.table([(0, .offset(.bytes(indices.map { UInt8($0) })))])))
        ])
    }
}
