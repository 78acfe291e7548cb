import Foundation
import Testing
@testable import BlazeKit

/// Angle normalization, S5–S8 geometry on hand-computed cases.
@Suite struct PipelineGeometryTests {
    @Test func angleNormalization() {
        #expect(normalizeRadians(0) == 0)
        // Swift's Float.pi is rounded toward zero (just below π) and stays; the float nearest
        // to π is just above it and wraps to just above −π.
        #expect(normalizeRadians(Float.pi) == Float.pi)
        #expect(normalizeRadians(-Float.pi) == -Float.pi)
        #expect(abs(normalizeRadians(Float(Double.pi)) + Float.pi) < 1e-6)
        #expect(abs(normalizeRadians(3 * Float.pi / 2) + Float.pi / 2) < 1e-6)
        #expect(abs(normalizeRadians(7) - (7 - 2 * Float.pi)) < 1e-6)
        #expect(abs(normalizeRadians(-7) - (-7 + 2 * Float.pi)) < 1e-6)
        for a in stride(from: Float(-20), through: 20, by: 0.37) {
            let n = normalizeRadians(a)
            #expect(n >= -Float.pi && n < Float.pi)
        }
    }

    @Test func faceRectRotation() {
        // Eyes 20 px apart on a 100×100 image, the left eye (image right) 2 px lower:
        // rotation = −atan2(−2, 20) > 0 (clockwise on screen).
        let d = Detection(
            score: 1, box: .init(xmin: 0.2, ymin: 0.3, width: 0.4, height: 0.4),
            keypoints: [.init(x: 0.3, y: 0.4), .init(x: 0.5, y: 0.42)])
        let rect = NormalizedRect(detection: d, imageSize: ImageSize(width: 100, height: 100), rotation: .faceDetection)
        #expect(abs(rect.xCenter - 0.4) < 1e-7 && abs(rect.yCenter - 0.5) < 1e-7)
        #expect(rect.width == 0.4 && rect.height == 0.4)
        #expect(abs(rect.rotation - Float(atan2(2.0, 20.0))) < 1e-6)
        #expect(NormalizedRect(detection: d, imageSize: ImageSize(width: 100, height: 100), rotation: nil).rotation == 0)
    }

    @Test func palmRectRotation() {
        func palm(_ wrist: (Float, Float), _ middle: (Float, Float)) -> Detection {
            Detection(
                score: 1, box: .init(xmin: 0, ymin: 0, width: 1, height: 1),
                keypoints: [.init(x: wrist.0, y: wrist.1), .init(x: 0, y: 0), .init(x: middle.0, y: middle.1)])
        }
        let up = NormalizedRect(detection: palm((0.5, 0.8), (0.5, 0.4)), imageSize: ImageSize(width: 200, height: 100), rotation: .palm)
        #expect(abs(up.rotation) < 1e-6)
        // Fingers to the right: local "up" (sin θ, −cos θ) = (1, 0) → θ = +π/2.
        let right = NormalizedRect(detection: palm((0.5, 0.8), (0.7, 0.8)), imageSize: ImageSize(width: 200, height: 100), rotation: .palm)
        #expect(abs(right.rotation - Float.pi / 2) < 1e-6)
        // Pixels, not normalized units: 0.1 in x on a 200-px-wide image is 20 px, 0.2 in y 20 px.
        let diagonal = NormalizedRect(detection: palm((0.5, 0.8), (0.6, 0.6)), imageSize: ImageSize(width: 200, height: 100), rotation: .palm)
        #expect(abs(diagonal.rotation - Float.pi / 4) < 1e-6)
    }

