import BlazeEngine

extension ModelFileWriter {
    /// The graph section: constants, tensors, ops, graph inputs/outputs, sorted metadata.
    static func encodeGraphSection(_ graph: Graph, blobOffsets: [Int]) throws -> [UInt8] {
        typealias L = ModelFile.Layout
        var w = LittleEndianWriter()

        try w.count(graph.constants.count, max: L.maxConstants, "constant count")
        for (i, c) in graph.constants.enumerated() {
            w.u8(c.storage.rawValue)
            try w.shape(c.shape, "constant \(i)")
            try w.u64(blobOffsets[i], "constant \(i) blob offset")
        }

        try w.count(graph.tensors.count, max: Graph.Limits.maxTensors, "tensor count")
        for (i, t) in graph.tensors.enumerated() {
            try w.string(t.name, "tensor \(i) name")
            try w.shape(t.shape, "tensor \(i) '\(t.name)'")
            if let c = t.constant { try w.u32(c, "tensor \(i) constant index") } else { w.u32(L.noConstant) }
        }

        try w.count(graph.nodes.count, max: Graph.Limits.maxNodes, "op count")
        for (i, node) in graph.nodes.enumerated() {
            let parameters: [UInt8]
            do {
                parameters = try node.op.encodedParameters()
            } catch let e as BlazeError {
                throw BlazeError(e.kind, e.message, context: "op \(i) \(node.op.name)")
            }
            w.u8(node.op.opcode)
            try w.count(parameters.count, max: L.maxParameterBytes, "op \(i) parameter length")
            w.append(parameters)
            try w.indexList(node.inputs, max: L.maxNodeTensors, "op \(i) inputs")
            try w.indexList(node.outputs, max: L.maxNodeTensors, "op \(i) outputs")
        }

        try w.indexList(graph.inputs, max: graph.tensors.count, "graph inputs")
        try w.indexList(graph.outputs, max: graph.tensors.count, "graph outputs")

        // Sorted by UTF-8 bytes, not `String <` (Unicode ordering) and never Dictionary order.
        let entries = graph.metadata.map { (key: Array($0.key.utf8), pair: $0) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        try w.count(entries.count, max: L.maxMetadataEntries, "metadata count")
        for e in entries {
            try w.string(e.pair.key, "metadata key '\(e.pair.key)'")
            try w.string(e.pair.value, "metadata value for '\(e.pair.key)'")
        }
        return w.bytes
    }
}

extension LittleEndianWriter {
    mutating func count(_ n: Int, max: Int, _ what: String) throws {
        guard n <= max else { throw BlazeError(.invalidInput, "\(what) \(n) is over the format's limit \(max)") }
        try u32(n, what)
    }

    mutating func shape(_ shape: [Int], _ what: String) throws {
        guard shape.count <= Graph.Limits.maxRank else {
            throw BlazeError(.invalidInput, "\(what) has rank \(shape.count), over the limit \(Graph.Limits.maxRank)")
        }
        u8(UInt8(shape.count))
        for (d, v) in shape.enumerated() {
            guard v >= 0, v <= ModelFile.Layout.maxDimension else {
                throw BlazeError(.invalidInput, "\(what) dim \(d) = \(v) is outside 0...\(ModelFile.Layout.maxDimension)")
            }
            u32(UInt32(v))
        }
    }

    mutating func indexList(_ list: [Int], max: Int, _ what: String) throws {
        try count(list.count, max: max, "\(what) count")
        for (i, v) in list.enumerated() { try u32(v, "\(what)[\(i)]") }
    }
}
