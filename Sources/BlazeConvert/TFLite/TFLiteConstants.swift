import BlazeEngine

/// Decoding of constant tensor data (fp32, fp16, int32/int64) and densification of sparse
/// tensors, each checked against the declared shape so hostile data cannot make it trap or
/// allocate without bound.
enum TFLiteConstants {
    /// Largest densified tensor accepted (elements); real models are far below this.
    static let maxDensifiedElements = 1 << 24

    static func floats(_ bytes: ArraySlice<UInt8>, type: TFLiteTensorType, count: Int) throws -> [Float] {
        switch type {
        case .float32:
            try checkSize(bytes, count: count, elementSize: 4, type: type)
            return bytes.withUnsafeBytes { raw in
                (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
        case .float16:
            try checkSize(bytes, count: count, elementSize: 2, type: type)
            return bytes.withUnsafeBytes { raw in
                (0..<count).map { widenHalf(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self))) }
            }
        default:
            throw BlazeError(.unsupported, "constant of type \(type) (only FLOAT32/FLOAT16 weights are supported)")
        }
    }

    /// INT32/INT64 constant values; each must fit in Int32 so later shape arithmetic cannot overflow.
    static func ints(_ bytes: ArraySlice<UInt8>, type: TFLiteTensorType, count: Int) throws -> [Int] {
        let values: [Int]
        switch type {
        case .int32:
            try checkSize(bytes, count: count, elementSize: 4, type: type)
            values = bytes.withUnsafeBytes { raw in
                (0..<count).map { Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self))) }
            }
        case .int64:
            try checkSize(bytes, count: count, elementSize: 8, type: type)
            values = bytes.withUnsafeBytes { raw in
                (0..<count).map { Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self))) }
            }
        default:
            throw BlazeError(.unsupported, "integer parameter of type \(type) (expected INT32 or INT64)")
        }
        for v in values where v < Int(Int32.min) || v > Int(Int32.max) {
            throw BlazeError(.corruptModel, "integer parameter \(v) is out of the INT32 range")
        }
        return values
    }

    private static func checkSize(_ bytes: ArraySlice<UInt8>, count: Int, elementSize: Int, type: TFLiteTensorType) throws {
        let (n, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, count >= 0, bytes.count == n else {
            throw BlazeError(.corruptModel, "constant data has \(bytes.count) bytes, expected \(count) \(type) values")
        }
    }

    /// Expands a sparse tensor (TFLite `SparsityParameters`, without block map) to dense row-major
    /// values of `shape`. `values` are the stored non-zeros in traversal order. Follows TFLite's
    /// `FormatConverter::SparseToDense`: DENSE levels iterate `dense_size`, CSR levels the
    /// `array_segments[parent] ..< array_segments[parent + 1]` slice of `array_indices`.
    static func densify(values: [Float], shape: [Int], sparsity: TFLiteModel.Sparsity) throws -> [Float] {
        let rank = shape.count
        guard sparsity.blockMap.isEmpty else {
            throw BlazeError(.unsupported, "block-sparse tensors (block_map \(sparsity.blockMap)) are not supported")
        }
        let order = sparsity.traversalOrder
        guard rank >= 1, rank <= Graph.Limits.maxRank, order.count == rank, order.sorted() == Array(0..<rank),
            sparsity.dimMetadata.count == rank
        else {
            throw BlazeError(.corruptModel, "sparse tensor of shape \(shape) has traversal order \(order) and \(sparsity.dimMetadata.count) dimension entries")
        }
        guard let total = ShapeMath.elementCount(shape), total <= maxDensifiedElements else {
            throw BlazeError(.corruptModel, "sparse tensor of shape \(shape) is too large to densify")
        }
        for (level, dm) in sparsity.dimMetadata.enumerated() {
            let dim = shape[order[level]]
            switch dm.format {
            case .dense:
                guard dm.denseSize == dim else {
                    throw BlazeError(.corruptModel, "sparse level \(level) has dense size \(dm.denseSize), the dimension is \(dim)")
                }
            case .sparseCSR:
                guard let first = dm.segments.first, first >= 0, let last = dm.segments.last, last <= dm.indices.count,
                    zip(dm.segments, dm.segments.dropFirst()).allSatisfy({ $0 <= $1 }),
                    dm.indices.allSatisfy({ $0 >= 0 && $0 < dim })
                else {
                    throw BlazeError(.corruptModel, "sparse level \(level) has inconsistent CSR segments/indices for dimension \(dim)")
                }
            }
        }
        let strides = ShapeMath.strides(shape)
        let orderedStrides = order.map { strides[$0] }
        var out = [Float](repeating: 0, count: total)
        var next = 0
        // Legitimate traversals visit at most every position of every level once.
        var budget = (rank + 1) * total + 1024

        func visit(level: Int, parent: Int, offset: Int) throws {
            budget -= 1
            guard budget >= 0 else { throw BlazeError(.corruptModel, "sparse tensor metadata does not describe shape \(shape)") }
            if level == rank {
                guard next < values.count, offset >= 0, offset < total else {
                    throw BlazeError(.corruptModel, "sparse tensor stores \(values.count) values, its metadata needs more")
                }
                out[offset] = values[next]
                next += 1
                return
            }
            let dm = sparsity.dimMetadata[level]
            let stride = orderedStrides[level]
            switch dm.format {
            case .dense:
                let (base, o1) = parent.multipliedReportingOverflow(by: dm.denseSize)
                guard !o1 else { throw BlazeError(.corruptModel, "sparse tensor position overflows") }
                for i in 0..<dm.denseSize {
                    try visit(level: level + 1, parent: base + i, offset: offset + i * stride)
                }
            case .sparseCSR:
                guard parent >= 0, parent + 1 < dm.segments.count else {
                    throw BlazeError(.corruptModel, "sparse level \(level) has \(dm.segments.count) segments, needs entry \(parent + 1)")
                }
                for k in dm.segments[parent]..<dm.segments[parent + 1] {
                    try visit(level: level + 1, parent: k, offset: offset + dm.indices[k] * stride)
                }
            }
        }
        try visit(level: 0, parent: 0, offset: 0)
        guard next == values.count else {
            throw BlazeError(.corruptModel, "sparse tensor stores \(values.count) values, its metadata uses \(next)")
        }
        return out
    }

    /// Widens IEEE half-precision bits to Float (exact for every value, including subnormals,
    /// infinities and NaN payloads).
    static func widenHalf(_ h: UInt16) -> Float {
        let sign = UInt32(h & 0x8000) << 16
        let exponent = UInt32((h >> 10) & 0x1F)
        let mantissa = UInt32(h & 0x3FF)
        if exponent == 0 {
            // Zero or subnormal: mantissa × 2^-24 (exact in Float).
            let magnitude = Float(mantissa) * 0x1p-24
            return sign != 0 ? -magnitude : magnitude
        }
        if exponent == 0x1F {
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        }
        return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
    }
}
