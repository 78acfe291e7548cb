/// Decoding of the graph section and the weight blobs it points to (layout in `ModelFileReader.swift`).
extension ModelFile {
    /// The weights section: blobs are read from here, bounds-checked against `size`.
    struct WeightsSection {
        let bytes: UnsafeRawBufferPointer
        let offset: Int
        let size: Int
    }

    static func decodeGraph(_ c: inout ByteCursor, weights: WeightsSection) throws -> Graph {
        let constants = try decodeConstants(&c, weights: weights)
        let tensors = try decodeTensors(&c, constantCount: constants.count)
        let nodes = try decodeNodes(&c, tensorCount: tensors.count)
        let inputs = try c.indexList("graph input", max: tensors.count, below: tensors.count)
        let outputs = try c.indexList("graph output", max: tensors.count, below: tensors.count)
        let metadata = try decodeMetadata(&c)
        try c.expectEnd()
        return Graph(tensors: tensors, constants: constants, nodes: nodes, inputs: inputs, outputs: outputs, metadata: metadata)
    }

    static func decodeConstants(_ c: inout ByteCursor, weights: WeightsSection) throws -> [Constant] {
        var firstFree = 0  // blobs are in increasing order: each starts at or after the previous one's end
        // storage + rank + blob offset is the smallest record
        return try c.records("constant count", max: Layout.maxConstants, minBytesEach: 10) { c, i in
            let what = "constant \(i)"
            let storage = try c.enumeration(Constant.Storage.self, "\(what) storage")
            let shape = try c.shape(what)
            let at = c.position
            let offset64 = try c.u64("\(what) blob offset")
            guard let elements = ShapeMath.elementCount(shape), elements <= Graph.Limits.maxElementsPerTensor else {
                throw c.error("\(what) has too many elements for shape \(ShapeMath.describe(shape))")
            }
            let (length, o1) = elements.multipliedReportingOverflow(by: storage == .float16 ? 2 : 4)
            guard !o1, offset64 <= UInt64(weights.size) else {
                throw c.error("\(what) blob offset \(offset64) at byte \(at) is past the \(weights.size)-byte weights section")
            }
            let offset = Int(offset64)
            guard offset % Layout.weightAlignment == 0 else {
                throw c.error("\(what) blob offset \(offset) at byte \(at) is not a multiple of \(Layout.weightAlignment)")
            }
            guard offset >= firstFree else {
                throw c.error("\(what) blob offset \(offset) at byte \(at) overlaps the previous blob, which ends at \(firstFree)")
            }
            let (end, o2) = offset.addingReportingOverflow(length)
            guard !o2, end <= weights.size else {
                throw c.error("\(what) blob \(offset) + \(length) bytes runs past the \(weights.size)-byte weights section")
            }
            let values = loadFloats(weights.bytes, at: weights.offset + offset, count: elements, storage: storage)
            firstFree = end
            return Constant(shape: shape, values: values, storage: storage)
        }
    }

    static func decodeTensors(_ c: inout ByteCursor, constantCount: Int) throws -> [TensorDescriptor] {
        // name length + rank + constant index is the smallest record
        try c.records("tensor count", max: Graph.Limits.maxTensors, minBytesEach: 9) { c, i in
            let name = try c.string("tensor \(i) name")
            let shape = try c.shape("tensor \(i) '\(name)'")
            let at = c.position
            let raw = try c.u32("tensor \(i) '\(name)' constant index")
            var constant: Int?
            if raw != Layout.noConstant {
                guard Int(raw) < constantCount else {
                    throw c.error("tensor \(i) '\(name)' constant index \(raw) at byte \(at), but there are only \(constantCount) constants")
                }
                constant = Int(raw)
            }
            return TensorDescriptor(name: name, shape: shape, constant: constant)
        }
    }

