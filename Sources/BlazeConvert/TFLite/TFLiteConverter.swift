import BlazeEngine

/// Converts a `.tflite` model (subgraph 0) into a `Graph`.
///
/// Each TFLite builtin is translated by one small function from `TFLiteConverter.translators`
/// (`[BuiltinOperator: Translator]`). DEQUANTIZE of fp16 constants and DENSIFY of sparse constants
/// are folded here and never reach the graph; integer parameter tensors (paddings, shapes, axes,
/// slice bounds, permutations, sizes) become op parameters. Graph tensors are numbered densely in
/// first-use order (graph inputs first, then each node's inputs and output in op order), so the
/// result depends only on the input bytes. Every error is a `BlazeError` whose message names the
/// model and, where there is one, the operator index and builtin name.
public struct TFLiteConverter {
    /// Written to the graph's `converter` metadata key.
    public static let converterVersion = "BlazeConvert 1"

    public static func convert(tfliteBytes: [UInt8], modelName: String) throws -> Graph {
        let model: TFLiteModel
        do {
            model = try TFLiteModel(bytes: tfliteBytes)
        } catch let e as BlazeError {
            throw BlazeError(e.kind, "\(modelName): \(e.description)")
        }
        var state = TFLiteConversionState(model: model, modelName: modelName)
        return try state.run()
    }

    /// Translates one TFLite operator: reads options and parameter tensors, registers the data
    /// inputs (in `Op` order) on the context, and returns the op.
    typealias Translator = @Sendable (inout TranslationContext) throws -> Op
}

/// A constant produced by folding DEQUANTIZE / DENSIFY.
struct TFLiteFoldedConstant: Sendable {
    var values: [Float]
    /// The TFLite type of the folded tensor (FLOAT16 for a densified fp16 tensor before its DEQUANTIZE).
    var type: TFLiteTensorType
    var storage: Constant.Storage
}

struct TFLiteConversionState {
    let model: TFLiteModel
    let modelName: String
    var folded: [TFLiteFoldedConstant?]
    var graphIndex: [Int?]
    var tensors: [TensorDescriptor] = []
    var constants: [Constant] = []
    var nodes: [Node] = []
    /// Constant elements that may still be decoded, folded or densified. Many tensors or folding
    /// ops may share one buffer, so this keeps a small hostile file from expanding without bound;
    /// real models (even sparse ones) stay far below 16 elements per file byte.
    var constantBudget: Int

    init(model: TFLiteModel, modelName: String) {
        self.model = model
        self.modelName = modelName
        constantBudget = 16 * model.file.count + (1 << 20)
        folded = Array(repeating: nil, count: model.tensors.count)
        graphIndex = Array(repeating: nil, count: model.tensors.count)
    }

    mutating func run() throws -> Graph {
        guard model.version == 3 else {
            throw BlazeError(.unsupported, "\(modelName): TFLite schema version \(model.version) is not supported (expected 3)")
        }
        var inputs: [Int] = []
        for t in model.inputs {
            do {
                let tensor = model.tensors[t]
                guard !model.hasData(t) else {
                    throw BlazeError(.corruptModel, "graph input '\(tensor.name)' is a constant")
                }
                guard tensor.type == .float32 else {
                    throw BlazeError(.unsupported, "graph input '\(tensor.name)' has type \(tensor.type); only FLOAT32 inputs are supported")
                }
                inputs.append(try graphTensor(for: t))
            } catch let e as BlazeError {
                throw BlazeError(e.kind, "\(modelName): \(e.description)")
            }
        }

        try checkEveryOpIsSupported()
        for (index, op) in model.operators.enumerated() {
            let code = model.operatorCodes[op.opcodeIndex]
            let name = Self.opName(code)
            do {
                switch code.builtin {
                case .dequantize: try foldDequantize(op)
                case .densify: try foldDensify(op)
                case .unpack: try lowerUnpack(op)
                default:
                    guard let translate = TFLiteConverter.translator(for: code) else {
                        throw BlazeError(.unsupported, "\(name) is not supported")
                    }
                    guard op.outputs.count == 1 else {
                        throw BlazeError(.unsupported, "\(op.outputs.count) outputs are not supported")
                    }
                    var context = TranslationContext(model: model, folded: folded, operator: op)
                    let translated = try translate(&context)
                    try emit(translated, inputs: context.dataInputs, output: op.outputs[0])
                }
            } catch let e as BlazeError {
                throw BlazeError(e.kind, "\(modelName): operator \(index) \(name): \(e.description)")
            }
        }

        var outputs: [Int] = []
        for t in model.outputs {
            do {
                outputs.append(try graphTensor(for: t))
            } catch let e as BlazeError {
                throw BlazeError(e.kind, "\(modelName): graph output: \(e.description)")
            }
        }

        var metadata = metadata()
        do {
            metadata.merge(try TFLiteClassifierMetadata.entries(model, tfliteBytes: model.file.bytes)) { $1 }
        } catch let e as BlazeError {
            throw BlazeError(e.kind, "\(modelName): TFLite metadata: \(e.description)")
        }
        let graph = Graph(
            tensors: tensors, constants: constants, nodes: nodes, inputs: inputs, outputs: outputs,
            metadata: metadata)
        do {
            try graph.validate()
        } catch let e as BlazeError {
            throw BlazeError(e.kind, "\(modelName): \(e.description)")
        }
        return graph
    }

