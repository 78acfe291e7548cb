import BlazeEngine

/// A parsed `.tflite` model: the parts of the schema the converter needs, read eagerly from a
/// `FlatBuffer` with every index checked (tensor, buffer and opcode references are in range).
/// Operator options stay as `FBTable`s and are read by the per-builtin translators.
struct TFLiteModel: Sendable {
    /// The FlatBuffer file identifier of a `.tflite` model (bytes 4–7).
    static let fileIdentifier = "TFL3"

    struct OperatorCode: Sendable {
        /// `max(deprecated_builtin_code, builtin_code)`: old files only set the former, codes > 127 only the latter.
        var builtin: BuiltinOperator
        var customCode: String?
        var version: Int
    }

    struct DimensionMetadata: Sendable {
        enum Format: Sendable { case dense, sparseCSR }
        var format: Format
        var denseSize: Int
        var segments: [Int]
        var indices: [Int]
    }

    struct Sparsity: Sendable {
        var traversalOrder: [Int]
        var blockMap: [Int]
        var dimMetadata: [DimensionMetadata]
    }

    struct Tensor: Sendable {
        var name: String
        var shape: [Int]
        var type: TFLiteTensorType
        var buffer: Int
        var sparsity: Sparsity?
        var isVariable: Bool
    }

    struct Operator: Sendable {
        var opcodeIndex: Int
        /// Tensor indices; -1 marks an omitted optional input.
        var inputs: [Int]
        var outputs: [Int]
        var optionsType: UInt8
        var options: FBTable?
        /// Byte range in the file of a custom op's `custom_options` (empty if it has none).
        var customOptions: Range<Int> = 0..<0
    }

    struct Metadata: Sendable {
        var name: String
        var buffer: Int
    }

    let file: FlatBuffer
    var version: UInt32
    var description: String?
    var operatorCodes: [OperatorCode]
    /// Subgraph 0, the main graph.
    var tensors: [Tensor]
    var inputs: [Int]
    var outputs: [Int]
    var operators: [Operator]
    var subgraphCount: Int
    /// Byte range of each buffer's data in `file` (empty for buffers without data).
    var buffers: [Range<Int>]
    var metadata: [Metadata]

    /// Bytes of buffer `index` (empty if it has none).
    func bufferBytes(_ index: Int) -> ArraySlice<UInt8> {
        buffers.indices.contains(index) ? file.bytes[buffers[index]] : []
    }

    /// Whether tensor `index` has constant data in a buffer.
    func hasData(_ index: Int) -> Bool {
        let b = tensors[index].buffer
        return buffers.indices.contains(b) && !buffers[b].isEmpty
    }

    /// Caps the elements read from vectors and strings while parsing. FlatBuffers lets many tables
    /// share one vector, so without it a small hostile file could expand into gigabytes of arrays.
    /// Distinct vectors of a real file add up to at most its size.
    struct ReadBudget {
        var remaining: Int
        mutating func charge(_ count: Int) throws {
            remaining -= count
            guard remaining >= 0 else {
                throw BlazeError(.corruptModel, "TFLite model refers to more vector and string data than the file holds")
            }
        }
    }

