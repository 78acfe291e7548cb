import BlazeEngine
import Foundation
import Testing
@testable import BlazeConvert

/// Conversion of the two MediaPipe face detectors of Models/sources (provenance in Models/README.md).
@Suite struct TFLiteRealModelTests {
    static let shortRange = "face_detection_short_range"
    static let fullRange = "face_detection_full_range_sparse"

    private func convert(_ stem: String) throws -> Graph {
        try TFLiteConverter.convert(tfliteBytes: TFLiteTestSupport.model(stem), modelName: stem + ".tflite")
    }

    /// FLOPs (2 × MACs) from shared/models/README.md, checked to 0.5 %.
    private func expectFLOPs(_ graph: Graph, _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let flops = Double(TFLiteTestSupport.flops(graph))
        #expect(abs(flops - expected) / expected < 0.005, "FLOPs \(flops) vs \(expected)", sourceLocation: sourceLocation)
    }

    @Test func shortRangeConverts() throws {
        let g = try convert(Self.shortRange)
        #expect(g.inputs.map { g.tensors[$0].name } == ["input"])
        #expect(g.inputs.map { g.tensors[$0].shape } == [[1, 128, 128, 3]])
        #expect(g.outputs.map { g.tensors[$0].name } == ["regressors", "classificators"])
        #expect(g.outputs.map { g.tensors[$0].shape } == [[1, 896, 16], [1, 896, 1]])
        #expect(
            TFLiteTestSupport.histogram(g) == [
                "CONV_2D": 21, "DEPTHWISE_CONV_2D": 16, "ADD": 16, "RELU": 17, "MAX_POOL_2D": 3, "PAD": 11,
                "RESHAPE": 4, "CONCATENATION": 2
            ])
        // 74 DEQUANTIZEd fp16 weights became constants; the 11 INT32 parameter tensors and 74 fp16 sources are gone.
        #expect(g.constants.count == 74 && g.constants.allSatisfy { $0.storage == .float16 })
        #expect(g.tensors.count == 165)
        #expect(g.metadata["source.name"] == "face_detection_short_range.tflite")
        #expect(g.metadata["converter"] == "BlazeConvert 1")
        #expect(g.metadata["tflite.version"] == "3")
        expectFLOPs(g, 61.5e6)
        // First op: 5×5 stride-2 SAME conv with 24 filters (this net applies RELU as separate ops).
        #expect(g.nodes[0].op == .conv2D(Conv2DParams(strideH: 2, strideW: 2, padding: .same)))
        #expect(g.tensors[g.nodes[0].inputs[1]].shape == [24, 5, 5, 3])
        // Channel zero-padding for the residuals.
        let pads = g.nodes.compactMap { if case .pad(let p) = $0.op { return p } else { return nil } }
        #expect(pads.allSatisfy { $0.paddings.count == 4 && $0.paddings[0] == [0, 0] && $0.paddings[1] == [0, 0] && $0.value == 0 })
        let concats = g.nodes.compactMap { if case .concatenation(let p) = $0.op { return p } else { return nil } }
        #expect(concats == [ConcatenationParams(axis: 1), ConcatenationParams(axis: 1)])
    }

    @Test func fullRangeSparseConverts() throws {
        let g = try convert(Self.fullRange)
        #expect(g.inputs.map { g.tensors[$0].name } == ["input_1"])
        #expect(g.outputs.map { g.tensors[$0].name } == ["Identity", "Identity_1"])
        #expect(g.outputs.map { g.tensors[$0].shape } == [[1, 2304, 16], [1, 2304, 1]])
        #expect(
            TFLiteTestSupport.histogram(g) == [
                "CONV_2D": 49, "DEPTHWISE_CONV_2D": 42, "PAD": 43, "ADD": 19, "RESIZE_BILINEAR": 3,
                "DEPTH_TO_SPACE": 2, "RESHAPE": 2
            ])
        #expect(g.constants.count == 182 && g.constants.allSatisfy { $0.storage == .float16 })
        expectFLOPs(g, 234e6)
        let resizes = g.nodes.compactMap { if case .resizeBilinear(let p) = $0.op { return p } else { return nil } }
        #expect(resizes.count == 3 && resizes.allSatisfy { $0.halfPixelCenters && !$0.alignCorners })
        #expect(g.nodes.filter { $0.op == .depthToSpace(DepthToSpaceParams(blockSize: 2)) }.count == 2)
        let fusedRelu = g.nodes.filter { $0.op == .binary(BinaryParams(.add, activation: .relu)) }.count
        #expect(fusedRelu == 16)
    }

    /// Layout fingerprint (FNV-1a over names, shapes, op names and wiring), committed so a change of
    /// numbering, or any dependence on per-process hash seeds, fails across runs. The committed
    /// values are our own earlier output: a change detector; the conversion's correctness is
    /// checked against LiteRT by the parity tests.
    private func fingerprint(_ g: Graph) -> String {
        var text = ""
        for t in g.tensors { text += "\(t.name)|\(t.shape)|\(t.constant.map(String.init) ?? "-")\n" }
        for n in g.nodes { text += "\(n.op.name)|\(n.inputs)|\(n.outputs)\n" }
        text += "\(g.inputs)|\(g.outputs)\n"
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        var valueHash: UInt64 = 0xCBF2_9CE4_8422_2325
        for c in g.constants { for v in c.values { valueHash = (valueHash ^ UInt64(v.bitPattern)) &* 0x0000_0100_0000_01B3 } }
        return String(h, radix: 16) + "/" + String(valueHash, radix: 16)
    }

    @Test func conversionIsDeterministic() throws {
        for stem in [Self.shortRange, Self.fullRange] {
            let a = try convert(stem), b = try convert(stem)
            #expect(a == b)
        }
        #expect(fingerprint(try convert(Self.shortRange)) == Self.expectedFingerprints[Self.shortRange])
        #expect(fingerprint(try convert(Self.fullRange)) == Self.expectedFingerprints[Self.fullRange])
    }

    static let expectedFingerprints: [String: String] = [
        shortRange: "ca0a5a1d32bc504d/e43894f9317fcadd",
        fullRange: "93a8fcf4728449f7/4a9b35bc8349a735"
    ]

    /// Folded weights equal LiteRT's DEQUANTIZE / DENSIFY results (Fixtures/parity/folded_weights.json,
    /// written by Tools/parity/dump_tflite_weights.py).
    @Test func foldedWeightsMatchLiteRT() throws {
        let json = try JSONSerialization.jsonObject(with: Data(TFLiteTestSupport.fixtureBytes("parity/folded_weights.json")))
        let root = try #require(json as? [String: Any])
        var checked = 0
        for stem in [Self.shortRange, Self.fullRange] {
            let g = try convert(stem)
            let entries = try #require(root[stem] as? [[String: Any]])
            for entry in entries {
                let name = try #require(entry["name"] as? String)
                let index = try #require(g.tensors.firstIndex { $0.name == name }, "\(name) not in graph")
                let constant = g.constants[try #require(g.tensors[index].constant)]
                let values = constant.values
                #expect(constant.storage == .float16)
                #expect(constant.shape == (entry["shape"] as? [Int]), "\(name)")
                let parse = { (s: String) -> Float in Float(Double(s)!) }
                if let all = entry["values"] as? [String] {
                    #expect(values == all.map(parse), "\(name)")
                }
                let first = try #require(entry["first"] as? [String]).map(parse)
                #expect(Array(values.prefix(first.count)) == first, "\(name)")
                for (key, value) in (entry["picks"] as? [String: String]) ?? [:] {
                    #expect(values[Int(key)!] == parse(value), "\(name)[\(key)]")
                }
                #expect(values.filter { $0 != 0 }.count == entry["nonZeros"] as? Int, "\(name)")
                let d = values.map(Double.init)
                let sumAbs = d.reduce(0) { $0 + abs($1) }
                let tolerance = 1e-9 * max(1, sumAbs)
                #expect(abs(d.reduce(0, +) - (entry["sum"] as? Double ?? .nan)) <= tolerance, "\(name)")
                #expect(abs(sumAbs - (entry["sumAbs"] as? Double ?? .nan)) <= tolerance, "\(name)")
                #expect(abs(d.reduce(0) { $0 + $1 * $1 } - (entry["sumSquares"] as? Double ?? .nan)) <= tolerance, "\(name)")
                checked += 1
            }
        }
        #expect(checked == 4)
    }
}