    /// One error naming every op the converter lacks, with its count and first operator index,
    /// so a model needs one run to show all that is missing (per-op parameter checks come later).
    /// `CONV_2D`, or `CUSTOM(name)` for a custom op (as errors and `blaze-model ops` name them).
    private static func opName(_ code: TFLiteModel.OperatorCode) -> String {
        code.builtin == .custom ? "CUSTOM(\(code.customCode ?? ""))" : code.builtin.name
    }

    private func checkEveryOpIsSupported() throws {
        var missing: [(name: String, count: Int, first: Int)] = []
        for (index, op) in model.operators.enumerated() {
            let code = model.operatorCodes[op.opcodeIndex]
            if [.dequantize, .densify, .unpack].contains(code.builtin) || TFLiteConverter.translator(for: code) != nil { continue }
            let name = Self.opName(code)
            if let i = missing.firstIndex(where: { $0.name == name }) {
                missing[i].count += 1
            } else {
                missing.append((name, 1, index))
            }
        }
        guard !missing.isEmpty else { return }
        let list = missing.map { "\($0.name) ×\($0.count) (first at operator \($0.first))" }.joined(separator: ", ")
        let what = missing.count == 1 ? "1 op is" : "\(missing.count) ops are"
        throw BlazeError(.unsupported, "\(modelName): \(what) not supported: \(list); `blaze-model ops` lists the supported ones")
    }

    mutating func chargeConstants(_ count: Int) throws {
        constantBudget -= count
        guard constantBudget >= 0 else {
            throw BlazeError(.corruptModel, "constants expand to more than 16 values per byte of the file")
        }
    }

    private func metadata() -> [String: String] {
        var m: [String: String] = [
            "source.name": modelName,
            "source.format": "tflite",
            "converter": TFLiteConverter.converterVersion,
            "tflite.version": String(model.version)
        ]
        if let d = model.description, let text = Self.printable(ArraySlice(d.utf8)) {
            m["tflite.description"] = text
        }
        // `min_runtime_version` is a short NUL-padded ASCII string; other entries are binary.
        for entry in model.metadata where entry.name == "min_runtime_version" {
            if let text = Self.printable(model.bufferBytes(entry.buffer)) {
                m["tflite.min_runtime_version"] = text
            }
        }
        return m
    }

    /// Short printable ASCII text (trailing NULs dropped), or nil.
    private static func printable(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count <= 256 else { return nil }
        var b = bytes
        while b.last == 0 { b = b.dropLast() }
        guard !b.isEmpty, b.allSatisfy({ (32...126).contains($0) }) else { return nil }
        return String(decoding: b, as: UTF8.self)
    }

    /// The shape of a TFLite tensor, checked against the graph limits.
    func checkedShape(_ t: Int) throws -> [Int] {
        let tensor = model.tensors[t]
        guard tensor.shape.count <= Graph.Limits.maxRank, let n = ShapeMath.elementCount(tensor.shape),
            n <= Graph.Limits.maxElementsPerTensor
        else {
            throw BlazeError(.corruptModel, "tensor \(t) '\(tensor.name)' has invalid shape \(tensor.shape)")
        }
        return tensor.shape
    }

