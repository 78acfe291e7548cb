/// `.bkm` encoding of `Op`: a one-byte opcode plus a self-contained parameter block.
///
/// Parameter blocks (all little-endian, no padding; `i32` is two's complement, `bool` is a `u8`
/// that must be 0 or 1, enums are their `u8` raw values):
///
/// | op | code | parameters |
/// |---|---|---|
/// | conv2D | 0 | i32 strideH, strideW, dilationH, dilationW (1...65536); u8 padding; u8 activation |
/// | depthwiseConv2D | 1 | i32 strideH, strideW, dilationH, dilationW, depthMultiplier (1...65536); u8 padding; u8 activation |
/// | fullyConnected | 2 | u8 activation; bool keepNumDims |
/// | maxPool2D | 3 | i32 filterH, filterW, strideH, strideW (1...65536); u8 padding; u8 activation |
/// | averagePool2D | 4 | same as maxPool2D |
/// | binary | 5 | u8 BinaryKind; u8 activation |
/// | unary | 6 | u8 UnaryKind |
/// | prelu | 7 | (none) |
/// | pad | 8 | u32 rank (≤ 8); rank × (i32 before, i32 after) (0...2^20); u32 bit pattern of the Float pad value |
/// | reshape | 9 | u32 rank (≤ 8); rank × i32 dim (0...2^31-1) |
/// | concatenation | 10 | i32 axis (-8...7); u8 activation |
/// | resizeBilinear | 11 | i32 height, width (1...65536); bool alignCorners; bool halfPixelCenters |
/// | depthToSpace | 12 | i32 blockSize (1...64) |
/// | reduce | 13 | u8 ReduceKind; bool keepDims; u32 axis count (≤ 64); count × i32 axis (-8...7) |
/// | stridedSlice | 14 | u32 rank (≤ 8); rank × i32 begin (±2^30); rank × i32 end (±2^30); rank × i32 stride (±2^20, ≠ 0); i32 beginMask, endMask, shrinkAxisMask; bool offset |
/// | transpose | 15 | u32 rank (≤ 8); rank × i32 perm (0..<rank) |
/// | transposeConv2D | 16 | i32 strideH, strideW (1...65536); u8 padding |
/// | landmarksToTransformMatrix | 17 | i32 left, right rotation index (0...2^20); u32 bits of targetRotationRadians; i32 outputHeight, outputWidth (1...65536); u32 bits of scaleX, scaleY; u32 subset count (1...4096); count × i32 index (0...2^20) |
/// | transformTensorBilinear | 18 | i32 outputHeight, outputWidth (1...65536) |
/// | transformLandmarks | 19 | (none) |
/// | softmax | 20 | u32 bits of beta (finite) |
/// | gather | 21 | i32 axis (-8...7); u32 index count (1...65536); count × i32 index (0...2^31-1) |
/// | leakyRelu | 22 | u32 bits of alpha (finite) |
///
/// The ranges are the engine's own limits, so no runnable graph is refused. Decoding checks every
/// raw value, count and range, and that the block is consumed exactly. Encoding decodes its own
/// output, so the writer can never produce a block the reader refuses.
extension Op {
    /// Stable opcode in `.bkm` files. Never renumber: append new cases with new codes.
    public var opcode: UInt8 {
        switch self {
        case .conv2D: return 0
        case .depthwiseConv2D: return 1
        case .fullyConnected: return 2
        case .maxPool2D: return 3
        case .averagePool2D: return 4
        case .binary: return 5
        case .unary: return 6
        case .prelu: return 7
        case .pad: return 8
        case .reshape: return 9
        case .concatenation: return 10
        case .resizeBilinear: return 11
        case .depthToSpace: return 12
        case .reduce: return 13
        case .stridedSlice: return 14
        case .transpose: return 15
        case .transposeConv2D: return 16
        case .landmarksToTransformMatrix: return 17
        case .transformTensorBilinear: return 18
        case .transformLandmarks: return 19
        case .softmax: return 20
        case .gather: return 21
        case .leakyRelu: return 22
        }
    }

