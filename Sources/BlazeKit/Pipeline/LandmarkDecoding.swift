import BlazeEngine
import Foundation

/// Options of MediaPipe's `TensorsToLandmarksCalculator` (docs/pipelines.md S8 step 1).
struct LandmarkDecoderOptions: Sendable, Hashable {
    var landmarkCount: Int
    /// Tensor size in pixels (`input_image_width/height`).
    var tensorWidth: Int
    var tensorHeight: Int
    /// `normalize_z`: extra divisor of z (hands 0.4, faces 1.0).
    var normalizeZ: Float = 1

    /// Hand landmark model: 21 points, 224², normalize_z 0.4.
    static let hand = LandmarkDecoderOptions(landmarkCount: 21, tensorWidth: 224, tensorHeight: 224, normalizeZ: 0.4)
    /// Face mesh v1 (`face_landmark.tflite`): 468 points, 192².
    static let faceMesh = LandmarkDecoderOptions(landmarkCount: 468, tensorWidth: 192, tensorHeight: 192)
    /// Face mesh v2 (Tasks `face_landmarks_detector`): 478 points, 256².
    static let faceMeshV2 = LandmarkDecoderOptions(landmarkCount: 478, tensorWidth: 256, tensorHeight: 256)
}

/// docs/pipelines.md S8 step 1: `landmarkCount` triples `(x, y, z)` in tensor pixels → normalized
/// tensor coordinates: `x/TW`, `y/TH`, `z/TW/normalizeZ`. Values beyond the first
/// `3·landmarkCount` are ignored (MediaPipe reads `count / landmarkCount` values per landmark
/// and uses the first three).
///
/// - Throws: `BlazeError(.shapeMismatch)` when `raw` is not a positive multiple of
///   `landmarkCount` with at least 3 values per landmark.
func decodeLandmarks(_ raw: UnsafeBufferPointer<Float>, options: LandmarkDecoderOptions) throws -> [NormalizedLandmark] {
    let n = options.landmarkCount
    guard n > 0, raw.count % n == 0, raw.count / n >= 3 else {
        throw BlazeError(.shapeMismatch, "expected \(n) landmarks × ≥3 values, got \(raw.count) values")
    }
    let dims = raw.count / n
    let tw = Float(options.tensorWidth), th = Float(options.tensorHeight)
    return (0..<n).map { i in
        let o = i * dims
        return NormalizedLandmark(x: raw[o] / tw, y: raw[o + 1] / th, z: raw[o + 2] / tw / options.normalizeZ)
    }
}

/// `decodeLandmarks(_:options:)` on an array.
func decodeLandmarks(_ raw: [Float], options: LandmarkDecoderOptions) throws -> [NormalizedLandmark] {
    try raw.withUnsafeBufferPointer { try decodeLandmarks($0, options: options) }
}

/// docs/pipelines.md S8 step 2 (`LandmarkLetterboxRemovalCalculator`): padding as fractions of the
/// tensor size; z is rescaled like x.
func removeLetterbox(
    from landmarks: [NormalizedLandmark], left: Float, top: Float,
    right: Float, bottom: Float
) -> [NormalizedLandmark] {
    let sx = 1 - (left + right), sy = 1 - (top + bottom)
    return landmarks.map { NormalizedLandmark(x: ($0.x - left) / sx, y: ($0.y - top) / sy, z: $0.z / sx) }
}

/// docs/pipelines.md S8 step 3, *rect path* (`LandmarkProjectionCalculator` with `NORM_RECT`; legacy
/// pipelines, Tasks hands): rotate `(x − 0.5, y − 0.5)` by the rect's rotation, scale by its
/// size, add its centre; `Z = z·rect.width`. Exact for ROIs that are square in pixels.
func projectLandmarks(_ landmarks: [NormalizedLandmark], onto rect: NormalizedRect) -> [NormalizedLandmark] {
    let c = cos(rect.rotation), s = sin(rect.rotation)
    return landmarks.map { lm in
        let x = lm.x - 0.5, y = lm.y - 0.5
        let nx = c * x - s * y, ny = s * x + c * y
        return NormalizedLandmark(
            x: nx * rect.width + rect.xCenter, y: ny * rect.height + rect.yCenter,
            z: lm.z * rect.width)
    }
}

/// docs/pipelines.md S8 step 3, *matrix path* (Tasks face landmarks): project `(x, y)` with the 4×4
/// row-major matrix (`projectionMatrix(for:imageSize:)` of the ROI); `Z = z·zs`
/// with `zs` the length of the projected unit x-segment.
func projectLandmarks(_ landmarks: [NormalizedLandmark], matrix: [Float]) -> [NormalizedLandmark] {
    precondition(matrix.count == 16, "a projection matrix has 16 elements, got \(matrix.count)")
    let m = matrix
    // CalculateZScale: |project(1,0) − project(0,0)|, squared with std::pow (double).
    let dx = Double((1 * m[0] + 0 * m[1] + m[3]) - (0 * m[0] + 0 * m[1] + m[3]))
    let dy = Double((1 * m[4] + 0 * m[5] + m[7]) - (0 * m[4] + 0 * m[5] + m[7]))
    let zScale = Float((dx * dx + dy * dy).squareRoot())
    return landmarks.map { lm in
        NormalizedLandmark(
            x: lm.x * m[0] + lm.y * m[1] + lm.z * m[2] + m[3],
            y: lm.x * m[4] + lm.y * m[5] + lm.z * m[6] + m[7],
            z: zScale * lm.z)
    }
}

/// docs/pipelines.md S8 step 4 (`WorldLandmarkProjectionCalculator`): world landmarks
/// (`3·count` floats, metres) rotated in x/y by the ROI rotation; z unchanged; no translation.
///
/// - Throws: `BlazeError(.shapeMismatch)` when `raw.count != 3·count`.
func decodeWorldLandmarks(_ raw: UnsafeBufferPointer<Float>, count: Int, rotation: Float) throws -> [WorldLandmark] {
    guard raw.count == 3 * count else {
        throw BlazeError(.shapeMismatch, "expected \(3 * count) world landmark values, got \(raw.count)")
    }
    let c = cos(rotation), s = sin(rotation)
    return (0..<count).map { i in
        let x = raw[3 * i], y = raw[3 * i + 1]
        return WorldLandmark(x: c * x - s * y, y: s * x + c * y, z: raw[3 * i + 2])
    }
}

/// The 4×4 row-major matrix from normalized ROI coordinates to normalized image coordinates
/// for `rect` on a W×H image, without letterbox (MediaPipe's
/// `GetRotatedSubRectToRectTransformMatrix`, docs/pipelines.md S1 step 7; Float32 in the C++ order).
func projectionMatrix(for rect: NormalizedRect, imageSize: ImageSize) -> [Float] {
    let iw = Float(imageSize.width), ih = Float(imageSize.height)
    return rotatedSubRectToRectMatrix(
        centerX: rect.xCenter * iw, centerY: rect.yCenter * ih, width: rect.width * iw,
        height: rect.height * ih, rotation: rect.rotation, imageWidth: iw, imageHeight: ih)
}