    /// The graph tensor for TFLite tensor `t`, created on first use (constants get their data).
    mutating func graphTensor(for t: Int) throws -> Int {
        if let g = graphIndex[t] { return g }
        let tensor = model.tensors[t]
        let shape = try checkedShape(t)
        var constant: Int?
        if let f = folded[t] {
            guard f.type == .float32 else {
                throw BlazeError(.unsupported, "tensor '\(tensor.name)' of type \(f.type) is used as an op input (expected a DEQUANTIZE first)")
            }
            constants.append(Constant(shape: shape, values: f.values, storage: f.storage))
            constant = constants.count - 1
        } else if model.hasData(t) {
            guard tensor.type == .float32 else {
                throw BlazeError(.unsupported, "constant '\(tensor.name)' of type \(tensor.type) is used as a float input")
            }
            guard tensor.sparsity == nil else {
                throw BlazeError(.unsupported, "sparse constant '\(tensor.name)' is used without DENSIFY")
            }
            let count = shape.reduce(1, *)
            try chargeConstants(count)
            let values = try TFLiteConstants.floats(model.bufferBytes(tensor.buffer), type: .float32, count: count)
            constants.append(Constant(shape: shape, values: values, storage: .float32))
            constant = constants.count - 1
        } else {
            guard tensor.type == .float32 else {
                throw BlazeError(.unsupported, "tensor '\(tensor.name)' has type \(tensor.type); only FLOAT32 activations are supported")
            }
        }
        tensors.append(TensorDescriptor(name: tensor.name, shape: shape, constant: constant))
        graphIndex[t] = tensors.count - 1
        return tensors.count - 1
    }

    private func isConstant(_ t: Int) -> Bool { folded[t] != nil || model.hasData(t) }

    /// Appends a node; its declared output shape must equal what the op infers.
    mutating func emit(_ op: Op, inputs: [Int], output: Int) throws {
        let ins = try inputs.map { try graphTensor(for: $0) }
        guard !isConstant(output) else {
            throw BlazeError(.corruptModel, "writes constant tensor '\(model.tensors[output].name)'")
        }
        let out = try graphTensor(for: output)
        let inferred = try op.inferOutputShape(ins.map { tensors[$0].shape })
        guard inferred == tensors[out].shape else {
            throw BlazeError(.shapeMismatch, "output '\(tensors[out].name)' is declared \(tensors[out].shape), the op gives \(inferred)")
        }
        nodes.append(Node(op: op, inputs: ins, outputs: [out]))
    }

    /// UNPACK (several outputs) as one STRIDED_SLICE per output that drops the axis: the engine's
    /// ops have one output each.
    private mutating func lowerUnpack(_ op: TFLiteModel.Operator) throws {
        guard op.inputs.count == 1, op.inputs[0] >= 0 else {
            throw BlazeError(.corruptModel, "has \(op.inputs.count) inputs, expected 1")
        }
        let shape = try checkedShape(op.inputs[0])
        let o = TFLiteOptions(table: op.optionsType == 0 ? nil : op.options)
        guard op.optionsType == 0 || op.optionsType == BuiltinOptionsType.unpack.rawValue else {
            throw BlazeError(.corruptModel, "has builtin options of union type \(op.optionsType), expected UnpackOptions")
        }
        let rank = shape.count
        guard let axis = ShapeMath.normalizedAxis(try o.int32(TFLiteField.Unpack.axis), rank: rank) else {
            throw BlazeError(.shapeMismatch, "axis \(try o.int32(TFLiteField.Unpack.axis)) is out of range for \(shape)")
        }
        let declared = try o.int32(TFLiteField.Unpack.num)
        guard op.outputs.count == shape[axis], declared == 0 || declared == shape[axis] else {
            throw BlazeError(.shapeMismatch, "\(op.outputs.count) outputs (num \(declared)) for axis \(axis) of \(shape)")
        }
        for (i, output) in op.outputs.enumerated() {
            var begin = [Int](repeating: 0, count: rank), end = shape
            begin[axis] = i
            end[axis] = i + 1
            let slice = StridedSliceParams(
                begin: begin, end: end, strides: [Int](repeating: 1, count: rank), shrinkAxisMask: 1 << axis)
            try emit(.stridedSlice(slice), inputs: [op.inputs[0]], output: output)
        }
    }