    @Test func rectTransformation() {
        let t = RectTransformation.handFromPalm
        let upright = t.apply(to: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.4), imageSize: ImageSize(width: 100, height: 50))
        #expect(abs(upright.yCenter - 0.3) < 1e-7 && upright.xCenter == 0.5)
        #expect(abs(upright.width - 0.52) < 1e-6 && abs(upright.height - 1.04) < 1e-6)
        // Rotated by π/2, shift_y −0.5 moves along the local up = image +x, by 0.5·h·H px.
        let rotated = t.apply(
            to: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.4, rotation: Float.pi / 2),
            imageSize: ImageSize(width: 100, height: 50))
        #expect(abs(rotated.xCenter - 0.6) < 1e-6 && abs(rotated.yCenter - 0.5) < 1e-6)
        #expect(rotated.rotation == Float.pi / 2)
        // square_long uses pixels: 0.2·100 = 20 px wide, 0.2·50 = 10 px high → 20 px square.
        let square = RectTransformation(squareLong: true).apply(
            to: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.2),
            imageSize: ImageSize(width: 100, height: 50))
        #expect(square.width == 0.2 && square.height == 0.4)
        #expect(RectTransformation.expandedFace.apply(to: .allZero, imageSize: ImageSize(width: 10, height: 10)) == .allZero)
    }

    @Test func detectionProjectionAndLetterbox() {
        // Whole 100×100 image rotated by π/2: project(x, y) = (1 − y, x).
        let m = projectionMatrix(
            for: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1, rotation: Float.pi / 2),
            imageSize: ImageSize(width: 100, height: 100))
        let d = Detection(
            score: 0.7, box: .init(xmin: 0.25, ymin: 0.25, width: 0.5, height: 0.25),
            keypoints: [.init(x: 0.3, y: 0.4)])
        let p = d.projected(by: m)
        #expect(maxAbsDiff([p.box.xmin, p.box.ymin, p.box.width, p.box.height], [0.5, 0.25, 0.25, 0.5]) < 1e-6)
        #expect(maxAbsDiff([p.keypoints[0].x, p.keypoints[0].y], [0.6, 0.3]) < 1e-6)
        #expect(p.score == 0.7)
        // Letterbox removal: padding 0.125 top and bottom.
        let l = d.removingLetterbox(left: 0, top: 0.125, right: 0, bottom: 0.125)
        let unpadded: [Float] = [0.25, 0.125 / 0.75, 0.5, 0.25 / 0.75, 0.275 / 0.75]  // typed: Swift 6.2.3 infers [Double]
        #expect(maxAbsDiff([l.box.xmin, l.box.ymin, l.box.width, l.box.height, l.keypoints[0].y], unpadded) < 1e-6)
        // The unrotated letterboxed whole image: matrix and letterbox removal agree.
        let letterboxMatrix: [Float] = [1, 0, 0, 0, 0, 4.0 / 3.0, 0, -1.0 / 6.0, 0, 0, 1, 0, 0, 0, 0, 1]
        let viaMatrix = d.projected(by: letterboxMatrix)
        #expect(maxAbsDiff(viaMatrix.flattened, l.flattened) < 1e-6)
    }

    @Test func pixelBoundingBox() {
        let d = Detection(score: 1, box: .init(xmin: -0.01, ymin: 0.5, width: 1.2, height: 0.2999), keypoints: [])
        let px = d.pixelBoundingBox(imageSize: ImageSize(width: 640, height: 480))
        #expect(px.x == 0 && px.y == 240 && px.width == 640 && px.height == 143)
    }

    @Test func landmarkDecodingAndProjection() throws {
        let raw: [Float] = [112, 56, 22.4, 0, 224, -44.8]
        let lm = try decodeLandmarks(raw, options: LandmarkDecoderOptions(landmarkCount: 2, tensorWidth: 224, tensorHeight: 224, normalizeZ: 0.4))
        #expect(lm[0] == NormalizedLandmark(x: 0.5, y: 0.25, z: 0.25))
        #expect(lm[1] == NormalizedLandmark(x: 0, y: 1, z: -0.5))
        #expect(throws: (any Error).self) { try decodeLandmarks([1, 2, 3, 4], options: .hand) }

        // Rect path vs matrix path on a rect square in pixels (docs/pipelines.md S8: equal to 1e-7).
        let rect = NormalizedRect(xCenter: 0.4, yCenter: 0.55, width: 0.3, height: 0.4, rotation: 0.7)  // 120×120 px on 400×300
        let points = (0..<30).map { i in NormalizedLandmark(x: Float(i % 6) / 5, y: Float(i / 6) / 4, z: Float(i) / 100 - 0.1) }
        let viaRect = projectLandmarks(points, onto: rect)
        let viaMatrix = projectLandmarks(points, matrix: projectionMatrix(for: rect, imageSize: ImageSize(width: 400, height: 300)))
        #expect(maxAbsDiff(viaRect.flatMap { [$0.x, $0.y] }, viaMatrix.flatMap { [$0.x, $0.y] }) < 3e-7)
        // z differs: the rect path scales by rect.width, the matrix path by the length of the
        // projected unit x-segment, sqrt(m0² + m4²) — equal only without rotation or for W == H.
        let m = projectionMatrix(for: rect, imageSize: ImageSize(width: 400, height: 300))
        let zs = (m[0] * m[0] + m[4] * m[4]).squareRoot()
        #expect(maxAbsDiff(viaMatrix.map(\.z), points.map { $0.z * zs }) < 3e-7)
        #expect(maxAbsDiff(viaRect.map(\.z), points.map { $0.z * rect.width }) < 3e-7)
        var upright = rect
        upright.rotation = 0
        let zUpright = projectLandmarks(points, matrix: projectionMatrix(for: upright, imageSize: ImageSize(width: 400, height: 300))).map(\.z)
        #expect(maxAbsDiff(zUpright, projectLandmarks(points, onto: upright).map(\.z)) < 3e-7)
        // Corner (0, 0) of the ROI is its rotated top-left corner.
        let corner = projectLandmarks([NormalizedLandmark(x: 0, y: 0)], onto: rect)[0]
        let c = cos(Float(0.7)), s = sin(Float(0.7))
        #expect(abs(corner.x - (0.4 + (-0.5 * c + 0.5 * s) * 0.3)) < 1e-6)
        #expect(abs(corner.y - (0.55 + (-0.5 * s - 0.5 * c) * 0.4)) < 1e-6)
        // Letterbox removal rescales z like x.
        let unboxed = removeLetterbox(from: [NormalizedLandmark(x: 0.5, y: 0.2, z: 0.1)], left: 0.25, top: 0, right: 0.25, bottom: 0)
        #expect(unboxed[0] == NormalizedLandmark(x: 0.5, y: 0.2, z: 0.2))
    }

    @Test func worldLandmarksRotate() throws {
        let raw: [Float] = [1, 0, 0.5, 0, 2, -0.5]
        let w = try raw.withUnsafeBufferPointer { try decodeWorldLandmarks($0, count: 2, rotation: Float.pi / 2) }
        #expect(abs(w[0].x) < 1e-6 && abs(w[0].y - 1) < 1e-6 && w[0].z == 0.5)
        #expect(abs(w[1].x + 2) < 1e-6 && abs(w[1].y) < 1e-6 && w[1].z == -0.5)
    }

    @Test func classification() {
        #expect(handedness(probability: 0.5).index == 0)  // a tie keeps index 0
        let right = handedness(probability: 0.99, convention: .tasks)
        #expect(right.categoryName == "Right" && right.index == 0 && right.score == 0.99)
        let left = handedness(probability: 0.25, convention: .tasks)
        #expect(left.categoryName == "Left" && left.index == 1 && left.score == 0.75)
        #expect(handedness(probability: 0.25, convention: .legacy).categoryName == "Right")
        #expect(handedness(probability: 0.99, convention: .legacy).categoryName == "Left")
        #expect(!passesPresenceThreshold(0.5, threshold: 0.5))
        #expect(passesPresenceThreshold(0.5000001, threshold: 0.5))
    }
}
