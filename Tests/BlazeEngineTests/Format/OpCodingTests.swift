import Testing
@testable import BlazeEngine

/// `.bkm` op parameter blocks: every case round-trips, and the decoder refuses every bad value.
@Suite("Op coding")
struct OpCodingTests {
    /// Every `Op` case, and every raw value of every enum a parameter can hold.
    static let samples: [Op] = {
        var ops: [Op] = [
            .conv2D(Conv2DParams(strideH: 2, strideW: 1, dilationH: 3, dilationW: 65536, padding: .valid, activation: .relu6)),
            .depthwiseConv2D(
                DepthwiseConv2DParams(
                    strideH: 1, strideW: 2, dilationH: 1, dilationW: 2, depthMultiplier: 4,
                    padding: .same, activation: .reluMinus1To1)),
            .fullyConnected(FullyConnectedParams(activation: .relu, keepNumDims: true)),
            .fullyConnected(FullyConnectedParams()),
            .maxPool2D(Pool2DParams(filterH: 2, filterW: 3, strideH: 2, strideW: 1, padding: .same, activation: .none)),
            .averagePool2D(Pool2DParams(filterH: 7, filterW: 7, strideH: 7, strideW: 7, padding: .valid, activation: .relu)),
            .prelu,
            .pad(PadParams(paddings: [[0, 0], [1, 2], [3, 1 << 20], [0, 0]], value: -0.0)),
            .pad(PadParams(paddings: [], value: .infinity)),
            .reshape(ReshapeParams(shape: [1, 0, Int(Int32.max), 7])),
            .reshape(ReshapeParams(shape: [])),
            .concatenation(ConcatenationParams(axis: -8, activation: .relu6)),
            .concatenation(ConcatenationParams(axis: 7)),
            .resizeBilinear(ResizeBilinearParams(height: 1, width: 65536, alignCorners: true, halfPixelCenters: false)),
            .resizeBilinear(ResizeBilinearParams(height: 128, width: 3, alignCorners: false, halfPixelCenters: true)),
            .depthToSpace(DepthToSpaceParams(blockSize: 64)),
            .reduce(ReduceParams(.mean, axes: [1, 2, -1, 1], keepDims: true)),
            .reduce(ReduceParams(.sum, axes: [], keepDims: false)),
            .stridedSlice(
                StridedSliceParams(
                    begin: [0, -(1 << 30), 3], end: [1 << 30, -1, 0], strides: [1, -(1 << 20), 1 << 20],
                    beginMask: -1, endMask: Int(Int32.min), shrinkAxisMask: Int(Int32.max), offset: true)),
            .stridedSlice(StridedSliceParams(begin: [], end: [], strides: [])),
            .transpose(TransposeParams(perm: [3, 1, 0, 2])),
            .transpose(TransposeParams(perm: [])),
            .transposeConv2D(TransposeConv2DParams(strideH: 2, strideW: 65536, padding: .same)),
            .transposeConv2D(TransposeConv2DParams(strideH: 1, strideW: 3, padding: .valid)),
            .landmarksToTransformMatrix(
                LandmarksToTransformMatrixParams(
                    leftRotationIndex: 61, rightRotationIndex: 1 << 20, targetRotationRadians: -0.0, outputHeight: 16, outputWidth: 65536,
                    scaleX: 1.5, scaleY: .leastNonzeroMagnitude, subset: [0, 146, 91, 181])),
            .transformTensorBilinear(TransformTensorBilinearParams(outputHeight: 1, outputWidth: 16)),
            .transformLandmarks,
            .softmax(SoftmaxParams(beta: 1)),
            .softmax(SoftmaxParams(beta: -0.0)),
            .gather(GatherParams(axis: -8, indices: [0, Int(Int32.max)])),
            .gather(GatherParams(axis: 7, indices: [3])),
            .leakyRelu(LeakyReluParams(alpha: 0.2)),
            .leakyRelu(LeakyReluParams(alpha: -.greatestFiniteMagnitude))
        ]
        ops += BinaryKind.allCases.map { .binary(BinaryParams($0, activation: Activation.allCases[Int($0.rawValue) % 4])) }
        ops += UnaryKind.allCases.map { .unary($0) }
        ops += ReduceKind.allCases.map { .reduce(ReduceParams($0, axes: [0], keepDims: false)) }
        return ops
    }()

    @Test func everyCaseRoundTrips() throws {
        for op in Self.samples {
            let bytes = try op.encodedParameters()
            let decoded = try Op.decode(opcode: op.opcode, parameters: bytes)
            #expect(decoded == op, "\(op)")
        }
    }