    /// The parameter block of this op; throws `BlazeError(.invalidInput)` if a value is outside
    /// what the format stores (see the table above).
    public func encodedParameters() throws -> [UInt8] {
        var w = LittleEndianWriter()
        switch self {
        case .conv2D(let p):
            for (v, what) in [(p.strideH, "strideH"), (p.strideW, "strideW"), (p.dilationH, "dilationH"), (p.dilationW, "dilationW")] {
                try w.i32(v, "\(name) \(what)")
            }
            w.u8(p.padding.rawValue); w.u8(p.activation.rawValue)
        case .depthwiseConv2D(let p):
            for (v, what) in [
                (p.strideH, "strideH"), (p.strideW, "strideW"), (p.dilationH, "dilationH"), (p.dilationW, "dilationW"),
                (p.depthMultiplier, "depthMultiplier")
            ] {
                try w.i32(v, "\(name) \(what)")
            }
            w.u8(p.padding.rawValue); w.u8(p.activation.rawValue)
        case .fullyConnected(let p):
            w.u8(p.activation.rawValue); w.bool(p.keepNumDims)
        case .maxPool2D(let p), .averagePool2D(let p):
            for (v, what) in [(p.filterH, "filterH"), (p.filterW, "filterW"), (p.strideH, "strideH"), (p.strideW, "strideW")] {
                try w.i32(v, "\(name) \(what)")
            }
            w.u8(p.padding.rawValue); w.u8(p.activation.rawValue)
        case .binary(let p):
            w.u8(p.kind.rawValue); w.u8(p.activation.rawValue)
        case .unary(let k):
            w.u8(k.rawValue)
        case .prelu:
            break
        case .pad(let p):
            try w.u32(p.paddings.count, "PAD rank")
            for (d, pair) in p.paddings.enumerated() {
                guard pair.count == 2 else {
                    throw BlazeError(.invalidInput, "PAD paddings[\(d)] has \(pair.count) values, expected (before, after)")
                }
                try w.i32(pair[0], "PAD before[\(d)]"); try w.i32(pair[1], "PAD after[\(d)]")
            }
            w.u32(p.value.bitPattern)
        case .reshape(let p):
            try w.u32(p.shape.count, "RESHAPE rank")
            for (d, v) in p.shape.enumerated() { try w.i32(v, "RESHAPE shape[\(d)]") }
        case .concatenation(let p):
            try w.i32(p.axis, "CONCATENATION axis"); w.u8(p.activation.rawValue)
        case .resizeBilinear(let p):
            try w.i32(p.height, "RESIZE_BILINEAR height"); try w.i32(p.width, "RESIZE_BILINEAR width")
            w.bool(p.alignCorners); w.bool(p.halfPixelCenters)
        case .depthToSpace(let p):
            try w.i32(p.blockSize, "DEPTH_TO_SPACE blockSize")
        case .reduce(let p):
            w.u8(p.kind.rawValue); w.bool(p.keepDims)
            try w.u32(p.axes.count, "\(name) axis count")
            for (i, a) in p.axes.enumerated() { try w.i32(a, "\(name) axes[\(i)]") }
        case .stridedSlice(let p):
            guard p.begin.count == p.end.count, p.end.count == p.strides.count else {
                throw BlazeError(.invalidInput, "STRIDED_SLICE begin/end/strides have \(p.begin.count)/\(p.end.count)/\(p.strides.count) values")
            }
            try w.u32(p.begin.count, "STRIDED_SLICE rank")
            for (list, what) in [(p.begin, "begin"), (p.end, "end"), (p.strides, "strides")] {
                for (d, v) in list.enumerated() { try w.i32(v, "STRIDED_SLICE \(what)[\(d)]") }
            }
            try w.i32(p.beginMask, "STRIDED_SLICE beginMask"); try w.i32(p.endMask, "STRIDED_SLICE endMask")
            try w.i32(p.shrinkAxisMask, "STRIDED_SLICE shrinkAxisMask"); w.bool(p.offset)
        case .transpose(let p):
            try w.u32(p.perm.count, "TRANSPOSE rank")
            for (d, v) in p.perm.enumerated() { try w.i32(v, "TRANSPOSE perm[\(d)]") }
        case .transposeConv2D(let p):
            try w.i32(p.strideH, "\(name) strideH"); try w.i32(p.strideW, "\(name) strideW")
            w.u8(p.padding.rawValue)
        case .landmarksToTransformMatrix(let p):
            try w.i32(p.leftRotationIndex, "\(name) leftRotationIndex"); try w.i32(p.rightRotationIndex, "\(name) rightRotationIndex")
            w.u32(p.targetRotationRadians.bitPattern)
            try w.i32(p.outputHeight, "\(name) outputHeight"); try w.i32(p.outputWidth, "\(name) outputWidth")
            w.u32(p.scaleX.bitPattern); w.u32(p.scaleY.bitPattern)
            try w.u32(p.subset.count, "\(name) subset count")
            for (i, v) in p.subset.enumerated() { try w.i32(v, "\(name) subset[\(i)]") }
        case .transformTensorBilinear(let p):
            try w.i32(p.outputHeight, "\(name) outputHeight"); try w.i32(p.outputWidth, "\(name) outputWidth")
        case .transformLandmarks:
            break
        case .softmax(let p):
            w.u32(p.beta.bitPattern)
        case .gather(let p):
            try w.i32(p.axis, "GATHER axis")
            try w.u32(p.indices.count, "GATHER index count")
            for (i, v) in p.indices.enumerated() { try w.i32(v, "GATHER indices[\(i)]") }
        case .leakyRelu(let p):
            w.u32(p.alpha.bitPattern)
        }
        // Round trip through the decoder so the writer and the reader can never disagree.
        let decoded: Op
        do {
            decoded = try Op.decode(opcode: opcode, parameters: w.bytes)
        } catch let e as BlazeError {
            throw BlazeError(.invalidInput, "cannot store \(name): \(e.message)")
        }
        guard decoded.encodingIsIdentical(to: self) else {
            throw BlazeError(.invalidInput, "\(name) parameters do not survive encoding")
        }
        return w.bytes
    }

