import BlazeEngine
import Foundation

/// Writes `Graph`s as `.bkm` files (layout at the top of BlazeEngine's `ModelFileReader.swift`).
///
/// The bytes depend only on the graph: arrays keep their order, metadata is sorted by the UTF-8
/// bytes of its keys, and every padding byte is zero. fp16 constants are stored as binary16 bit
/// patterns and must be exactly representable, so values round-trip bit for bit.
public enum ModelFileWriter {
    /// The complete file. Throws `BlazeError(.invalidInput)` for a graph that does not validate or
    /// does not fit the format (a value outside a field's range, a non-representable fp16 value…).
    public static func encode(_ graph: Graph) throws -> [UInt8] {
        do {
            try graph.validate()
        } catch let e as BlazeError {
            throw BlazeError(.invalidInput, "cannot write an invalid graph: \(e.message)", context: e.context)
        }
        let layout = try WeightsLayout(graph.constants)
        let section = try encodeGraphSection(graph, blobOffsets: layout.offsets)
        typealias L = ModelFile.Layout

        let graphEnd = L.headerSize + section.count
        guard let weightsOffset = L.aligned(graphEnd) else {
            throw BlazeError(.invalidInput, "graph section of \(section.count) bytes is too large")
        }
        let (fileSize, overflow) = weightsOffset.addingReportingOverflow(layout.size)
        guard !overflow else { throw BlazeError(.invalidInput, "weights of \(layout.size) bytes are too large") }

        var out = LittleEndianWriter()
        out.reserveCapacity(fileSize)
        out.append(L.magic)
        out.u32(L.formatVersion)
        out.u32(UInt32(L.headerSize))
        try out.u64(fileSize, "file size")
        try out.u64(L.headerSize, "graph section offset")
        try out.u64(section.count, "graph section size")
        try out.u64(weightsOffset, "weights section offset")
        try out.u64(layout.size, "weights section size")
        out.u64(0)  // reserved
        precondition(out.count == L.headerSize, "header layout out of sync with ModelFile.Layout")
        out.append(section)
        out.padZeros(toMultipleOf: L.weightAlignment)
        precondition(out.count == weightsOffset, "weights offset out of sync")
        for (i, constant) in graph.constants.enumerated() {
            out.append(zerosTo: weightsOffset + layout.offsets[i])
            try appendBlob(constant, index: i, to: &out)
        }
        precondition(out.count == fileSize, "file size out of sync")
        return out.bytes
    }

    /// Encodes `graph` and replaces `url` atomically (`OutputFiles`): no half-written file is ever
    /// visible, an error leaves any existing file untouched, and only a regular file is replaced.
    public static func write(_ graph: Graph, to url: URL) throws {
        let bytes = try encode(graph)
        try OutputFiles.write(bytes, to: url, origin: "the model")
    }

    /// Offsets of the constants' blobs inside the weights section, each a multiple of 64.
    struct WeightsLayout {
        var offsets: [Int] = []
        var size = 0

        init(_ constants: [Constant]) throws {
            for (i, c) in constants.enumerated() {
                guard c.shape.count <= Graph.Limits.maxRank,
                    c.shape.allSatisfy({ $0 <= ModelFile.Layout.maxDimension }),
                    let n = ShapeMath.elementCount(c.shape), n <= Graph.Limits.maxElementsPerTensor
                else {
                    throw BlazeError(.invalidInput, "constant \(i) has an unsupported shape \(c.shape)")
                }
                guard n == c.values.count else {
                    throw BlazeError(.invalidInput, "constant \(i) has \(c.values.count) values for shape \(c.shape)")
                }
                guard let start = ModelFile.Layout.aligned(size) else {
                    throw BlazeError(.invalidInput, "weights are too large")
                }
                let (end, overflow) = start.addingReportingOverflow(n * (c.storage == .float16 ? 2 : 4))
                guard !overflow else { throw BlazeError(.invalidInput, "weights are too large") }
                offsets.append(start)
                size = end
            }
        }
    }

    static func appendBlob(_ constant: Constant, index: Int, to out: inout LittleEndianWriter) throws {
        switch constant.storage {
        case .float32:
            for v in constant.values { out.u32(v.bitPattern) }
        case .float16:
            for (j, v) in constant.values.enumerated() {
                let half = Float16(v)
                guard Float(half).bitPattern == v.bitPattern else {
                    throw BlazeError(.invalidInput, "constant \(index) value \(j) = \(v) is marked fp16 but is not exactly representable in fp16")
                }
                out.u16(half.bitPattern)
            }
        }
    }
}

extension LittleEndianWriter {
    /// Appends zero bytes up to `offset` (which must not be behind the current end).
    mutating func append(zerosTo offset: Int) {
        precondition(offset >= count, "blob offsets must increase")
        append([UInt8](repeating: 0, count: offset - count))
    }
}