    @Test func opcodesAreDistinctAndDense() {
        let codes = Set(Self.samples.map(\.opcode))
        #expect(codes == Set(0...22))
    }

    @Test func nanPadValueKeepsItsBits() throws {
        let value = Float(bitPattern: 0x7FC0_1234)
        let bytes = try Op.pad(PadParams(paddings: [[1, 1]], value: value)).encodedParameters()
        guard case .pad(let p) = try Op.decode(opcode: 8, parameters: bytes) else {
            Issue.record("not a pad"); return
        }
        #expect(p.value.bitPattern == 0x7FC0_1234)
    }

    /// A −0 alpha is stored as such (`==` equates it with +0, but LEAKY_RELU of +0 is then −0).
    @Test func leakyReluAlphaKeepsItsBits() throws {
        let bytes = try Op.leakyRelu(LeakyReluParams(alpha: -0.0)).encodedParameters()
        #expect(bytes == [0, 0, 0, 0x80])
        guard case .leakyRelu(let p) = try Op.decode(opcode: 22, parameters: bytes) else {
            Issue.record("not a LEAKY_RELU"); return
        }
        #expect(p.alpha.bitPattern == 0x8000_0000)
    }

    /// Every strict prefix of every block is refused with a typed error.
    @Test func truncatedBlocksThrow() throws {
        for op in Self.samples {
            let bytes = try op.encodedParameters()
            for n in 0..<bytes.count {
                expectCorrupt(opcode: op.opcode, Array(bytes.prefix(n)))
            }
            expectCorrupt(opcode: op.opcode, bytes + [0], "trailing")
        }
    }

    @Test func unknownOpcode() {
        expectCorrupt(opcode: 23, [], "unknown opcode 23")
        expectCorrupt(opcode: 255, [], "unknown opcode 255")
    }

    @Test func badEnumAndBoolValues() throws {
        let conv = try Op.conv2D(Conv2DParams(padding: .same)).encodedParameters()
        expectCorrupt(opcode: 0, patched(conv, at: 16, 2), "CONV_2D padding at byte 16 has unknown value 2")
        expectCorrupt(opcode: 0, patched(conv, at: 17, 4), "CONV_2D activation at byte 17 has unknown value 4")
        expectCorrupt(opcode: 2, [0, 2], "FULLY_CONNECTED keepNumDims at byte 1 is 2, expected 0 or 1")
        expectCorrupt(opcode: 5, [7, 0], "binary op kind at byte 0 has unknown value 7")
        expectCorrupt(opcode: 6, [11], "unary op kind at byte 0 has unknown value 11")
        expectCorrupt(opcode: 13, [4, 0, 0, 0, 0, 0], "reduce op kind at byte 0 has unknown value 4")
        let resize = try Op.resizeBilinear(ResizeBilinearParams(height: 2, width: 2)).encodedParameters()
        expectCorrupt(opcode: 11, patched(resize, at: 9, 255), "halfPixelCenters at byte 9 is 255")
    }

