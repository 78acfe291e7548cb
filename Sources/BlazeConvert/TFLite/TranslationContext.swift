import BlazeEngine

/// What a translator sees of one TFLite operator: its input tensors, integer parameter constants
/// and builtin options. Translators register the tensors that become node inputs with
/// `data(_:)`, in the order `Op` documents. Errors thrown here carry no location; the converter
/// prefixes the model name, operator index and builtin name.
struct TranslationContext {
    let model: TFLiteModel
    let folded: [TFLiteFoldedConstant?]
    let op: TFLiteModel.Operator
    /// TFLite tensor indices of the node's inputs, in `Op` order.
    var dataInputs: [Int] = []

    init(model: TFLiteModel, folded: [TFLiteFoldedConstant?], operator op: TFLiteModel.Operator) {
        self.model = model
        self.folded = folded
        self.op = op
    }

    // MARK: Inputs

    /// Throws unless the operator has between `range.lowerBound` and `range.upperBound` input slots.
    func expectInputs(_ range: ClosedRange<Int>) throws {
        guard range.contains(op.inputs.count) else {
            throw BlazeError(
                .corruptModel, "has \(op.inputs.count) inputs, expected \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)")"
            )
        }
    }

    /// The tensor in input slot `slot`, which must be present.
    func tensor(_ slot: Int) throws -> Int {
        guard let t = optionalTensor(slot) else {
            throw BlazeError(.corruptModel, "input \(slot) is missing")
        }
        return t
    }

    /// The tensor in input slot `slot`, or nil if the slot is absent or marked omitted (-1).
    func optionalTensor(_ slot: Int) -> Int? {
        guard slot >= 0, slot < op.inputs.count, op.inputs[slot] >= 0 else { return nil }
        return op.inputs[slot]
    }

    /// Registers input `slot` as the next node input.
    mutating func data(_ slot: Int) throws {
        dataInputs.append(try tensor(slot))
    }

    /// Registers input `slot` as the next node input if it is present (e.g. an optional bias).
    mutating func optionalData(_ slot: Int) {
        if let t = optionalTensor(slot) { dataInputs.append(t) }
    }

    /// Static shape of input `slot`.
    func shape(_ slot: Int) throws -> [Int] {
        let t = try tensor(slot)
        let s = model.tensors[t].shape
        guard s.allSatisfy({ $0 >= 0 }) else {
            throw BlazeError(.corruptModel, "input \(slot) '\(model.tensors[t].name)' has dynamic shape \(s)")
        }
        return s
    }

    /// Shape of the (single) output.
    func outputShape() throws -> [Int] {
        guard let t = op.outputs.first else { throw BlazeError(.corruptModel, "has no output") }
        return model.tensors[t].shape
    }

    /// The values of a constant INT32/INT64 input (a parameter such as paddings or axes).
    func ints(_ slot: Int, _ what: String) throws -> [Int] {
        let t = try tensor(slot)
        let tensor = model.tensors[t]
        guard model.hasData(t), folded[t] == nil else {
            throw BlazeError(.unsupported, "\(what) '\(tensor.name)' is not a constant")
        }
        guard tensor.type == .int32 || tensor.type == .int64 else {
            throw BlazeError(.unsupported, "\(what) '\(tensor.name)' has type \(tensor.type), expected INT32 or INT64")
        }
        // Parameters are short (paddings, shapes, axes); the cap also bounds work when many ops share one tensor.
        guard tensor.shape.count <= 2, let count = ShapeMath.elementCount(tensor.shape), count <= 64 else {
            throw BlazeError(.corruptModel, "\(what) '\(tensor.name)' has invalid shape \(tensor.shape)")
        }
        return try TFLiteConstants.ints(model.bufferBytes(tensor.buffer), type: tensor.type, count: count)
    }

    /// A constant float scalar input (one element), e.g. PADV2's constant value.
    func floatScalar(_ slot: Int, _ what: String) throws -> Float {
        let t = try tensor(slot)
        let tensor = model.tensors[t]
        let values: [Float]
        if let f = folded[t], f.type == .float32 {
            values = f.values
        } else if model.hasData(t), tensor.type == .float32 {
            let bytes = model.bufferBytes(tensor.buffer)
            guard bytes.count == 4 else {
                throw BlazeError(.corruptModel, "\(what) '\(tensor.name)' has \(bytes.count) bytes, expected one FLOAT32")
            }
            values = try TFLiteConstants.floats(bytes, type: .float32, count: 1)
        } else {
            throw BlazeError(.unsupported, "\(what) '\(tensor.name)' is not a FLOAT32 constant")
        }
        guard values.count == 1 else {
            throw BlazeError(.corruptModel, "\(what) '\(tensor.name)' has \(values.count) values, expected 1")
        }
        return values[0]
    }

    // MARK: Options

    /// A custom op's `custom_options` bytes (empty if it has none).
    var customOptions: ArraySlice<UInt8> { model.file.bytes[op.customOptions] }

    /// The builtin options, which must be of `type` if present (absent options read as schema defaults).
    func options(_ type: BuiltinOptionsType) throws -> TFLiteOptions {
        guard op.optionsType == 0 || op.optionsType == type.rawValue else {
            throw BlazeError(.corruptModel, "has builtin options of union type \(op.optionsType), expected \(type.name) (\(type.rawValue))")
        }
        return TFLiteOptions(table: op.optionsType == 0 ? nil : op.options)
    }

    /// TFLite `ActivationFunctionType` → `Activation`.
    func activation(_ raw: Int) throws -> Activation {
        switch raw {
        case 0: return .none
        case 1: return .relu
        case 2: return .reluMinus1To1
        case 3: return .relu6
        case 4: throw BlazeError(.unsupported, "fused activation TANH is not supported")
        case 5: throw BlazeError(.unsupported, "fused activation SIGN_BIT is not supported")
        default: throw BlazeError(.corruptModel, "unknown fused activation \(raw)")
        }
    }

    /// TFLite `Padding` → `Padding`.
    func padding(_ raw: Int) throws -> Padding {
        switch raw {
        case 0: return .same
        case 1: return .valid
        default: throw BlazeError(.corruptModel, "unknown padding \(raw)")
        }
    }
}

/// Builtin options table (or schema defaults when absent).
struct TFLiteOptions {
    let table: FBTable?

    func int32(_ id: Int, default value: Int32 = 0) throws -> Int {
        Int(try table?.scalar(id, default: value) ?? value)
    }

    func int8(_ id: Int, default value: Int8 = 0) throws -> Int {
        Int(try table?.scalar(id, default: value) ?? value)
    }

    func bool(_ id: Int, default value: Bool = false) throws -> Bool {
        try table?.bool(id, default: value) ?? value
    }

    func float32(_ id: Int, default value: Float = 0) throws -> Float {
        try table?.float32(id, default: value) ?? value
    }

    /// A float32 field that must be finite (`name` for the error): TFLite would run a NaN or
    /// infinite parameter, but no trained model has one and `.bkm` stores finite values.
    func finiteFloat32(_ id: Int, _ name: String) throws -> Float {
        let value = try float32(id)
        guard value.isFinite else { throw BlazeError(.corruptModel, "\(name) \(value) is not finite") }
        return value
    }

    /// An int32 vector field, nil if absent.
    func ints(_ id: Int) throws -> [Int]? {
        guard let table, try table.has(id) else { return nil }
        return try table.ints(id, as: Int32.self)
    }
}