    init(bytes: [UInt8]) throws {
        let fb = FlatBuffer(bytes)
        file = fb
        var budget = ReadBudget(remaining: 2 * bytes.count + 65536)
        let root = try fb.rootTable(fileIdentifier: Self.fileIdentifier)
        typealias F = TFLiteField
        version = try root.scalar(F.Model.version, default: UInt32(0))
        description = try Self.string(root, F.Model.description, &budget)

        // Buffers first, so tensor references can be checked.
        let buffers = try root.tables(F.Model.buffers) { t, i in try Self.readBuffer(t, index: i, file: fb) }
        self.buffers = buffers

        let codes = try root.tables(F.Model.operatorCodes) { t, _ in
            let deprecated = Int32(try t.scalar(F.OperatorCode.deprecatedBuiltinCode, default: Int8(0)))
            let builtin = try t.scalar(F.OperatorCode.builtinCode, default: Int32(0))
            return OperatorCode(
                builtin: BuiltinOperator(rawValue: max(deprecated, builtin)),
                customCode: try Self.string(t, F.OperatorCode.customCode, &budget),
                version: Int(try t.scalar(F.OperatorCode.version, default: Int32(1))))
        }
        operatorCodes = codes

        guard let subgraphs = try root.vector(F.Model.subgraphs, elementSize: 4), subgraphs.count >= 1 else {
            throw BlazeError(.corruptModel, "TFLite model has no subgraph")
        }
        subgraphCount = subgraphs.count
        let sg = try subgraphs.table(at: 0)

        let tensors = try sg.tables(F.SubGraph.tensors) { t, i in
            let buffer = Int(try t.scalar(F.Tensor.buffer, default: UInt32(0)))
            guard buffer == 0 || buffers.indices.contains(buffer) else {
                throw BlazeError(.corruptModel, "TFLite tensor \(i) refers to missing buffer \(buffer)")
            }
            let shape = try Self.ints(t, F.Tensor.shape, Int32.self, &budget)
            guard shape.count <= 16 else {
                throw BlazeError(.corruptModel, "TFLite tensor \(i) has rank \(shape.count)")
            }
            return Tensor(
                name: try Self.string(t, F.Tensor.name, &budget) ?? "tensor_\(i)",
                shape: shape,
                type: TFLiteTensorType(rawValue: try t.scalar(F.Tensor.type, default: Int8(0))),
                buffer: buffers.indices.contains(buffer) ? buffer : -1,
                sparsity: try t.table(F.Tensor.sparsity).map { try Self.readSparsity($0, &budget) },
                isVariable: try t.bool(F.Tensor.isVariable, default: false))
        }
        self.tensors = tensors

        func checkedTensorList(_ list: [Int], allowOmitted: Bool, _ what: String) throws -> [Int] {
            for t in list where !(tensors.indices.contains(t) || (allowOmitted && t == -1)) {
                throw BlazeError(.corruptModel, "TFLite \(what) refers to missing tensor \(t)")
            }
            return list
        }
        inputs = try checkedTensorList(Self.ints(sg, F.SubGraph.inputs, Int32.self, &budget), allowOmitted: false, "subgraph input")
        outputs = try checkedTensorList(Self.ints(sg, F.SubGraph.outputs, Int32.self, &budget), allowOmitted: false, "subgraph output")

        operators = try sg.tables(F.SubGraph.operators) { t, i in
            let opcode = Int(try t.scalar(F.Operator.opcodeIndex, default: UInt32(0)))
            guard codes.indices.contains(opcode) else {
                throw BlazeError(.corruptModel, "TFLite operator \(i) has opcode index \(opcode) of \(codes.count)")
            }
            let options = try t.union(typeID: F.Operator.builtinOptionsType)
            return Operator(
                opcodeIndex: opcode,
                inputs: try checkedTensorList(Self.ints(t, F.Operator.inputs, Int32.self, &budget), allowOmitted: true, "operator \(i) input"),
                outputs: try checkedTensorList(Self.ints(t, F.Operator.outputs, Int32.self, &budget), allowOmitted: false, "operator \(i) output"),
                optionsType: options.type, options: options.table,
                customOptions: try t.vector(F.Operator.customOptions, elementSize: 1)?.byteRange ?? 0..<0)
        }

        metadata = try root.tables(F.Model.metadata) { t, i in
            let b = Int(try t.scalar(F.Metadata.buffer, default: UInt32(0)))
            guard buffers.indices.contains(b) else {
                throw BlazeError(.corruptModel, "TFLite metadata \(i) refers to missing buffer \(b)")
            }
            return Metadata(name: try Self.string(t, F.Metadata.name, &budget) ?? "", buffer: b)
        }
    }

