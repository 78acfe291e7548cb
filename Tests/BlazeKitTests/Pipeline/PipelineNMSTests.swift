import BlazeEngine
import Testing
@testable import BlazeKit

/// S3 decoding and S4 NMS on hand-computed cases.
@Suite struct PipelineNMSTests {
    static func det(
        _ score: Float, _ x: Float, _ y: Float, _ w: Float, _ h: Float,
        kp: [(Float, Float)] = [(0, 0)]
    ) -> Detection {
        Detection(
            score: score, box: .init(xmin: x, ymin: y, width: w, height: h),
            keypoints: kp.map { Detection.Keypoint(x: $0.0, y: $0.1) })
    }

    @Test func weightedAveragesOverlappingCandidates() {
        let d1 = Self.det(0.9, 0, 0, 1, 1, kp: [(0.5, 0.5)])
        let d2 = Self.det(0.6, 0.1, 0, 1, 1, kp: [(0.6, 0.5)])  // IoU 0.9/1.1 with d1
        let d3 = Self.det(0.8, 2, 2, 1, 1, kp: [(2.5, 2.5)])
        let out = nonMaxSuppression([d2, d3, d1], iouThreshold: 0.3)
        #expect(out.count == 2)
        #expect(out[0].score == 0.9)
        #expect(abs(out[0].box.xmin - 0.04) < 1e-6)  // (0·0.9 + 0.1·0.6)/1.5
        #expect(abs(out[0].box.width - 1.0) < 1e-6)  // (1·0.9 + 1.1·0.6)/1.5 − 0.04
        #expect(abs(out[0].box.ymin) < 1e-7 && abs(out[0].box.height - 1) < 1e-6)
        #expect(abs(out[0].keypoints[0].x - 0.54) < 1e-6)  // (0.5·0.9 + 0.6·0.6)/1.5
        #expect(out[1] == d3)
    }

    @Test func overlapIsStrict() {
        // IoU exactly 0.5: inter 1, areas 2 and 1.
        let a = Self.det(0.9, 0, 0, 2, 1), b = Self.det(0.8, 0, 0, 1, 1)
        #expect(a.box.intersectionOverUnion(with: b.box) == 0.5)
        #expect(nonMaxSuppression([a, b], iouThreshold: 0.5).count == 2)
        #expect(nonMaxSuppression([a, b], iouThreshold: 0.49).count == 1)
        #expect(nonMaxSuppression([a, b], iouThreshold: 0.5, algorithm: .plain).count == 2)
        #expect(nonMaxSuppression([a, b], iouThreshold: 0.49, algorithm: .plain) == [a])
    }

    @Test func touchingAndDisjointBoxesDoNotOverlap() {
        let a = Detection.BoundingBox(xmin: 0, ymin: 0, width: 1, height: 1)
        #expect(a.intersectionOverUnion(with: .init(xmin: 1, ymin: 0, width: 1, height: 1)) == 0)
        #expect(a.intersectionOverUnion(with: .init(xmin: 1.5, ymin: 0, width: 1, height: 1)) == 0)
        #expect(a.intersectionOverUnion(with: a) == 1)
        #expect(a.intersectionOverUnion(with: .init(xmin: 0, ymin: 0, width: -1, height: 1)) == 0)
    }

    /// A zero-area top box has IoU 0 with itself: it is emitted unchanged and everything else is
    /// dropped (MediaPipe's loop stops when nothing was removed).
    @Test func degenerateTopStopsTheLoop() {
        let top = Self.det(0.9, 0.5, 0.5, 0, 0), other = Self.det(0.5, 0, 0, 1, 1)
        #expect(nonMaxSuppression([other, top], iouThreshold: 0.3) == [top])
    }

    @Test func plainKeepsGreedilyAndHonoursMax() {
        let d1 = Self.det(0.9, 0, 0, 1, 1), d2 = Self.det(0.8, 0.1, 0, 1, 1), d3 = Self.det(0.7, 3, 3, 1, 1)
        #expect(nonMaxSuppression([d3, d2, d1], iouThreshold: 0.3, algorithm: .plain) == [d1, d3])
        #expect(nonMaxSuppression([d3, d2, d1], iouThreshold: 0.3, algorithm: .plain, maxDetections: 1) == [d1])
        #expect(nonMaxSuppression([], iouThreshold: 0.3).isEmpty)
    }

    @Test func decodesBoxesKeypointsAndScores() throws {
        let anchors = [SSDAnchor(xCenter: 0.5, yCenter: 0.5), SSDAnchor(xCenter: 0.25, yCenter: 0.75)]
        let options = DetectionDecoderOptions(coordinatesPerAnchor: 6, keypointCount: 1, scale: 128, minScore: 0.5)
        let boxes: [Float] = [
            12.8, -6.4, 25.6, 51.2, 32, 0,
            0, 0, -1, 10, 0, 0
        ]  // negative width: dropped
        let out = try decodeDetections(boxes: boxes, scores: [0, 5], anchors: anchors, options: options)
        try #require(out.count == 1)
        let d = out[0]
        #expect(d.score == 0.5)  // sigmoid(0) = 0.5 passes `>= 0.5`
        #expect(abs(d.box.xmin - 0.5) < 1e-7 && abs(d.box.ymin - 0.25) < 1e-7)
        #expect(abs(d.box.width - 0.2) < 1e-7 && abs(d.box.height - 0.4) < 1e-7)
        #expect(d.keypoints == [Detection.Keypoint(x: 0.75, y: 0.5)])
        // Just below the threshold is dropped; clipping keeps huge logits finite.
        let strict = try decodeDetections(
            boxes: boxes, scores: [-1e-3, 1e6], anchors: anchors,
            options: options.withMinScore(0.5))
        #expect(strict.isEmpty)
        let clipped = try decodeDetections(boxes: Array(boxes.prefix(6)), scores: [1e6], anchors: [anchors[0]], options: options)
        #expect(clipped.first?.score == 1)
        #expect(sigmoid(-100) >= 0 && sigmoid(100) == 1)
    }

    @Test func decodingRejectsMismatchedTensors() {
        let anchors = SSDAnchorOptions.faceShortRange.anchors()
        #expect(throws: BlazeError.self) {
            try decodeDetections(
                boxes: [Float](repeating: 0, count: 896 * 16 - 1), scores: [Float](repeating: 0, count: 896),
                anchors: anchors, options: .faceShortRange)
        }
        #expect(throws: BlazeError.self) {
            try decodeDetections(
                boxes: [Float](repeating: 0, count: 896 * 16), scores: [Float](repeating: 0, count: 895),
                anchors: anchors, options: .faceShortRange)
        }
        #expect(throws: BlazeError.self) {
            try decodeDetections(
                boxes: [Float](repeating: 0, count: 896 * 16), scores: [Float](repeating: 0, count: 896),
                anchors: anchors, options: .palm)
        }
    }
}
