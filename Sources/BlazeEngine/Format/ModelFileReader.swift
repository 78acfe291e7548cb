// .bkm — the BlazeKit model file, format version 1 (also in docs/bkm-format.md).
//
// Little-endian everywhere. Nothing inside the header or the graph section is aligned; readers use
// unaligned loads. `str` = u32 byte length (≤ 1 MiB) followed by that many bytes of UTF-8.
// `shape` = u8 rank (≤ 8) followed by rank × u32 dims (each ≤ 2^31-1).
//
// Header — 64 bytes at offset 0
//   off size
//     0    8  magic "BLAZEKIT"
//     8    4  u32 format version = 1
//    12    4  u32 header size = 64
//    16    8  u64 file size: the file's exact length (truncation shows up here first)
//    24    8  u64 graph section offset = 64
//    32    8  u64 graph section size
//    40    8  u64 weights section offset: a multiple of 64, ≥ graph section end
//    48    8  u64 weights section size: weights offset + size = file size
//    56    8  u64 reserved, 0
//
// Graph section — records back to back; it must be consumed exactly
//   u32 constant count (≤ 65536), then per constant:
//       u8 storage (0 = fp32, 1 = fp16), shape,
//       u64 blob offset, relative to the weights section: a multiple of 64, blobs in increasing
//           order without overlap; blob length = element count (≤ 2^28) × 4 (fp32) or 2 (fp16)
//   u32 tensor count (≤ 65536), then per tensor:
//       str name, shape, u32 constant index (0xFFFFFFFF = not a constant)
//   u32 op count (≤ 65536), then per op, in execution order:
//       u8 opcode, u32 parameter length (≤ 4096), parameter block (table in Op+Coding.swift),
//       u32 input count (≤ 4096), input count × u32 tensor index,
//       u32 output count (≤ 4096), output count × u32 tensor index
//   u32 graph input count, count × u32 tensor index
//   u32 graph output count, count × u32 tensor index
//   u32 metadata count (≤ 65536), then per entry: str key, str value;
//       keys strictly increasing in UTF-8 byte order
//
// Zero bytes from the end of the graph section to the weights section.
//
// Weights section — each constant's blob at weights offset + blob offset, so every blob starts at a
// file offset that is a multiple of 64 and can be used in place from a memory map. fp32 blobs hold
// IEEE binary32 values, fp16 blobs IEEE binary16 bit patterns (widened to Float once, at load).
// Zero bytes between blobs. The file ends with the last blob.
//
// Every count, offset and size is checked against its cap and against the bytes that remain before
// anything is allocated; arithmetic on file values reports overflow instead of trapping; any problem
// throws `BlazeError(.corruptModel, …)` naming the field and its byte offset. After decoding,
// `Graph.validate()` runs, so a graph that loads is runnable.

/// Reads `.bkm` model files (written by `ModelFileWriter` in BlazeConvert). Layout above.
public enum ModelFile {
    /// Decodes and validates a whole `.bkm` file held in memory.
    public static func read(bytes: UnsafeRawBufferPointer) throws -> Graph {
        let header = try Header(bytes)
        var cursor = ByteCursor(bytes, from: header.graphOffset, to: header.graphEnd, section: "graph section")
        let weights = WeightsSection(bytes: bytes, offset: header.weightsOffset, size: header.weightsSize)
        let graph = try decodeGraph(&cursor, weights: weights)
        do {
            try graph.validate()
        } catch let e as BlazeError {
            // A graph that does not validate is a corrupt file, whatever the check that caught it.
            throw BlazeError(.corruptModel, e.message, context: e.context)
        }
        return graph
    }

    /// Decodes a `.bkm` file held in a byte array.
    public static func read(bytes: [UInt8]) throws -> Graph {
        try bytes.withUnsafeBytes { try read(bytes: $0) }
    }

    /// Section bounds from the fixed header, all checked against the file length.
    struct Header {
        var graphOffset: Int, graphEnd: Int
        var weightsOffset: Int, weightsSize: Int

        init(_ bytes: UnsafeRawBufferPointer) throws {
            let n = bytes.count
            let magic = Layout.magic
            guard n >= magic.count else {
                throw BlazeError(.corruptModel, "file is \(n) bytes, too short to be a .bkm model")
            }
            guard bytes.prefix(magic.count).elementsEqual(magic) else {
                let shown = bytes.prefix(magic.count).map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "." }.joined()
                throw BlazeError(.corruptModel, "not a .bkm model: file starts with \"\(shown)\", expected \"BLAZEKIT\"")
            }
            var c = ByteCursor(bytes, from: magic.count, to: min(n, Layout.headerSize), section: "header")
            let version = try c.u32("format version")
            guard version == Layout.formatVersion else {
                throw BlazeError(.corruptModel, "unsupported .bkm format version \(version); this reader supports version \(Layout.formatVersion)")
            }
            guard n >= Layout.headerSize else {
                throw BlazeError(.corruptModel, "truncated header: file is \(n) bytes, the header alone is \(Layout.headerSize)")
            }
            let headerSize = try c.u32("header size")
            guard headerSize == UInt32(Layout.headerSize) else {
                throw c.error("header size is \(headerSize), expected \(Layout.headerSize)")
            }
            let fileSize = try c.u64("file size")
            guard fileSize == UInt64(n) else {
                throw c.error("header says the file is \(fileSize) bytes but it is \(n) bytes (truncated or appended to)")
            }
            // Every offset and size is at most the file length, so it fits in an Int.
            func field(_ what: String) throws -> Int {
                let v = try c.u64(what)
                guard v <= UInt64(n) else { throw c.error("\(what) \(v) is past the end of the \(n)-byte file") }
                return Int(v)
            }
            graphOffset = try field("graph section offset")
            let graphSize = try field("graph section size")
            weightsOffset = try field("weights section offset")
            weightsSize = try field("weights section size")
            let reserved = try c.u64("reserved field")
            guard reserved == 0 else { throw c.error("reserved field is \(reserved), expected 0") }

            guard graphOffset == Layout.headerSize else {
                throw c.error("graph section offset is \(graphOffset), expected \(Layout.headerSize)")
            }
            let (graphEnd, o1) = graphOffset.addingReportingOverflow(graphSize)
            guard !o1, graphEnd <= n else {
                throw c.error("graph section \(graphOffset) + \(graphSize) bytes runs past the end of the \(n)-byte file")
            }
            self.graphEnd = graphEnd
            guard weightsOffset % Layout.weightAlignment == 0, weightsOffset >= graphEnd else {
                throw c.error("weights section offset \(weightsOffset) is not a multiple of \(Layout.weightAlignment) at or after the graph section end \(graphEnd)")
            }
            let (weightsEnd, o2) = weightsOffset.addingReportingOverflow(weightsSize)
            guard !o2, weightsEnd == n else {
                throw c.error("weights section \(weightsOffset) + \(weightsSize) bytes does not end at the end of the \(n)-byte file")
            }
        }
    }
}
