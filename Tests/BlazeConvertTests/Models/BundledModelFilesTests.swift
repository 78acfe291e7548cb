import BlazeConvert
import BlazeEngine
import BlazeModels
import BlazeTestSupport
import Foundation
import Testing

/// The committed `Models/bkm` files against a fresh conversion of the committed sources
/// (`Models/sources`, provenance in Models/README.md), and the converted nets' FLOPs against
/// the figures published with the originals (/work/shared/models/README.md, copied below).
@Suite("Bundled model files")
struct BundledModelFilesTests {
    /// Wheel nets → source file.
    static let wheelNets: [(stem: String, bundled: Bool)] = [
        ("face_detection_short_range", true), ("face_detection_full_range_sparse", true),
        ("palm_detection_full", true), ("palm_detection_lite", true),
        ("hand_landmark_full", true), ("hand_landmark_lite", true), ("face_landmark", false)
    ]

    /// FLOPs (2 × MACs of conv/depthwise/FC) stated in the models' README.
    static let publishedMegaFLOPs: [String: Double] = [
        "face_detection_short_range": 61.5, "face_detection_full_range_sparse": 234,
        "palm_detection_full": 675, "palm_detection_lite": 566,
        "hand_landmark_full": 662, "hand_landmark_lite": 291, "face_landmark": 70
    ]

    static func convert(_ stem: String) throws -> Graph {
        let url = RepoPaths.modelSources.appendingPathComponent(stem + ".tflite")
        return try ModelConversion.convertTFLite(bytes: [UInt8](Data(contentsOf: url)), modelName: stem + ".tflite")
    }

    /// The default gesture recognizer's nets (Models/README.md).
    static let gestureNets = ["gesture_embedder", "canned_gesture_classifier"]

    @Test("committed .bkm files equal a fresh conversion byte for byte", arguments: wheelNets.filter(\.bundled).map(\.stem) + gestureNets)
    func wheelModelsAreReproducible(stem: String) throws {
        let fresh = try ModelFileWriter.encode(Self.convert(stem))
        let committed = [UInt8](try Data(contentsOf: RepoPaths.bundledModels.appendingPathComponent(stem + ".bkm")))
        #expect(fresh == committed, "\(stem).bkm differs from a fresh conversion; run `make models`")
    }

    @Test("task bundle nets are reproducible")
    func taskModelsAreReproducible() throws {
        let task = [UInt8](try Data(contentsOf: RepoPaths.modelSources.appendingPathComponent("face_landmarker.task")))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("blazekit-task-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let written = try ModelConversion.convertTaskBundle(bytes: task, bundleName: "face_landmarker.task", outputDirectory: dir)
        #expect(Set(written.map(\.lastPathComponent)) == ["face_detector.bkm", "face_landmarks_detector.bkm", "face_blendshapes.bkm"])
        for stem in ["face_landmarks_detector", "face_blendshapes"] {
            let fresh = try Data(contentsOf: dir.appendingPathComponent(stem + ".bkm"))
            let committed = try Data(contentsOf: RepoPaths.bundledModels.appendingPathComponent(stem + ".bkm"))
            #expect(fresh == committed, "\(stem).bkm differs from a fresh conversion")
        }
        // The bundle's face detector is the short-range net (Models/README.md: not shipped twice).
        let detector = try Model(contentsOf: dir.appendingPathComponent("face_detector.bkm"))
        let shortRange = try BundledModel.faceDetectionShortRange.load()
        #expect(detector.graph.nodes == shortRange.graph.nodes)
        #expect(detector.graph.constants == shortRange.graph.constants)
    }

    @Test("FLOPs within 0.5 % of the published figures", arguments: wheelNets.map(\.stem))
    func flops(stem: String) throws {
        let model = try Model(graph: Self.convert(stem))
        let published = try #require(Self.publishedMegaFLOPs[stem]) * 1e6
        let relative = abs(Double(model.flops) - published) / published
        #expect(relative <= 0.005, "\(stem): \(model.flops) FLOPs vs published \(published)")
    }

    /// face_landmark.tflite (mesh v1) is convertible but not bundled (Models/README.md); it must
    /// still match LiteRT (fixtures from Tools/parity/make_parity_fixtures.py).
    @Test("mesh v1 converts and matches LiteRT")
    func meshV1Parity() throws {
        let model = try Model(graph: Self.convert("face_landmark"))
        let errors = try worstParityError(model: model, stem: "face_landmark", fixtures: ParityFixtures(), kernels: .optimized)
        #expect(errors.count >= 3)
        for (caseName, error) in errors {
            #expect(error <= parityTolerance, "face_landmark/\(caseName): relative error \(error)")
        }
    }
}
