import BlazeKit
import Testing

/// `print(result)` gives one short line per result (the synthesised dump of a FaceLandmarkerResult
/// with 3 faces ran to about 40,000 characters); the expected strings are written by hand.
@Suite struct ResultDescriptionTests {
    static let left = ResultCategory(index: 1, score: 0.98213, categoryName: "Left", displayName: "Left")
    static let points = (0..<21).map { NormalizedLandmark(x: Float($0) / 21, y: 0.5) }

    @Test func handLandmarkerResult() {
        let right = ResultCategory(index: 0, score: 0.5, categoryName: "Right", displayName: "Right")
        let r = HandLandmarkerResult(
            handedness: [[Self.left], [right]], landmarks: [Self.points, Self.points],
            worldLandmarks: [[], []], timestampInMilliseconds: 40)
        #expect(r.description == "HandLandmarkerResult(t 40 ms, 2 hands: Left 0.982, Right 0.500)")
        let none = HandLandmarkerResult(handedness: [], landmarks: [], worldLandmarks: [], timestampInMilliseconds: 0)
        #expect(none.description == "HandLandmarkerResult(t 0 ms, 0 hands)")
    }

    @Test func faceLandmarkerResult() {
        let mesh = (0..<478).map { NormalizedLandmark(x: Float($0) / 478, y: 0.25, z: -0.01) }
        let shapes = Classifications(categories: [
            ResultCategory(index: 0, score: 0.001, categoryName: "_neutral", displayName: nil),
            ResultCategory(index: 25, score: 0.6134, categoryName: "jawOpen", displayName: nil)
        ])
        let r = FaceLandmarkerResult(
            faceLandmarks: [mesh, mesh, mesh], faceBlendshapes: [shapes, shapes, shapes],
            timestampInMilliseconds: 0, trackingIDs: [1, 2, 3])
        #expect(r.description == "FaceLandmarkerResult(t 0 ms, 3 faces, 478 landmarks each, blendshapes, tracking IDs [1, 2, 3])")
        #expect(r.description.count < 120)
        #expect(shapes.description == "Classifications(2 categories, top: jawOpen 0.613)")
    }

    @Test func landmarksAndDetections() {
        #expect(NormalizedLandmark(x: 0.5, y: 0.25, z: -0.125).description == "(0.5000, 0.2500, -0.1250)")
        #expect(
            NormalizedLandmark(x: 1, y: 0, z: 0, visibility: 0.9, presence: 0.75).description
                == "(1.0000, 0.0000, 0.0000) visibility 0.900 presence 0.750")
        let face = FaceDetection(
            categories: [ResultCategory(index: 0, score: 0.95, categoryName: nil, displayName: nil)],
            boundingBox: VisionRect(x: 10, y: 20, width: 30, height: 40),
            keypoints: (0..<6).map { NormalizedKeypoint(x: Float($0), y: 0) })
        #expect(face.description == "FaceDetection(box (x: 10.0, y: 20.0, width: 30.0, height: 40.0), score 0.950, 6 keypoints)")
        #expect(FaceDetectorResult(detections: [face], timestampInMilliseconds: 7).description == "FaceDetectorResult(t 7 ms, 1 detection)")
        #expect(ResultCategory(index: 3, score: 0.25, categoryName: nil, displayName: nil).description == "#3 0.250")
    }

    @Test func visibilityAndPresenceAreUnsetByDefault() {
        // MediaPipe's hand and face landmark models estimate neither; their landmarks leave both unset.
        let p = NormalizedLandmark(x: 0.1, y: 0.2, z: 0.3)
        #expect(p.visibility == nil && p.presence == nil)
        #expect(p != NormalizedLandmark(x: 0.1, y: 0.2, z: 0.3, visibility: 0))
        let w = WorldLandmark(x: 0, y: 0, z: 0)
        #expect(w.visibility == nil && w.presence == nil)
    }
}
