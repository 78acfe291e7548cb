import BlazeEngine
import Testing
@testable import BlazeConvert

/// One tiny TFLite flatbuffer per builtin (built with `TinyTFLite`), converted and compared with
/// the expected `Op`, node inputs and shapes.
@Suite struct TFLiteTranslationTests {
    typealias M = TinyTFLite

    /// Converts and returns the graph and its last node.
    private func convert(_ m: M, name: String = "tiny.tflite") throws -> (Graph, Node) {
        let g = try TFLiteConverter.convert(tfliteBytes: m.bytes(), modelName: name)
        return (g, try #require(g.nodes.last))
    }

    /// A model with one op on input `x` of `shape`; `extra` adds parameter tensors and returns input indices.
    private func single(
        _ code: Int32, input shape: [Int], output outShape: [Int], optionsType: UInt8 = 0,
        options: [(id: Int, field: FBField)]? = nil,
        extra: (inout M) -> [Int] = { _ in [] }
    ) -> M {
        var m = M()
        let x = m.input("x", shape)
        let others = extra(&m)
        let y = m.tensor("y", outShape)
        m.op(code, [x] + others, [y], optionsType: optionsType, options: options)
        m.outputs = [y]
        return m
    }

    // MARK: Windowed ops

    @Test func conv2DWithFp16WeightsAndFusedRelu6() throws {
        var m = M()
        let x = m.input("input", [1, 8, 8, 3])
        let w = m.fp16Weights("w", [4, 3, 3, 3], (0..<108).map { Float($0) * 0.01 - 0.5 })
        let b = m.fp16Weights("b", [4], [0.1, 0.2, 0.3, 0.4])
        let y = m.tensor("conv", [1, 4, 4, 4])
        m.op(M.conv2D, [x, w, b], [y], optionsType: 1, options: [(0, .i8(0)), (1, .i32(2)), (2, .i32(2)), (3, .i8(3))])
        m.outputs = [y]
        let (g, node) = try convert(m)
        #expect(node.op == .conv2D(Conv2DParams(strideH: 2, strideW: 2, padding: .same, activation: .relu6)))
        #expect(g.nodes.count == 1)
        // Tensors: input, then the node's inputs (weights, bias) and output; fp16 sources are dropped.
        #expect(g.tensors.map(\.name) == ["input", "w_dequantize", "b_dequantize", "conv"])
        #expect(g.inputs == [0] && g.outputs == [3] && node.inputs == [0, 1, 2] && node.outputs == [3])
        #expect(g.constants.count == 2 && g.constants.allSatisfy { $0.storage == .float16 })
        let weights = try #require(g.tensors[1].constant.map { g.constants[$0] })
        #expect(weights.shape == [4, 3, 3, 3])
        #expect(weights.values == (0..<108).map { Float(Float16(Float($0) * 0.01 - 0.5)) })
        #expect(g.metadata["source.name"] == "tiny.tflite")
        #expect(g.metadata["converter"] == "BlazeConvert 1")
    }

    @Test func conv2DWithoutBiasAndWithDilation() throws {
        var m = M()
        let x = m.input("x", [1, 9, 9, 2])
        let w = m.float32Constant("w", [3, 3, 3, 2], Array(repeating: 1, count: 54))
        let y = m.tensor("y", [1, 5, 5, 3])
        m.op(
            M.conv2D, [x, w, -1], [y], optionsType: 1,
            options: [(0, .i8(1)), (1, .i32(1)), (2, .i32(1)), (4, .i32(2)), (5, .i32(2))])
        m.outputs = [y]
        let (g, node) = try convert(m)
        #expect(node.op == .conv2D(Conv2DParams(dilationH: 2, dilationW: 2, padding: .valid)))
        #expect(node.inputs.count == 2)
        #expect(g.constants[0].storage == .float32)
    }

    @Test func depthwiseWithMultiplier() throws {
        var m = M()
        let x = m.input("x", [1, 6, 6, 2])
        let w = m.fp16Weights("w", [1, 3, 3, 4], Array(repeating: 0.5, count: 36))
        let b = m.fp16Weights("b", [4], [0, 0, 0, 0])
        let y = m.tensor("y", [1, 3, 3, 4])
        m.op(
            M.depthwiseConv2D, [x, w, b], [y], optionsType: 2,
            options: [(0, .i8(0)), (1, .i32(2)), (2, .i32(2)), (3, .i32(2)), (4, .i8(1))])
        m.outputs = [y]
        let (_, node) = try convert(m)
        #expect(node.op == .depthwiseConv2D(DepthwiseConv2DParams(strideH: 2, strideW: 2, depthMultiplier: 2, padding: .same, activation: .relu)))
    }

    @Test func dilatedDepthwiseWithMultiplierIsUnsupported() throws {
        var m = M()
        let x = m.input("x", [1, 9, 9, 2])
        let w = m.fp16Weights("w", [1, 3, 3, 4], Array(repeating: 0.5, count: 36))
        let y = m.tensor("y", [1, 5, 5, 4])
        m.op(
            M.depthwiseConv2D, [x, w, -1], [y], optionsType: 2,
            options: [(0, .i8(1)), (1, .i32(1)), (2, .i32(1)), (3, .i32(2)), (5, .i32(2)), (6, .i32(2))])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes(), modelName: "dw.tflite"))
        #expect(e.kind == .unsupported)
        #expect(e.message.contains("dw.tflite") && e.message.contains("operator 1") && e.message.contains("DEPTHWISE_CONV_2D"))
    }

    @Test func pools() throws {
        for (code, isMax) in [(M.maxPool2D, true), (M.averagePool2D, false)] {
            let m = single(
                code, input: [1, 7, 7, 3], output: [1, 4, 4, 3], optionsType: 5,
                options: [(0, .i8(0)), (1, .i32(2)), (2, .i32(2)), (3, .i32(2)), (4, .i32(2))])
            let (_, node) = try convert(m)
            let p = Pool2DParams(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .same)
            #expect(node.op == (isMax ? .maxPool2D(p) : .averagePool2D(p)))
        }
    }

    @Test func fullyConnected() throws {
        for keep in [false, true] {
            var m = M()
            let x = m.input("x", [1, 2, 8])
            let w = m.fp16Weights("w", [5, 8], Array(repeating: 0.25, count: 40))
            let b = m.fp16Weights("b", [5], Array(repeating: 1, count: 5))
            let y = m.tensor("y", keep ? [1, 2, 5] : [2, 5])
            m.op(M.fullyConnected, [x, w, b], [y], optionsType: 8, options: [(0, .i8(2)), (2, .bool(keep))])
            m.outputs = [y]
            let (_, node) = try convert(m)
            #expect(node.op == .fullyConnected(FullyConnectedParams(activation: .reluMinus1To1, keepNumDims: keep)))
            #expect(node.inputs.count == 3)
        }
    }

    @Test func shuffledFullyConnectedWeightsAreUnsupported() throws {
        var m = M()
        let x = m.input("x", [1, 8])
        let w = m.fp16Weights("w", [5, 8], Array(repeating: 0.25, count: 40))
        let y = m.tensor("y", [1, 5])
        m.op(M.fullyConnected, [x, w], [y], optionsType: 8, options: [(1, .i8(1))])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes()))
        #expect(e.kind == .unsupported && e.message.contains("FULLY_CONNECTED"))
    }

    // MARK: Elementwise

    @Test func binaryOps() throws {
        let cases: [(Int32, BinaryKind, UInt8?)] = [
            (M.add, .add, 11), (M.sub, .sub, 28), (M.mul, .mul, 21), (M.div, .div, 29),
            (M.squaredDifference, .squaredDifference, nil), (M.maximum, .maximum, nil), (M.minimum, .minimum, nil)
        ]
        for (code, kind, optionsType) in cases {
            var m = M()
            let a = m.input("a", [1, 4, 4, 3])
            let b = m.fp16Weights("b", [3], [1, 2, 3])
            let y = m.tensor("y", [1, 4, 4, 3])
            m.op(code, [a, b], [y], optionsType: optionsType ?? 0, options: optionsType.map { _ in [(0, .i8(1))] })
            m.outputs = [y]
            let (_, node) = try convert(m)
            #expect(node.op == .binary(BinaryParams(kind, activation: optionsType == nil ? .none : .relu)), "\(kind)")
        }
    }

    @Test func binaryWithScalarConstantBroadcasts() throws {
        var m = M()
        let a = m.input("a", [1, 97, 1])
        let s = m.fp16Weights("eps", [], [1e-3])
        let y = m.tensor("y", [1, 97, 1])
        m.op(M.add, [a, s], [y], optionsType: 11, options: [])
        m.outputs = [y]
        let (g, node) = try convert(m)
        #expect(node.op == .binary(BinaryParams(.add)))
        #expect(g.tensors[node.inputs[1]].shape == [])
        #expect(g.constants[0].values == [Float(Float16(Float(1e-3)))])
    }

    @Test func unaryOps() throws {
        let cases: [(Int32, UnaryKind)] = [
            (M.relu, .relu), (M.relu6, .relu6), (M.reluN1To1, .reluMinus1To1), (M.logistic, .logistic), (M.tanh, .tanh),
            (M.neg, .neg), (M.sqrt, .sqrt), (M.rsqrt, .rsqrt), (M.abs, .abs), (M.exp, .exp)
        ]
        for (code, kind) in cases {
            let (_, node) = try convert(single(code, input: [1, 3, 5], output: [1, 3, 5]))
            #expect(node.op == .unary(kind))
        }
    }

    @Test func prelu() throws {
        var m = M()
        let x = m.input("x", [1, 4, 4, 3])
        let alpha = m.fp16Weights("alpha", [1, 1, 3], [0.1, 0.2, 0.3])
        let y = m.tensor("y", [1, 4, 4, 3])
        m.op(M.prelu, [x, alpha], [y])
        m.outputs = [y]
        let (_, node) = try convert(m)
        #expect(node.op == .prelu && node.inputs.count == 2)
    }

    // MARK: Shape ops with integer parameters

    @Test func padAndPadV2() throws {
        var (g, node) = try convert(
            single(M.pad, input: [1, 4, 4, 3], output: [1, 6, 6, 8], optionsType: 22, options: []) { m in
                [m.int32Constant("paddings", [0, 0, 1, 1, 1, 1, 0, 5], shape: [4, 2])]
            })
        #expect(node.op == .pad(PadParams(paddings: [[0, 0], [1, 1], [1, 1], [0, 5]])))
        #expect(g.tensors.count == 2 && g.constants.isEmpty)  // the paddings tensor is not in the graph
        (g, node) = try convert(
            single(M.padV2, input: [1, 4, 4, 3], output: [1, 4, 5, 3]) { m in
                [m.int64Constant("paddings", [0, 0, 0, 0, 0, 1, 0, 0], shape: [4, 2]), m.float32Constant("v", [], [-1])]
            })
        #expect(node.op == .pad(PadParams(paddings: [[0, 0], [0, 0], [0, 1], [0, 0]], value: -1)))
    }

    @Test func reshapeFromTensorOptionsOrOutputShape() throws {
        var (_, node) = try convert(
            single(M.reshape, input: [1, 12, 12, 6], output: [1, 864, 1]) { m in
                [m.int32Constant("shape", [1, -1, 1])]
            })
        #expect(node.op == .reshape(ReshapeParams(shape: [1, 864, 1])))
        (_, node) = try convert(
            single(
                M.reshape, input: [1, 16, 16, 32], output: [1, 512, 16], optionsType: 17,
                options: [(0, .offset(.ints32([1, 512, 16])))]))
        #expect(node.op == .reshape(ReshapeParams(shape: [1, 512, 16])))
        (_, node) = try convert(single(M.reshape, input: [1, 1, 1, 52], output: [1, 52]))
        #expect(node.op == .reshape(ReshapeParams(shape: [1, 52])))
        let bad = single(M.reshape, input: [1, 5], output: [2, 3]) { m in [m.int32Constant("shape", [2, -1])] }
        #expect(TFLiteTestSupport.conversionError(bad.bytes())?.kind == .shapeMismatch)
    }

    @Test func concatenation() throws {
        var m = M()
        let a = m.input("a", [1, 512, 16])
        let b = m.input("b", [1, 384, 16])
        let y = m.tensor("y", [1, 896, 16])
        m.op(M.concatenation, [a, b], [y], optionsType: 10, options: [(0, .i32(-2)), (1, .i8(0))])
        m.outputs = [y]
        let (g, node) = try convert(m)
        #expect(node.op == .concatenation(ConcatenationParams(axis: -2)))
        #expect(g.inputs == [0, 1] && node.inputs == [0, 1])
    }

    @Test func resizeBilinear() throws {
        let (_, node) = try convert(
            single(
                M.resizeBilinear, input: [1, 6, 6, 8], output: [1, 12, 12, 8], optionsType: 15,
                options: [(2, .bool(false)), (3, .bool(true))]
            ) { m in
                [m.int32Constant("size", [12, 12])]
            })
        #expect(node.op == .resizeBilinear(ResizeBilinearParams(height: 12, width: 12, halfPixelCenters: true)))
    }

    @Test func depthToSpace() throws {
        let (_, node) = try convert(
            single(
                M.depthToSpace, input: [1, 6, 6, 8], output: [1, 12, 12, 2], optionsType: 94,
                options: [(0, .i32(2))]))
        #expect(node.op == .depthToSpace(DepthToSpaceParams(blockSize: 2)))
    }

    @Test func reductions() throws {
        let cases: [(Int32, ReduceKind)] = [(M.mean, .mean), (M.sum, .sum), (M.reduceMax, .max)]
        for (code, kind) in cases {
            var (_, node) = try convert(
                single(
                    code, input: [1, 7, 7, 32], output: [1, 32], optionsType: 27,
                    options: [(0, .bool(false))]
                ) { m in [m.int32Constant("axes", [1, 2])] })
            #expect(node.op == .reduce(ReduceParams(kind, axes: [1, 2], keepDims: false)))
            (_, node) = try convert(
                single(
                    code, input: [1, 146, 2], output: [1, 146, 1], optionsType: 27,
                    options: [(0, .bool(true))]
                ) { m in [m.int32Constant("axis", [-1], shape: [])] })
            #expect(node.op == .reduce(ReduceParams(kind, axes: [-1], keepDims: true)))
        }
    }

    @Test func stridedSlice() throws {
        let (_, node) = try convert(
            single(
                M.stridedSlice, input: [1, 52], output: [52], optionsType: 32,
                options: [(0, .i32(2)), (1, .i32(2)), (4, .i32(1))]
            ) { m in
                [m.int32Constant("begin", [0, 0]), m.int32Constant("end", [1, 52]), m.int32Constant("strides", [1, 1])]
            })
        #expect(
            node.op
                == .stridedSlice(
                    StridedSliceParams(
                        begin: [0, 0], end: [1, 52], strides: [1, 1],
                        beginMask: 2, endMask: 2, shrinkAxisMask: 1)))
        let ellipsis = single(M.stridedSlice, input: [1, 52], output: [52], optionsType: 32, options: [(2, .i32(1))]) { m in
            [m.int32Constant("begin", [0, 0]), m.int32Constant("end", [1, 52]), m.int32Constant("strides", [1, 1])]
        }
        let e = try #require(TFLiteTestSupport.conversionError(ellipsis.bytes()))
        #expect(e.kind == .unsupported && e.message.contains("STRIDED_SLICE") && e.message.contains("ellipsis"))
    }

    @Test func transpose() throws {
        let (_, node) = try convert(
            single(M.transpose, input: [1, 1, 97, 64], output: [1, 1, 64, 97]) { m in
                [m.int32Constant("perm", [0, 1, 3, 2])]
            })
        #expect(node.op == .transpose(TransposeParams(perm: [0, 1, 3, 2])))
    }

    @Test func softmaxGatherAndReduceMin() throws {
        let (_, softmax) = try convert(
            single(M.softmax, input: [1, 9], output: [1, 9], optionsType: 9, options: [(0, .f32(0.5))]) { _ in [] })
        #expect(softmax.op == .softmax(SoftmaxParams(beta: 0.5)))
        let (_, gather) = try convert(
            single(M.gather, input: [1, 21, 3], output: [1, 6, 3], optionsType: 23, options: [(0, .i32(1))]) { m in
                [m.int32Constant("indices", [0, 1, 5, 9, 13, 17])]
            })
        #expect(gather.op == .gather(GatherParams(axis: 1, indices: [0, 1, 5, 9, 13, 17])))
        let (_, reduce) = try convert(
            single(M.reduceMin, input: [1, 21], output: [1], optionsType: 27, options: [(0, .bool(false))]) { m in
                [m.int32Constant("axes", [-1], shape: [])]
            })
        #expect(reduce.op == .reduce(ReduceParams(.min, axes: [-1], keepDims: false)))
    }

    /// LEAKY_RELU: alpha from LeakyReluOptions (union type 75); without the options or the field it
    /// is the schema default 0, as TFLite reads it. A non-finite alpha is refused, naming the op.
    @Test func leakyReluAlpha() throws {
        func model(_ options: [(id: Int, field: FBField)]?) -> M {
            single(M.leakyRelu, input: [1, 3, 5], output: [1, 3, 5], optionsType: options == nil ? 0 : 75, options: options)
        }
        #expect(try convert(model([(0, .f32(0.3))])).1.op == .leakyRelu(LeakyReluParams(alpha: 0.3)))
        #expect(try convert(model([(0, .f32(-1.5))])).1.op == .leakyRelu(LeakyReluParams(alpha: -1.5)))
        #expect(try convert(model([])).1.op == .leakyRelu(LeakyReluParams(alpha: 0)))
        #expect(try convert(model(nil)).1.op == .leakyRelu(LeakyReluParams(alpha: 0)))
        for alpha in [Float.nan, .infinity] {
            let e = try #require(TFLiteTestSupport.conversionError(model([(0, .f32(alpha))]).bytes(), modelName: "leaky.tflite"))
            #expect(e.kind == .corruptModel && e.description.contains("LEAKY_RELU") && e.description.contains("alpha \(alpha) is not finite"), "\(e)")
        }
        let wrong = single(M.leakyRelu, input: [4], output: [4], optionsType: 9, options: [(0, .f32(1))])
        let e = try #require(TFLiteTestSupport.conversionError(wrong.bytes()))
        #expect(e.kind == .corruptModel && e.description.contains("expected LeakyReluOptions (75)"), "\(e)")
    }

    /// UNPACK has several outputs: it becomes one STRIDED_SLICE per output that drops the axis.
    @Test func unpackBecomesOneSlicePerOutput() throws {
        var m = M()
        let x = m.input("x", [1, 4, 3])
        let parts = (0..<3).map { m.tensor("part\($0)", [1, 4]) }
        m.op(M.unpack, [x], parts, optionsType: 64, options: [(0, .i32(3)), (1, .i32(-1))])
        m.outputs = parts
        let graph = try TFLiteConverter.convert(tfliteBytes: m.bytes(), modelName: "unpack.tflite")
        #expect(graph.nodes.map(\.op.name) == ["STRIDED_SLICE", "STRIDED_SLICE", "STRIDED_SLICE"])
        // [1,4,3] with v = 3j + k: part k is [k, 3 + k, 6 + k, 9 + k].
        let outputs = try Model(graph: graph).makeSession(kernels: .reference).run([(0..<12).map(Float.init)])
        #expect(outputs == (0..<3).map { k in (0..<4).map { Float(3 * $0 + k) } })
        // A `num` that disagrees with the axis is an error naming both.
        var bad = M()
        let y = bad.input("x", [1, 4, 3])
        let two = (0..<2).map { bad.tensor("part\($0)", [1, 4]) }
        bad.op(M.unpack, [y], two, optionsType: 64, options: [(0, .i32(2)), (1, .i32(2))])
        bad.outputs = two
        let e = try #require(TFLiteTestSupport.conversionError(bad.bytes(), modelName: "bad_unpack.tflite"))
        #expect(e.kind == .shapeMismatch && e.message.contains("2 outputs (num 2) for axis 2"), "\(e)")
    }

    @Test func nonConstantParameterIsUnsupported() throws {
        var m = M()
        let x = m.input("x", [1, 4])
        let perm = m.input("perm", [2], type: M.int32)
        let y = m.tensor("y", [4, 1])
        m.op(M.transpose, [x, perm], [y])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes()))
        #expect(e.kind == .unsupported)
    }

    // MARK: Errors

    @Test func unsupportedBuiltinNamesOpIndexAndModel() throws {
        var m = M()
        let x = m.input("x", [1, 10])
        let h = m.tensor("h", [1, 10])
        let y = m.tensor("y", [1, 10])
        m.op(M.relu, [x], [h])
        m.op(M.logSoftmax, [h], [y])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes(), modelName: "my_net.tflite"))
        #expect(e.kind == .unsupported)
        #expect(e.message.contains("my_net.tflite"))
        #expect(e.message.contains("operator 1"))
        #expect(e.message.contains("LOG_SOFTMAX"))
    }

    /// Every missing op at once, in order of first appearance, with counts and first indices.
    @Test func everyUnsupportedOpIsListedInOneError() throws {
        var m = M()
        let x = m.input("x", [1, 10])
        let a = m.tensor("a", [1, 10]), b = m.tensor("b", [1, 10]), c = m.tensor("c", [1, 10]), y = m.tensor("y", [1, 10])
        m.op(M.relu, [x], [a])
        m.op(M.logSoftmax, [a], [b])
        m.op(M.custom, [b], [c], customCode: "MaxUnpooling2D")
        m.op(M.logSoftmax, [c], [y])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes(), modelName: "two_missing.tflite"))
        #expect(e.kind == .unsupported)
        #expect(
            e.message == "two_missing.tflite: 2 ops are not supported: LOG_SOFTMAX ×2 (first at operator 1), "
                + "CUSTOM(MaxUnpooling2D) ×1 (first at operator 2); `blaze-model ops` lists the supported ones")
    }

    @Test func unknownCustomOpIsUnsupported() throws {
        var m = M()
        let x = m.input("x", [1, 10])
        let y = m.tensor("y", [1, 10])
        m.op(M.custom, [x], [y], customCode: "MaxPoolingWithArgmax2D")
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes(), modelName: "c.tflite"))
        #expect(e.kind == .unsupported && e.message.contains("CUSTOM(MaxPoolingWithArgmax2D)") && e.message.contains("operator 0"))
    }

    /// `Convolution2DTransposeBias` options as MediaPipe's selfie models store them: i32 padding
    /// (TfLitePadding 1 = SAME), stride_width, stride_height.
    private func transposeConvBias(options: [UInt8]?, output: [Int] = [1, 8, 5, 3]) -> M {
        var m = M()
        let x = m.input("x", [1, 4, 3, 5])
        let w = m.fp16Weights("w", [3, 2, 2, 5], (0..<60).map { Float($0) * 0.01 })
        let b = m.float32Constant("b", [3], [1, 2, 3])
        let y = m.tensor("y", output)
        m.op(M.custom, [x, w, b], [y], customCode: "Convolution2DTransposeBias", customOptions: options)
        m.outputs = [y]
        return m
    }

    private func le32(_ values: Int32...) -> [UInt8] { values.flatMap { fbLE($0) } }

    @Test func convolution2DTransposeBias() throws {
        let (g, node) = try convert(transposeConvBias(options: le32(1, 2, 2), output: [1, 8, 5, 3]))
        #expect(node.op == .transposeConv2D(TransposeConv2DParams(strideH: 2, strideW: 2, padding: .same)))
        #expect(node.inputs.count == 3 && g.tensors[node.outputs[0]].shape == [1, 8, 5, 3])
        // VALID keeps the whole 2·(4−1)+2 × 2·(3−1)+2; width stride 1 and height stride 3 read apart.
        let (_, valid) = try convert(transposeConvBias(options: le32(2, 1, 3), output: [1, 11, 4, 3]))
        #expect(valid.op == .transposeConv2D(TransposeConv2DParams(strideH: 3, strideW: 1, padding: .valid)))
        // Later TFLite versions append fields to the struct; MediaPipe reads the first three.
        #expect(throws: Never.self) { try TFLiteConverter.convert(tfliteBytes: transposeConvBias(options: le32(1, 2, 2, 0, 0)).bytes(), modelName: "t") }
    }

    @Test func convolution2DTransposeBiasRefusesBadOptions() throws {
        let cases: [([UInt8]?, String)] = [
            (nil, "0 bytes"),
            (Array(le32(1, 2)), "8 bytes"),
            (le32(0, 2, 2), "padding 0"),
            (le32(3, 2, 2), "padding 3"),
            (le32(1, 0, 2), "stride 2×0"),
            (le32(1, 2, -1), "stride -1×2")
        ]
        for (options, fragment) in cases {
            let e = try #require(TFLiteTestSupport.conversionError(transposeConvBias(options: options).bytes(), modelName: "t.tflite"))
            #expect(e.kind == .corruptModel && e.message.contains(fragment) && e.message.contains("operator 1"), "\(e)")
        }
        // A declared output that disagrees with the op's own shape rule.
        let e = try #require(TFLiteTestSupport.conversionError(transposeConvBias(options: le32(1, 2, 2), output: [1, 8, 6, 3]).bytes()))
        #expect(e.kind == .shapeMismatch)
    }

    /// TransformTensorBilinear as in face_landmark_with_attention: version 2, FlexBuffer options.
    private func transformTensor(options: [UInt8]?, version: Int32 = 2) -> M {
        var m = M()
        let x = m.input("x", [1, 48, 48, 32])
        let matrix = m.input("matrix", [1, 4, 4])
        let y = m.tensor("y", [1, 16, 16, 32])
        m.op(M.custom, [x, matrix], [y], customCode: "TransformTensorBilinear", customOptions: options, version: version)
        m.outputs = [y]
        return m
    }

    @Test func mediaPipeFaceAttentionOps() throws {
        let (_, node) = try convert(transformTensor(options: FlexBufferTests.transformTensorOptions))
        #expect(node.op == .transformTensorBilinear(TransformTensorBilinearParams(outputHeight: 16, outputWidth: 16)))
        var m = M()
        let points = m.input("points", [1, 80, 2]), matrix = m.input("matrix", [1, 4, 4])
        let y = m.tensor("y", [1, 80, 2])
        m.op(M.custom, [points, matrix], [y], customCode: "TransformLandmarks", version: 2)
        m.outputs = [y]
        #expect(try convert(m).1.op == .transformLandmarks)
    }

    @Test func mediaPipeFaceAttentionOpsRefuseBadOptions() throws {
        let v1 = try #require(TFLiteTestSupport.conversionError(transformTensor(options: FlexBufferTests.transformTensorOptions, version: 1).bytes()))
        #expect(v1.kind == .unsupported && v1.message.contains("version 1"))
        let bad: [([UInt8]?, String)] = [
            (nil, "flexbuffer: 0 bytes"),
            (Array(FlexBufferTests.transformTensorOptions.dropLast(3)), "custom options are not a FlexBuffer map"),
            (Array(FlexBufferTests.everyKind), "custom option output_height is missing")
        ]
        for (options, fragment) in bad {
            let e = try #require(TFLiteTestSupport.conversionError(transformTensor(options: options).bytes(), modelName: "t.tflite"))
            #expect(e.kind == .corruptModel && e.message.contains(fragment) && e.message.contains("operator 0 CUSTOM(TransformTensorBilinear)"), "\(e)")
        }
        // output_height 16 → 0 (byte 33 of MediaPipe's block is the first map value).
        var zero = FlexBufferTests.transformTensorOptions
        zero[33] = 0
        let e = try #require(TFLiteTestSupport.conversionError(transformTensor(options: zero).bytes()))
        #expect(e.kind == .corruptModel && e.message.contains("output_height is int(0), expected an integer in 1...65536"), "\(e)")
    }

    @Test func fusedTanhIsUnsupported() throws {
        var m = M()
        let x = m.input("x", [1, 4, 4, 2])
        let w = m.fp16Weights("w", [2, 1, 1, 2], [1, 0, 0, 1])
        let y = m.tensor("y", [1, 4, 4, 2])
        m.op(M.conv2D, [x, w], [y], optionsType: 1, options: [(1, .i32(1)), (2, .i32(1)), (3, .i8(4))])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes(), modelName: "tanh.tflite"))
        #expect(e.kind == .unsupported)
        #expect(e.message.contains("tanh.tflite") && e.message.contains("operator 1") && e.message.contains("CONV_2D") && e.message.contains("TANH"))
    }

    @Test func nonFloatActivationsAreUnsupported() throws {
        var m = M()
        let x = m.input("x", [1, 4], type: M.int8)
        let y = m.tensor("y", [1, 4], type: M.int8)
        m.op(M.relu, [x], [y])
        m.outputs = [y]
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes()))
        #expect(e.kind == .unsupported && e.message.contains("INT8"))

        var q = M()
        let a = q.input("a", [1, 4])
        let wq = q.tensor("wq", [4], type: M.int8, data: [1, 2, 3, 4])
        let w = q.tensor("w", [4])
        q.op(M.dequantize, [wq], [w])
        let b = q.tensor("b", [1, 4])
        q.op(M.add, [a, w], [b])
        q.outputs = [b]
        let e2 = try #require(TFLiteTestSupport.conversionError(q.bytes()))
        #expect(e2.kind == .unsupported && e2.message.contains("DEQUANTIZE") && e2.message.contains("operator 0"))
    }

    @Test func declaredShapeMustMatchInference() throws {
        let m = single(M.relu, input: [1, 4], output: [1, 5])
        let e = try #require(TFLiteTestSupport.conversionError(m.bytes(), modelName: "shape.tflite"))
        #expect(e.kind == .shapeMismatch && e.message.contains("operator 0") && e.message.contains("RELU"))
    }

    @Test func wrongSchemaVersionIsRejected() throws {
        var m = single(M.relu, input: [1, 4], output: [1, 4])
        m.version = 2
        #expect(TFLiteTestSupport.conversionError(m.bytes())?.kind == .unsupported)
    }

    @Test func notATFLiteFileIsCorrupt() throws {
        let e = try #require(TFLiteTestSupport.conversionError(Array("PK\u{3}\u{4} not a flatbuffer".utf8), modelName: "x.task"))
        #expect(e.kind == .corruptModel && e.message.contains("x.task"))
    }

    // MARK: Folding and numbering

    @Test func densifyFoldsSparseFp16ThroughDequantize() throws {
        // Dense [3,1,1,4] weights with a CSR last dimension:
        // row 0: (1: 1.5) (3: -2); row 1: empty; row 2: (0: 0.25) (1: 4) (2: -0.5)
        var m = M()
        let x = m.input("x", [1, 2, 2, 4])
        let dims = [M.denseDim(3), M.denseDim(1), M.denseDim(1), M.csrDim(segments: [0, 2, 2, 5], indices: [1, 3, 0, 1, 2])]
        let sparse = m.tensor(
            "w_sparse", [3, 1, 1, 4], type: M.float16,
            data: [1.5, -2, 0.25, 4, -0.5].flatMap(M.half), sparsity: M.sparsity(rank: 4, dims: dims))
        let dense16 = m.tensor("w_dense16", [3, 1, 1, 4], type: M.float16)
        m.op(M.densify, [sparse], [dense16])
        let w = m.tensor("w", [3, 1, 1, 4])
        m.op(M.dequantize, [dense16], [w])
        let y = m.tensor("y", [1, 2, 2, 3])
        m.op(M.conv2D, [x, w], [y], optionsType: 1, options: [(0, .i8(1)), (1, .i32(1)), (2, .i32(1))])
        m.outputs = [y]
        let (g, node) = try convert(m)
        #expect(g.nodes.count == 1 && g.tensors.map(\.name) == ["x", "w", "y"])
        let c = g.constants[try #require(g.tensors[node.inputs[1]].constant)]
        #expect(c.storage == .float16)
        #expect(c.values == [0, 1.5, 0, -2, 0, 0, 0, 0, 0.25, 4, -0.5, 0])
    }

    @Test func densifyFp32AndTraversalOrder() throws {
        // [2,3] fp32 stored column-major (traversal order 1,0): column 0 dense over rows? Use DENSE then CSR.
        // Level 0 walks dim 1 (3 columns), level 1 walks dim 0 (rows) as CSR.
        // column 0: row 1 = 7; column 1: none; column 2: rows 0, 1 = 8, 9  → dense [[0,0,8],[7,0,9]]
        let sparsity: FBNode = .table([
            (0, .offset(.ints32([1, 0]))),
            (2, .offset(.tables([M.denseDim(3), M.csrDim(segments: [0, 1, 1, 3], indices: [1, 0, 1])])))
        ])
        let dense = try TFLiteConstants.densify(
            values: [7, 8, 9], shape: [2, 3],
            sparsity: TFLiteModel.Sparsity(
                traversalOrder: [1, 0], blockMap: [],
                dimMetadata: [
                    .init(format: .dense, denseSize: 3, segments: [], indices: []),
                    .init(format: .sparseCSR, denseSize: 0, segments: [0, 1, 1, 3], indices: [1, 0, 1])
                ]))
        #expect(dense == [0, 0, 8, 7, 0, 9])
        var m = M()
        let x = m.input("x", [4, 3])
        let w = m.tensor("w_sparse", [2, 3], data: [Float(7), 8, 9].flatMap { fbLE($0.bitPattern) }, sparsity: sparsity)
        let wd = m.tensor("w", [2, 3])
        m.op(M.densify, [w], [wd])
        let y = m.tensor("y", [4, 2])
        m.op(M.fullyConnected, [x, wd], [y], optionsType: 8, options: [])
        m.outputs = [y]
        let (g, node) = try convert(m)
        let c = g.constants[try #require(g.tensors[node.inputs[1]].constant)]
        #expect(c.storage == .float32 && c.values == [0, 0, 8, 7, 0, 9])
    }

    @Test func inconsistentSparsityIsCorrupt() throws {
        let bad: [(segments: [Int], indices: [Int], values: [Float])] = [
            ([0, 2, 1, 3], [0, 1, 2], [1, 2, 3]),  // decreasing segments
            ([0, 1, 2, 9], [0, 1, 2], [1, 2, 3]),  // segment past the indices
            ([0, 1, 2, 3], [0, 1, 4], [1, 2, 3]),  // index out of the dimension
            ([0, 1, 2, 3], [0, 1, 2], [1, 2]),  // too few values
            ([0, 1, 2, 3], [0, 1, 2], [1, 2, 3, 4]),  // too many values
            ([0, 1], [0], [1])  // too few segments
        ]
        for b in bad {
            let s = TFLiteModel.Sparsity(
                traversalOrder: [0, 1], blockMap: [],
                dimMetadata: [
                    .init(format: .dense, denseSize: 3, segments: [], indices: []),
                    .init(format: .sparseCSR, denseSize: 0, segments: b.segments, indices: b.indices)
                ])
            #expect(throws: BlazeError.self) { try TFLiteConstants.densify(values: b.values, shape: [3, 4], sparsity: s) }
        }
        let blocked = TFLiteModel.Sparsity(traversalOrder: [0, 1, 2, 3], blockMap: [0, 1], dimMetadata: [])
        #expect(throws: BlazeError.self) { try TFLiteConstants.densify(values: [], shape: [4, 4], sparsity: blocked) }
    }

    @Test func halfWideningIsExact() {
        for bits in stride(from: 0, through: 0xFFFF, by: 1) {
            let mine = TFLiteConstants.widenHalf(UInt16(bits))
            let reference = Float(Float16(bitPattern: UInt16(bits)))
            #expect(mine.bitPattern == reference.bitPattern || (mine.isNaN && reference.isNaN))
        }
    }

    @Test func tensorsAreNumberedInFirstUseOrderAndParametersDropped() throws {
        var m = M()
        let unusedParam = m.int32Constant("unused", [1, 2, 3])
        _ = unusedParam
        let y = m.tensor("y", [1, 2, 2, 1])
        let x = m.input("x", [1, 4, 4, 1])
        let p = m.tensor("p", [1, 2, 2, 1])
        m.op(M.maxPool2D, [x], [p], optionsType: 5, options: [(1, .i32(2)), (2, .i32(2)), (3, .i32(2)), (4, .i32(2))])
        let w = m.fp16Weights("w", [1], [2])
        m.op(M.mul, [p, w], [y], optionsType: 21, options: [])
        m.outputs = [y]
        let (g, _) = try convert(m)
        #expect(g.tensors.map(\.name) == ["x", "p", "w_dequantize", "y"])
        #expect(g.nodes.map(\.inputs) == [[0], [1, 2]] && g.nodes.map(\.outputs) == [[1], [3]])
        let again = try TFLiteConverter.convert(tfliteBytes: m.bytes(), modelName: "tiny.tflite")
        #expect(again == g)
    }

    @Test func externalBufferDataIsRead() throws {
        // The weight buffer has no `data`; `offset`/`size` point at bytes appended after the flatbuffer.
        let values: [Float] = [1, -2, 3.5]
        let payload = values.flatMap { fbLE($0.bitPattern) }
        let flatbufferSize = TinyTFLiteExternal.model(externalOffset: 1 << 20, size: 12).count
        let start = (flatbufferSize + 15) / 16 * 16
        var bytes = TinyTFLiteExternal.model(externalOffset: UInt64(start), size: UInt64(payload.count))
        #expect(bytes.count == flatbufferSize)
        bytes += [UInt8](repeating: 0, count: start - bytes.count) + payload
        let g = try TFLiteConverter.convert(tfliteBytes: bytes, modelName: "ext.tflite")
        let c = g.constants[try #require(g.tensors[g.nodes[0].inputs[1]].constant)]
        #expect(c.values == values && c.storage == .float32)
        // Offsets or sizes outside the file are corrupt.
        for (offset, size) in [(UInt64.max - 4, UInt64(12)), (UInt64(start), UInt64.max), (UInt64(start), UInt64(1 << 40))] {
            var bad = TinyTFLiteExternal.model(externalOffset: offset, size: size)
            bad += [UInt8](repeating: 0, count: start - bad.count) + payload
            #expect(TFLiteTestSupport.conversionError(bad)?.kind == .corruptModel)
        }
    }
}

/// ADD(x, w) where w's buffer lives outside the flatbuffer (`Buffer.offset` / `Buffer.size`).
enum TinyTFLiteExternal {
    static func model(externalOffset: UInt64, size: UInt64) -> [UInt8] {
        let tensors: [FBNode] = [
            .table([(0, .offset(.ints32([1, 3]))), (1, .i8(0)), (2, .u32(0)), (3, .offset(.string("x")))]),
            .table([(0, .offset(.ints32([3]))), (1, .i8(0)), (2, .u32(1)), (3, .offset(.string("w")))]),
            .table([(0, .offset(.ints32([1, 3]))), (1, .i8(0)), (2, .u32(0)), (3, .offset(.string("y")))])
        ]
        let op: FBNode = .table([(0, .u32(0)), (1, .offset(.ints32([0, 1]))), (2, .offset(.ints32([2])))])
        let subgraph: FBNode = .table([
            (0, .offset(.tables(tensors))), (1, .offset(.ints32([0]))),
            (2, .offset(.ints32([2]))), (3, .offset(.tables([op])))
        ])
        let buffers: FBNode = .tables([.table([]), .table([(1, .u64(externalOffset)), (2, .u64(size))])])
        let codes: FBNode = .tables([.table([(0, .i8(0)), (3, .i32(0))])])
        return TinyFlatBufferBuilder.build(
            root: .table([
                (0, .u32(3)), (1, .offset(codes)), (2, .offset(.tables([subgraph]))),
                (4, .offset(buffers))
            ]), fileIdentifier: "TFL3")
    }
}