    @Test func outOfRangeValues() throws {
        let conv = try Op.conv2D(Conv2DParams(padding: .same)).encodedParameters()
        expectCorrupt(opcode: 0, patched(conv, at: 0, 0), "CONV_2D strideH at byte 0 is 0, outside 1...65536")
        expectCorrupt(opcode: 0, patched32(conv, at: 12, 65537), "CONV_2D dilationW at byte 12 is 65537")
        expectCorrupt(opcode: 12, le32(65), "DEPTH_TO_SPACE blockSize at byte 0 is 65, outside 1...64")
        expectCorrupt(opcode: 8, le32(1) + le32(UInt32(bitPattern: -1)) + le32(0) + le32(0), "PAD before[0] at byte 4 is -1")
        expectCorrupt(opcode: 8, le32(9), "PAD rank at byte 0 is 9, over the limit 8")
        expectCorrupt(opcode: 9, le32(UInt32.max), "RESHAPE rank at byte 0 is 4294967295, over the limit 8")
        expectCorrupt(opcode: 9, le32(2) + le32(1), "RESHAPE rank at byte 0 is 2, but only 4 bytes follow")
        expectCorrupt(opcode: 9, le32(1) + le32(UInt32(bitPattern: -3)), "RESHAPE shape[0] at byte 4 is -3")
        expectCorrupt(opcode: 10, le32(8) + [0], "CONCATENATION axis at byte 0 is 8, outside -8...7")
        expectCorrupt(opcode: 13, [0, 0] + le32(65), "MEAN axis count at byte 2 is 65, over the limit 64")
        expectCorrupt(opcode: 15, le32(2) + le32(0) + le32(2), "TRANSPOSE perm[1] at byte 8 is 2, outside 0...1")
        expectCorrupt(opcode: 16, le32(0) + le32(1) + [0], "TRANSPOSE_CONV_BIAS strideH at byte 0 is 0")
        expectCorrupt(opcode: 16, le32(1) + le32(1) + [2], "TRANSPOSE_CONV_BIAS padding")
        let l2tm = le32(1) + le32(2) + le32(0) + le32(16) + le32(16) + le32(0x3FC0_0000) + le32(0x3FC0_0000)
        expectCorrupt(opcode: 17, l2tm + le32(0), "subset is empty")
        expectCorrupt(opcode: 17, le32(1) + le32(2) + le32(0x7FC0_0000) + Array(l2tm.dropFirst(12)) + le32(1) + le32(0), "targetRotationRadians at byte 8 is nan")
        expectCorrupt(opcode: 18, le32(0) + le32(1), "TRANSFORM_TENSOR_BILINEAR outputHeight at byte 0 is 0")
        let slice = try Op.stridedSlice(StridedSliceParams(begin: [0], end: [1], strides: [1])).encodedParameters()
        expectCorrupt(opcode: 14, patched32(slice, at: 12, 0), "STRIDED_SLICE strides[0] at byte 12 is 0")
        expectCorrupt(opcode: 14, patched32(slice, at: 4, 1 << 30 + 1), "STRIDED_SLICE begin[0] at byte 4")
        expectCorrupt(opcode: 20, le32(0x7FC0_0000), "SOFTMAX beta at byte 0 is nan")
        expectCorrupt(opcode: 21, le32(1) + le32(0), "GATHER has no indices")
        expectCorrupt(opcode: 21, le32(1) + le32(1) + le32(UInt32(bitPattern: -1)), "GATHER indices[0] at byte 8 is -1")
        expectCorrupt(opcode: 22, le32(0x7FC0_0000), "LEAKY_RELU alpha at byte 0 is nan, expected a finite value")
        expectCorrupt(opcode: 22, le32(0xFF80_0000), "LEAKY_RELU alpha at byte 0 is -inf")
    }

    @Test func encoderRefusesWhatTheFormatCannotHold() {
        let cases: [(Op, String)] = [
            (.conv2D(Conv2DParams(strideH: 1 << 40, padding: .same)), "does not fit in 32 bits"),
            (.conv2D(Conv2DParams(strideH: 0, padding: .same)), "CONV_2D strideH at byte 0 is 0"),
            (.pad(PadParams(paddings: [[1, 2, 3]])), "expected (before, after)"),
            (.reshape(ReshapeParams(shape: [1, 1, 1, 1, 1, 1, 1, 1, 1])), "RESHAPE rank at byte 0 is 9"),
            (.stridedSlice(StridedSliceParams(begin: [0], end: [], strides: [1])), "1/0/1"),
            (.depthToSpace(DepthToSpaceParams(blockSize: -1)), "outside 1...64"),
            (.leakyRelu(LeakyReluParams(alpha: .infinity)), "LEAKY_RELU alpha at byte 0 is inf")
        ]
        for (op, fragment) in cases {
            do {
                _ = try op.encodedParameters()
                Issue.record("encoded \(op)")
            } catch let e as BlazeError {
                #expect(e.kind == .invalidInput)
                #expect(e.description.contains(fragment), "\(e)")
            } catch {
                Issue.record("untyped error \(error)")
            }
        }
    }

    // MARK: helpers

    func expectCorrupt(opcode: UInt8, _ bytes: [UInt8], _ fragment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let op = try Op.decode(opcode: opcode, parameters: bytes)
            Issue.record("decoded \(op) from \(bytes)", sourceLocation: sourceLocation)
        } catch let e as BlazeError {
            #expect(e.kind == .corruptModel, sourceLocation: sourceLocation)
            #expect(fragment.isEmpty || e.description.contains(fragment), "\(e)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
        }
    }

    func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    func patched(_ bytes: [UInt8], at i: Int, _ v: UInt8) -> [UInt8] {
        var b = bytes; b[i] = v; return b
    }

    func patched32(_ bytes: [UInt8], at i: Int, _ v: Int32) -> [UInt8] {
        var b = bytes
        b.replaceSubrange(i..<(i + 4), with: le32(UInt32(bitPattern: v)))
        return b
    }
}