    static func decodeNodes(_ c: inout ByteCursor, tensorCount: Int) throws -> [Node] {
        // opcode + parameter length + input count + output count is the smallest record
        try c.records("op count", max: Graph.Limits.maxNodes, minBytesEach: 13) { c, i in
            let opcode = try c.u8("op \(i) opcode")
            let length = try c.count("op \(i) parameter length", max: Layout.maxParameterBytes, minBytesEach: 1)
            var p = try c.subCursor(length, section: "graph section, parameters of op \(i)")
            let op = try Op.decode(opcode: opcode, parameters: &p)
            try p.expectEnd()
            let inputs = try c.indexList("op \(i) \(op.name) input", max: Layout.maxNodeTensors, below: tensorCount)
            let outputs = try c.indexList("op \(i) \(op.name) output", max: Layout.maxNodeTensors, below: tensorCount)
            return Node(op: op, inputs: inputs, outputs: outputs)
        }
    }

    static func decodeMetadata(_ c: inout ByteCursor) throws -> [String: String] {
        let count = try c.count("metadata count", max: Layout.maxMetadataEntries, minBytesEach: 8)
        var metadata: [String: String] = [:]
        metadata.reserveCapacity(count)
        var previousKey: [UInt8]?
        for i in 0..<count {
            let at = c.position
            let key = try c.string("metadata key \(i)")
            let value = try c.string("metadata value \(i) for '\(key)'")
            let keyBytes = Array(key.utf8)
            if let previousKey, !previousKey.lexicographicallyPrecedes(keyBytes) {
                throw c.error("metadata key '\(key)' at byte \(at) is not after the previous key in byte order")
            }
            guard metadata.updateValue(value, forKey: key) == nil else {
                throw c.error("metadata key '\(key)' at byte \(at) repeats an earlier key")
            }
            previousKey = keyBytes
        }
        return metadata
    }

    /// `count` values from a blob whose bounds were already checked; fp16 is widened here, once.
    static func loadFloats(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int, storage: Constant.Storage) -> [Float] {
        // An empty result is the shared empty-array singleton: nothing may be written through it
        // (a zero-byte copy into it from two threads is a data race to ThreadSanitizer).
        guard count > 0 else { return [] }
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            switch storage {
            case .float32:
                #if _endian(little)
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4 * count)]))
                #else
                    for i in 0..<count {
                        buffer[i] = Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 * i, as: UInt32.self)))
                    }
                #endif
            case .float16:
                // Raw pointers: LLVM vectorises this loop; with the buffers' subscripts it stayed scalar.
                let source = bytes.baseAddress! + offset
                let out = buffer.baseAddress!
                for i in 0..<count {
                    out[i] = HalfWidening.float(UInt16(littleEndian: source.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self)))
                }
            }
            initialized = count
        }
    }
}

extension ByteCursor {
    /// u8 rank (≤ `Graph.Limits.maxRank`) and rank × u32 dims (each ≤ `Layout.maxDimension`).
    mutating func shape(_ what: @autoclosure () -> String) throws -> [Int] {
        let at = position
        let rank = Int(try u8("\(what()) rank"))
        guard rank <= Graph.Limits.maxRank else {
            throw error("\(what()) rank \(rank) at byte \(at) is over the limit \(Graph.Limits.maxRank)")
        }
        var shape: [Int] = []
        shape.reserveCapacity(rank)
        for d in 0..<rank {
            let dimAt = position
            let v = Int(try u32("\(what()) dim \(d)"))
            guard v <= ModelFile.Layout.maxDimension else {
                throw error("\(what()) dim \(d) at byte \(dimAt) is \(v), over the limit \(ModelFile.Layout.maxDimension)")
            }
            shape.append(v)
        }
        return shape
    }

    /// u32 count (≤ `max`) then that many u32 indices, each `< bound`.
    mutating func indexList(_ what: String, max: Int, below bound: Int) throws -> [Int] {
        try records("\(what) count", max: max, minBytesEach: 4) { c, i in try c.index("\(what) \(i)", below: bound) }
    }
}
