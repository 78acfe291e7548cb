import BlazeTestSupport
import BlazeEngine
import BlazeModels
import Testing
@testable import BlazeKit

/// End-to-end detector decoding (S2–S5): the bundled nets run on OpenCV-made input tensors
/// (`make_detector_inputs.py`), decoded here, compared with MediaPipe 0.10.21's JSON.
@Suite struct PipelineDetectorTests {
    /// The JSON stores 6 decimals; docs/pipelines.md §8 reports 6e-7 for an exact pipeline. The
    /// margin above that covers the engine's FP32 kernel differences to LiteRT.
    static let tolerance: Float = 1e-5

    /// S2–S4: detections in normalized tensor coordinates.
    static func detectInTensor(
        _ stem: String, model: BundledModel, anchors: SSDAnchorOptions,
        decoder: DetectionDecoderOptions
    ) throws
        -> (entry: PipelineFixtures.TensorEntry, detections: [Detection])
    {
        let (entry, npy) = try PipelineFixtures.tensor(stem, model: model.rawValue)
        let outputs = try runBundled(model, input: npy.values)
        let raw = try decodeDetections(boxes: outputs[0], scores: outputs[1], anchors: anchors.anchors(), options: decoder)
        return (entry, nonMaxSuppression(raw, iouThreshold: 0.3, algorithm: .weighted))
    }

    /// S2–S5: detections in normalized image coordinates (matrix projection).
    static func detect(
        _ stem: String, model: BundledModel, anchors: SSDAnchorOptions,
        decoder: DetectionDecoderOptions
    ) throws
        -> (entry: PipelineFixtures.TensorEntry, detections: [Detection])
    {
        let (entry, detections) = try detectInTensor(stem, model: model, anchors: anchors, decoder: decoder)
        return (entry, detections.map { $0.projected(by: entry.projection) })
    }

    static func compare(
        _ stem: String, pipeline: String, model: BundledModel, anchors: SSDAnchorOptions,
        decoder: DetectionDecoderOptions
    ) throws {
        let reference = try PipelineFixtures.reference(ReferenceDetections.self, "\(stem).\(pipeline)")
        let (entry, detections) = try detect(stem, model: model, anchors: anchors, decoder: decoder)
        #expect(entry.width == reference.width && entry.height == reference.height)
        #expect(detections.count == reference.detections.count, "\(stem) \(pipeline)")
        var worst: Float = 0
        for (d, r) in zip(detections, reference.detections) {
            #expect(d.keypoints.count == 6)
            worst = worse(worst, maxAbsDiff(d.flattened, r.flattened))
        }
        print("[Pipeline] \(stem) \(pipeline): \(detections.count) faces, max abs error vs MediaPipe \(worst)")
        #expect(worst <= tolerance, "\(stem) \(pipeline): max abs error \(worst)")
    }

    @Test(arguments: ["sergey_portrait", "three_people", "couple_with_dog"])
    func faceShortRange(stem: String) throws {
        try Self.compare(
            stem, pipeline: "face_detection_short_range", model: .faceDetectionShortRange,
            anchors: .faceShortRange, decoder: .faceShortRange)
    }

    @Test(arguments: ["sergey_portrait", "three_people", "couple_with_dog"])
    func faceFullRange(stem: String) throws {
        try Self.compare(
            stem, pipeline: "face_detection_full_range", model: .faceDetectionFullRangeSparse,
            anchors: .faceFullRange, decoder: .faceFullRange)
    }

    /// docs/pipelines.md §9 numbers for sergey (short range), spelled out.
    @Test func sergeyShortRangeSpec() throws {
        let (_, d) = try Self.detect(
            "sergey_portrait", model: .faceDetectionShortRange, anchors: .faceShortRange,
            decoder: .faceShortRange)
        try #require(d.count == 1)
        let expected: [Float] = [0.928434, 0.210612, 0.291507, 0.565770, 0.565731, 0.377303, 0.440381, 0.625057, 0.444253]
        #expect(maxAbsDiff(Array(d[0].flattened.prefix(9)), expected) < 1e-5)
    }

    /// The full-range threshold note of §9: at 0.5 weaker overlapping candidates join the
    /// weighted average (box moves to (0.14467, 0.20957, 0.68337, 0.68339)), and
    /// couple_with_dog gains a 0.552 face the reference (threshold 0.6) lacks.
    @Test func fullRangeThresholdNote() throws {
        let (_, at05) = try Self.detect(
            "sergey_portrait", model: .faceDetectionFullRangeSparse, anchors: .faceFullRange,
            decoder: DetectionDecoderOptions.faceFullRange.withMinScore(0.5))
        try #require(at05.count == 1)
        let box = at05[0].box
        let moved = maxAbsDiff([box.xmin, box.ymin, box.width, box.height], [0.14467, 0.20957, 0.68337, 0.68339])
        print("[Pipeline] sergey full range @0.5: box \(box), diff to §9 \(moved)")
        #expect(moved < 1e-5 + 5e-6)
        #expect(abs(at05[0].score - 0.767155) < 1e-5)

        let (_, dog05) = try Self.detect(
            "couple_with_dog", model: .faceDetectionFullRangeSparse, anchors: .faceFullRange,
            decoder: DetectionDecoderOptions.faceFullRange.withMinScore(0.5))
        let (_, dog06) = try Self.detect(
            "couple_with_dog", model: .faceDetectionFullRangeSparse, anchors: .faceFullRange,
            decoder: .faceFullRange)
        #expect(dog06.count == 1)
        #expect(dog05.count == 2)
        #expect(dog05.contains { abs($0.score - 0.552) < 0.001 })
    }

    /// The palm detector against the independent numpy + LiteRT decoding of the generator
    /// (no MediaPipe palm outputs exist; the hand landmark test checks the chain end to end).
    @Test(arguments: ["two_hands_open_palms", "hand_victory_white_bg"])
    func palms(stem: String) throws {
        let (entry, unprojected) = try Self.detectInTensor(stem, model: .palmDetectionFull, anchors: .palm, decoder: .palm)
        let detections = unprojected.map { $0.projected(by: entry.projection) }
        let palms = Array(detections.prefix(2))
        let expected = try #require(entry.palms)
        #expect(palms.count == expected.count)
        var worst: Float = 0
        for (d, e) in zip(palms, expected) {
            #expect(d.keypoints.count == 7)
            worst = worse(worst, maxAbsDiff(d.flattened, [e.score] + e.box + e.keypoints.flatMap { $0 }))
        }
        // Legacy palm graph: letterbox removal instead of the matrix — identical here.
        let padding = entry.padding
        let viaLetterbox = unprojected.map { $0.removingLetterbox(left: padding[0], top: padding[1], right: padding[2], bottom: padding[3]) }
        let pathDiff = zip(viaLetterbox, detections).reduce(Float(0)) { worse($0, maxAbsDiff($1.0.flattened, $1.1.flattened)) }
        print("[Pipeline] \(stem) palms: \(palms.count), max abs error vs numpy+LiteRT \(worst); letterbox vs matrix path \(pathDiff)")
        #expect(worst <= Self.tolerance)
        #expect(pathDiff <= 1e-6)
    }
}