    /// A buffer's data: the `data` vector, or for models that keep buffers after the flatbuffer
    /// (files over 2 GB) the `offset`/`size` pair, relative to the start of the file.
    private static func readBuffer(_ t: FBTable, index: Int, file: FlatBuffer) throws -> Range<Int> {
        typealias F = TFLiteField.Buffer
        if let data = try t.vector(F.data, elementSize: 1), data.count > 0 {
            return data.byteRange
        }
        let offset = try t.scalar(F.offset, default: UInt64(0))
        let size = try t.scalar(F.size, default: UInt64(0))
        // offset 0 or 1 means "no external data" (1 is the writer's placeholder).
        guard offset > 1, size > 0 else { return 0..<0 }
        guard let start = Int(exactly: offset), let count = Int(exactly: size) else {
            throw BlazeError(.corruptModel, "TFLite buffer \(index) has external data at \(offset)+\(size), outside the file")
        }
        do {
            try file.checkRange(start, count, "external data of buffer \(index)")
        } catch {
            throw BlazeError(.corruptModel, "TFLite buffer \(index) has external data at \(offset)+\(size), outside the \(file.count)-byte file")
        }
        return start..<(start + count)
    }

    private static func ints<T: FixedWidthInteger>(_ t: FBTable, _ id: Int, _ type: T.Type, _ budget: inout ReadBudget) throws -> [Int] {
        guard let v = try t.vector(id, elementSize: MemoryLayout<T>.size) else { return [] }
        try budget.charge(v.count)
        return try v.ints(as: T.self)
    }

    private static func string(_ t: FBTable, _ id: Int, _ budget: inout ReadBudget) throws -> String? {
        guard let v = try t.vector(id, elementSize: 1) else { return nil }
        try budget.charge(v.count)
        return String(decoding: v.buffer.bytes[v.byteRange], as: UTF8.self)
    }

    private static func readSparsity(_ t: FBTable, _ budget: inout ReadBudget) throws -> Sparsity {
        typealias F = TFLiteField.Sparsity
        typealias D = TFLiteField.DimensionMetadata
        var dims: [DimensionMetadata] = []
        if let v = try t.vector(F.dimMetadata, elementSize: 4) {
            try budget.charge(v.count)
            for i in 0..<v.count {
                let d = try v.table(at: i)
                let format: DimensionMetadata.Format
                switch try d.scalar(D.format, default: Int8(0)) {
                case 0: format = .dense
                case 1: format = .sparseCSR
                case let f: throw BlazeError(.corruptModel, "TFLite sparsity dimension \(i) has unknown format \(f)")
                }
                dims.append(
                    DimensionMetadata(
                        format: format,
                        denseSize: Int(try d.scalar(D.denseSize, default: Int32(0))),
                        segments: try readIndexVector(d, typeID: D.arraySegmentsType, &budget),
                        indices: try readIndexVector(d, typeID: D.arrayIndicesType, &budget)))
            }
        }
        return Sparsity(
            traversalOrder: try ints(t, F.traversalOrder, Int32.self, &budget),
            blockMap: try ints(t, F.blockMap, Int32.self, &budget),
            dimMetadata: dims)
    }

    /// A `SparseIndexVector` union: Int32Vector (1), Uint16Vector (2) or Uint8Vector (3).
    private static func readIndexVector(_ t: FBTable, typeID: Int, _ budget: inout ReadBudget) throws -> [Int] {
        let u = try t.union(typeID: typeID)
        guard let table = u.table else { return [] }
        let values = TFLiteField.IndexVector.values
        switch u.type {
        case 1: return try ints(table, values, Int32.self, &budget)
        case 2: return try ints(table, values, UInt16.self, &budget)
        case 3: return try ints(table, values, UInt8.self, &budget)
        default: throw BlazeError(.corruptModel, "TFLite sparse index vector has unknown type \(u.type)")
        }
    }
}