    /// Equality that treats the PAD value by bit pattern (so a NaN pad value still round-trips).
    private func encodingIsIdentical(to other: Op) -> Bool {
        if case .pad(let a) = self, case .pad(let b) = other {
            return a.paddings == b.paddings && a.value.bitPattern == b.value.bitPattern
        }
        return self == other
    }
}

extension Op {
    static let windowRange = 1...65536
    static let axisRange = -Graph.Limits.maxRank...(Graph.Limits.maxRank - 1)

    /// Decodes the parameter block of `opcode` from `c` (the caller checks the block is consumed).
    static func decode(opcode: UInt8, parameters c: inout ByteCursor) throws -> Op {
        let maxRank = Graph.Limits.maxRank
        switch opcode {
        case 0:
            let sh = try c.i32("CONV_2D strideH", in: windowRange), sw = try c.i32("CONV_2D strideW", in: windowRange)
            let dh = try c.i32("CONV_2D dilationH", in: windowRange), dw = try c.i32("CONV_2D dilationW", in: windowRange)
            let padding = try c.enumeration(Padding.self, "CONV_2D padding")
            let activation = try c.enumeration(Activation.self, "CONV_2D activation")
            return .conv2D(Conv2DParams(strideH: sh, strideW: sw, dilationH: dh, dilationW: dw, padding: padding, activation: activation))
        case 1:
            let sh = try c.i32("DEPTHWISE_CONV_2D strideH", in: windowRange), sw = try c.i32("DEPTHWISE_CONV_2D strideW", in: windowRange)
            let dh = try c.i32("DEPTHWISE_CONV_2D dilationH", in: windowRange), dw = try c.i32("DEPTHWISE_CONV_2D dilationW", in: windowRange)
            let m = try c.i32("DEPTHWISE_CONV_2D depthMultiplier", in: windowRange)
            let padding = try c.enumeration(Padding.self, "DEPTHWISE_CONV_2D padding")
            let activation = try c.enumeration(Activation.self, "DEPTHWISE_CONV_2D activation")
            return .depthwiseConv2D(
                DepthwiseConv2DParams(
                    strideH: sh, strideW: sw, dilationH: dh, dilationW: dw,
                    depthMultiplier: m, padding: padding, activation: activation))
        case 2:
            let activation = try c.enumeration(Activation.self, "FULLY_CONNECTED activation")
            return .fullyConnected(FullyConnectedParams(activation: activation, keepNumDims: try c.bool("FULLY_CONNECTED keepNumDims")))
        case 3, 4:
            let what = opcode == 3 ? "MAX_POOL_2D" : "AVERAGE_POOL_2D"
            let fh = try c.i32("\(what) filterH", in: windowRange), fw = try c.i32("\(what) filterW", in: windowRange)
            let sh = try c.i32("\(what) strideH", in: windowRange), sw = try c.i32("\(what) strideW", in: windowRange)
            let padding = try c.enumeration(Padding.self, "\(what) padding")
            let activation = try c.enumeration(Activation.self, "\(what) activation")
            let p = Pool2DParams(filterH: fh, filterW: fw, strideH: sh, strideW: sw, padding: padding, activation: activation)
            return opcode == 3 ? .maxPool2D(p) : .averagePool2D(p)
        case 5:
            let kind = try c.enumeration(BinaryKind.self, "binary op kind")
            return .binary(BinaryParams(kind, activation: try c.enumeration(Activation.self, "\(kind.name) activation")))
        case 6:
            return .unary(try c.enumeration(UnaryKind.self, "unary op kind"))
        case 7:
            return .prelu
        case 8:
            let paddings = try c.records("PAD rank", max: maxRank, minBytesEach: 8) { c, d in
                [try c.i32("PAD before[\(d)]", in: 0...(1 << 20)), try c.i32("PAD after[\(d)]", in: 0...(1 << 20))]
            }
            return .pad(PadParams(paddings: paddings, value: Float(bitPattern: try c.u32("PAD value"))))
        case 9:
            let shape = try c.records("RESHAPE rank", max: maxRank, minBytesEach: 4) { c, d in
                try c.i32("RESHAPE shape[\(d)]", in: 0...ModelFile.Layout.maxDimension)
            }
            return .reshape(ReshapeParams(shape: shape))
        case 10:
            let axis = try c.i32("CONCATENATION axis", in: axisRange)
            return .concatenation(ConcatenationParams(axis: axis, activation: try c.enumeration(Activation.self, "CONCATENATION activation")))
        case 11:
            let h = try c.i32("RESIZE_BILINEAR height", in: windowRange), w = try c.i32("RESIZE_BILINEAR width", in: windowRange)
            let align = try c.bool("RESIZE_BILINEAR alignCorners"), half = try c.bool("RESIZE_BILINEAR halfPixelCenters")
            return .resizeBilinear(ResizeBilinearParams(height: h, width: w, alignCorners: align, halfPixelCenters: half))
        case 12:
            return .depthToSpace(DepthToSpaceParams(blockSize: try c.i32("DEPTH_TO_SPACE blockSize", in: 1...64)))
        case 13:
            let kind = try c.enumeration(ReduceKind.self, "reduce op kind")
            let keepDims = try c.bool("\(kind.name) keepDims")
            let axes = try c.records("\(kind.name) axis count", max: 64, minBytesEach: 4) { c, i in
                try c.i32("\(kind.name) axes[\(i)]", in: axisRange)
            }
            return .reduce(ReduceParams(kind, axes: axes, keepDims: keepDims))
        case 14:
            let rank = try c.count("STRIDED_SLICE rank", max: maxRank, minBytesEach: 12)
            var begin: [Int] = [], end: [Int] = [], strides: [Int] = []
            for d in 0..<rank { begin.append(try c.i32("STRIDED_SLICE begin[\(d)]", in: -(1 << 30)...(1 << 30))) }
            for d in 0..<rank { end.append(try c.i32("STRIDED_SLICE end[\(d)]", in: -(1 << 30)...(1 << 30))) }
            for d in 0..<rank {
                let at = c.position
                let s = try c.i32("STRIDED_SLICE strides[\(d)]", in: -(1 << 20)...(1 << 20))
                guard s != 0 else { throw c.error("STRIDED_SLICE strides[\(d)] at byte \(at) is 0") }
                strides.append(s)
            }
            let beginMask = try c.i32("STRIDED_SLICE beginMask"), endMask = try c.i32("STRIDED_SLICE endMask")
            let shrink = try c.i32("STRIDED_SLICE shrinkAxisMask"), offset = try c.bool("STRIDED_SLICE offset")
            return .stridedSlice(
                StridedSliceParams(
                    begin: begin, end: end, strides: strides, beginMask: beginMask,
                    endMask: endMask, shrinkAxisMask: shrink, offset: offset))
        case 15:
            let rank = try c.count("TRANSPOSE rank", max: maxRank, minBytesEach: 4)
            var perm: [Int] = []
            for d in 0..<rank { perm.append(try c.i32("TRANSPOSE perm[\(d)]", in: 0...max(rank - 1, 0))) }
            return .transpose(TransposeParams(perm: perm))
        case 16:
            let sh = try c.i32("TRANSPOSE_CONV_BIAS strideH", in: windowRange), sw = try c.i32("TRANSPOSE_CONV_BIAS strideW", in: windowRange)
            let padding = try c.enumeration(Padding.self, "TRANSPOSE_CONV_BIAS padding")
            return .transposeConv2D(TransposeConv2DParams(strideH: sh, strideW: sw, padding: padding))
        case 17:
            let what = "LANDMARKS_TO_TRANSFORM_MATRIX"
            let left = try c.i32("\(what) leftRotationIndex", in: 0...(1 << 20)), right = try c.i32("\(what) rightRotationIndex", in: 0...(1 << 20))
            let target = try c.finiteFloat("\(what) targetRotationRadians")
            let h = try c.i32("\(what) outputHeight", in: windowRange), w = try c.i32("\(what) outputWidth", in: windowRange)
            let sx = try c.finiteFloat("\(what) scaleX"), sy = try c.finiteFloat("\(what) scaleY")
            let n = try c.count("\(what) subset count", max: 4096, minBytesEach: 4)
            guard n >= 1 else { throw c.error("\(what) subset is empty") }
            var subset: [Int] = []
            for i in 0..<n { subset.append(try c.i32("\(what) subset[\(i)]", in: 0...(1 << 20))) }
            return .landmarksToTransformMatrix(
                LandmarksToTransformMatrixParams(
                    leftRotationIndex: left, rightRotationIndex: right, targetRotationRadians: target,
                    outputHeight: h, outputWidth: w, scaleX: sx, scaleY: sy, subset: subset))
        case 18:
            let h = try c.i32("TRANSFORM_TENSOR_BILINEAR outputHeight", in: windowRange)
            let w = try c.i32("TRANSFORM_TENSOR_BILINEAR outputWidth", in: windowRange)
            return .transformTensorBilinear(TransformTensorBilinearParams(outputHeight: h, outputWidth: w))
        case 19:
            return .transformLandmarks
        case 20:
            return .softmax(SoftmaxParams(beta: try c.finiteFloat("SOFTMAX beta")))
        case 21:
            let axis = try c.i32("GATHER axis", in: axisRange)
            let n = try c.count("GATHER index count", max: 65536, minBytesEach: 4)
            guard n >= 1 else { throw c.error("GATHER has no indices") }
            var indices: [Int] = []
            for i in 0..<n { indices.append(try c.i32("GATHER indices[\(i)]", in: 0...ModelFile.Layout.maxDimension)) }
            return .gather(GatherParams(axis: axis, indices: indices))
        case 22:
            return .leakyRelu(LeakyReluParams(alpha: try c.finiteFloat("LEAKY_RELU alpha")))
        default:
            throw c.error("unknown opcode \(opcode)")
        }
    }

    /// Decodes a standalone parameter block (tests and tools); the block must be consumed exactly.
    static func decode(opcode: UInt8, parameters: [UInt8]) throws -> Op {
        try parameters.withUnsafeBytes { raw in
            var c = ByteCursor(raw, from: 0, to: raw.count, section: "parameters of opcode \(opcode)")
            let op = try decode(opcode: opcode, parameters: &c)
            try c.expectEnd()
            return op
        }
    }
}