    /// Checks a folding op's single input and output and returns them.
    private func foldOperands(_ op: TFLiteModel.Operator) throws -> (source: Int, destination: Int, count: Int) {
        guard op.inputs.count == 1, op.outputs.count == 1, op.inputs[0] >= 0 else {
            throw BlazeError(.corruptModel, "has \(op.inputs.count) inputs and \(op.outputs.count) outputs, expected 1 and 1")
        }
        let (src, dst) = (op.inputs[0], op.outputs[0])
        let srcShape = try checkedShape(src), dstShape = try checkedShape(dst)
        guard srcShape == dstShape else {
            throw BlazeError(.shapeMismatch, "input shape \(srcShape) differs from output shape \(dstShape)")
        }
        guard !isConstant(dst), graphIndex[dst] == nil else {
            throw BlazeError(.corruptModel, "output '\(model.tensors[dst].name)' is a constant or already in use")
        }
        return (src, dst, srcShape.reduce(1, *))
    }

    /// DEQUANTIZE of an fp16 constant (or of a folded DENSIFY result) becomes a constant.
    mutating func foldDequantize(_ op: TFLiteModel.Operator) throws {
        let (src, dst, count) = try foldOperands(op)
        let source = model.tensors[src]
        guard model.tensors[dst].type == .float32 else {
            throw BlazeError(.unsupported, "output type \(model.tensors[dst].type) is not supported (expected FLOAT32)")
        }
        let values: [Float]
        if let f = folded[src] {
            guard f.type == .float16 else {
                throw BlazeError(.unsupported, "dequantizing \(f.type) is not supported (expected FLOAT16)")
            }
            values = f.values
        } else {
            guard model.hasData(src) else {
                throw BlazeError(.unsupported, "dequantizing non-constant tensor '\(source.name)' at run time is not supported")
            }
            guard source.sparsity == nil else {
                throw BlazeError(.unsupported, "sparse tensor '\(source.name)' is dequantized without DENSIFY")
            }
            guard source.type == .float16 else {
                throw BlazeError(.unsupported, "dequantizing \(source.type) tensor '\(source.name)' is not supported (only FLOAT16 weights)")
            }
            try chargeConstants(count)
            values = try TFLiteConstants.floats(model.bufferBytes(source.buffer), type: .float16, count: count)
        }
        folded[dst] = TFLiteFoldedConstant(values: values, type: .float32, storage: .float16)
    }

    /// DENSIFY of a sparse fp16/fp32 constant becomes a dense constant of the same type.
    mutating func foldDensify(_ op: TFLiteModel.Operator) throws {
        let (src, dst, count) = try foldOperands(op)
        let source = model.tensors[src]
        guard let sparsity = source.sparsity, model.hasData(src) else {
            throw BlazeError(.unsupported, "DENSIFY of '\(source.name)', which is not a sparse constant, is not supported")
        }
        guard source.type == .float16 || source.type == .float32 else {
            throw BlazeError(.unsupported, "DENSIFY of \(source.type) tensor '\(source.name)' is not supported")
        }
        guard model.tensors[dst].type == source.type else {
            throw BlazeError(.corruptModel, "output type \(model.tensors[dst].type) differs from input type \(source.type)")
        }
        let bytes = model.bufferBytes(source.buffer)
        let size = source.type == .float16 ? 2 : 4
        guard bytes.count % size == 0 else {
            throw BlazeError(.corruptModel, "sparse data of '\(source.name)' has \(bytes.count) bytes, not a multiple of \(size)")
        }
        try chargeConstants(count + bytes.count / size + sparsity.dimMetadata.reduce(0) { $0 + $1.segments.count + $1.indices.count })
        let stored = try TFLiteConstants.floats(bytes, type: source.type, count: bytes.count / size)
        let dense = try TFLiteConstants.densify(values: stored, shape: source.shape, sparsity: sparsity)
        folded[dst] = TFLiteFoldedConstant(values: dense, type: source.type, storage: source.type == .float16 ? .float16 : .float32)
    }
}
