import BlazeEngine
import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeConvert

/// The MediaPipe custom ops as they sit in the MediaPipe models we do not bundle
/// (Fixtures/wheel/models, from MediaPipe's Python wheel): what the converter makes of each, and
/// that hostile edits of their custom options only ever give typed errors.
@Suite struct MediaPipeCustomOpConversionTests {
    static func bytes(_ stem: String) throws -> [UInt8] { try TFLiteTestSupport.fixtureBytes("wheel/models/\(stem).tflite") }

    @Test func selfieSegmentationEndsInTransposeConv() throws {
        let g = try TFLiteConverter.convert(tfliteBytes: Self.bytes("selfie_segmentation"), modelName: "selfie_segmentation.tflite")
        let upsample = try #require(g.nodes.first { if case .transposeConv2D = $0.op { return true } else { return false } })
        #expect(upsample.op == .transposeConv2D(TransposeConv2DParams(strideH: 2, strideW: 2, padding: .same)))
        #expect(upsample.inputs.map { g.tensors[$0].shape } == [[1, 128, 128, 16], [1, 2, 2, 16], [1]])
        #expect(g.tensors[upsample.outputs[0]].shape == [1, 256, 256, 1])
    }

    /// Three crops (lips, left eye, right eye): each a matrix from the 468 mesh points and a
    /// 16×16 bilinear crop of one 48×48 feature map; five point sets mapped back.
    @Test func faceLandmarkWithAttentionOps() throws {
        let g = try TFLiteConverter.convert(
            tfliteBytes: Self.bytes("face_landmark_with_attention"),
            modelName: "face_landmark_with_attention.tflite")
        let h = TFLiteTestSupport.histogram(g)
        #expect(h["LANDMARKS_TO_TRANSFORM_MATRIX"] == 3 && h["TRANSFORM_TENSOR_BILINEAR"] == 3 && h["TRANSFORM_LANDMARKS"] == 5)
        let matrices = g.nodes.compactMap { node -> LandmarksToTransformMatrixParams? in
            if case .landmarksToTransformMatrix(let p) = node.op { return p } else { return nil }
        }
        #expect(matrices.map(\.subset.count) == [80, 71, 71])
        #expect(matrices.allSatisfy { $0.outputHeight == 16 && $0.outputWidth == 16 && $0.scaleX == 1.5 && $0.scaleY == 1.5 })
        #expect(matrices[0].leftRotationIndex == 61 && matrices[0].rightRotationIndex == 291)
    }

    /// 600 seeded edits (1–3 bytes each) inside the custom options of every custom operator of
    /// face_landmark_with_attention and selfie_segmentation: a graph or a typed error, never a crash.
    @Test func hostileCustomOptionsGiveTypedErrors() throws {
        var rng = SeededRandom(seed: 0xC057)
        for stem in ["face_landmark_with_attention", "selfie_segmentation"] {
            let original = try Self.bytes(stem)
            let model = try TFLiteModel(bytes: original)
            let ranges = model.operators.map(\.customOptions).filter { !$0.isEmpty }
            try #require(!ranges.isEmpty)
            for _ in 0..<300 {
                var b = original
                let range = ranges[Int(rng.next() % UInt64(ranges.count))]
                for _ in 0..<Int(rng.next() % 3 + 1) {
                    b[range.lowerBound + Int(rng.next() % UInt64(range.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
                do {
                    _ = try TFLiteConverter.convert(tfliteBytes: b, modelName: stem)
                } catch let e as BlazeError {
                    #expect([.corruptModel, .shapeMismatch, .unsupported].contains(e.kind), "\(e)")
                } catch {
                    Issue.record("untyped error \(error)")
                }
            }
        }
    }
}
