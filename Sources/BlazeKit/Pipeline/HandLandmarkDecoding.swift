import BlazeEngine

/// The hand landmark model's outputs for one ROI, decoded (docs/pipelines.md §6.4, §6.5).
struct DecodedHand: Sendable, Hashable {
    /// 21 landmarks, normalized to the image (S8 with normalize_z 0.4, rect path).
    var landmarks: [NormalizedLandmark]
    /// 21 world landmarks in metres, rotated by the ROI rotation (S8 step 4).
    var worldLandmarks: [WorldLandmark]
    /// Hand presence probability (output 1, already a probability). A hand is kept iff
    /// `presence > threshold` (`passesPresenceThreshold`).
    var presence: Float
    /// P(index 0) of the handedness output (output 2).
    var handednessProbability: Float
    /// The handedness category for the convention asked for.
    var handedness: ClassificationCategory
}

/// Number of landmarks of the hand model.
let handLandmarkCount = 21

/// Decodes the four outputs of `hand_landmark_full/lite` run on the crop of `roi`.
///
/// - Parameters:
///   - outputs: in tensor order: `Identity` 63 landmark values (224-px units), `Identity_1`
///     presence, `Identity_2` handedness probability, `Identity_3` 63 world values (metres).
///     (The TFLite metadata lists another order; it is wrong, see §6.4.)
///   - roi: the hand ROI the crop was cut from (normalized image coordinates).
///   - padding: letterbox padding of the crop `[left, top, right, bottom]` (0 for the square
///     hand ROIs).
/// - Throws: `BlazeError(.shapeMismatch)` for a wrong number or size of outputs.
func decodeHandLandmarks(
    outputs: [[Float]], roi: NormalizedRect,
    padding: (left: Float, top: Float, right: Float, bottom: Float) = (0, 0, 0, 0),
    convention: HandednessConvention = .tasks
) throws -> DecodedHand {
    guard outputs.count == 4, outputs[1].count == 1, outputs[2].count == 1 else {
        throw BlazeError(.shapeMismatch, "hand landmark model: expected 4 outputs [63, 1, 1, 63], got \(outputs.map(\.count))")
    }
    var landmarks = try decodeLandmarks(outputs[0], options: .hand)
    if padding != (0, 0, 0, 0) {
        landmarks = removeLetterbox(
            from: landmarks, left: padding.left, top: padding.top,
            right: padding.right, bottom: padding.bottom)
    }
    landmarks = projectLandmarks(landmarks, onto: roi)
    let world = try outputs[3].withUnsafeBufferPointer {
        try decodeWorldLandmarks($0, count: handLandmarkCount, rotation: roi.rotation)
    }
    let p = outputs[2][0]
    return DecodedHand(
        landmarks: landmarks, worldLandmarks: world, presence: outputs[1][0],
        handednessProbability: p, handedness: handedness(probability: p, convention: convention))
}
