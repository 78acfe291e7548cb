/// Index tables that turn the 478-point mesh into ML Kit's features (docs/pipelines.md §5.2, §5.5).

extension FaceContourType {
    /// Mesh indices of this contour, in ML Kit order (docs/pipelines.md §5.2, BlazeKit's choice): FACE starts
    /// at the forehead top and runs clockwise on screen; eyes start at the corner with the
    /// smaller image x and run clockwise (upper lid first); eyebrows, lips and the nose bottom run
    /// from image-left to image-right.
    public var meshIndices: [Int] {
        switch self {
        case .face:
            [
                10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377,
                152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109
            ] as [Int]
        case .leftEyebrowTop: [336, 296, 334, 293, 300] as [Int]
        case .leftEyebrowBottom: [285, 295, 282, 283, 276] as [Int]
        case .rightEyebrowTop: [70, 63, 105, 66, 107] as [Int]
        case .rightEyebrowBottom: [46, 53, 52, 65, 55] as [Int]
        case .leftEye: [362, 398, 384, 385, 386, 387, 388, 466, 263, 249, 390, 373, 374, 380, 381, 382] as [Int]
        case .rightEye: [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7] as [Int]
        case .upperLipTop: [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291] as [Int]
        case .upperLipBottom: [191, 80, 81, 82, 13, 312, 311, 310, 415] as [Int]
        case .lowerLipTop: [95, 88, 178, 87, 14, 317, 402, 318, 324] as [Int]
        case .lowerLipBottom: [146, 91, 181, 84, 17, 314, 405, 321, 375] as [Int]
        case .noseBridge: [168, 4] as [Int]
        case .noseBottom: [98, 2, 327] as [Int]
        case .leftCheek: [425] as [Int]
        case .rightCheek: [205] as [Int]
        }
    }
}

extension FaceLandmarkType {
    /// Mesh indices whose mean is this landmark (docs/pipelines.md §5.2, BlazeKit's choice): the eyes are the
    /// mean of their 16 contour points; every other landmark is one mesh point (ears 454 / 234).
    public var meshIndices: [Int] {
        switch self {
        case .leftEye: FaceContourType.leftEye.meshIndices
        case .rightEye: FaceContourType.rightEye.meshIndices
        case .leftEar: [454]
        case .rightEar: [234]
        case .leftCheek: [425]
        case .rightCheek: [205]
        case .noseBase: [2]
        case .mouthLeft: [291]
        case .mouthRight: [61]
        case .mouthBottom: [17]
        }
    }
}

/// The blendshape net's input: these 146 mesh indices, in this order (docs/pipelines.md §5.5).
let blendshapeLandmarkIndices: [Int] = [
    0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54,
    55, 58, 61, 63, 65, 66, 67, 70, 78, 80, 81, 82, 84, 87, 88, 91, 93, 95, 103, 105,
    107, 109, 127, 132, 133, 136, 144, 145, 146, 148, 149, 150, 152, 153, 154, 155, 157, 158, 159, 160,
    161, 162, 163, 168, 172, 173, 176, 178, 181, 185, 191, 195, 197, 234, 246, 249, 251, 263, 267, 269,
    270, 276, 282, 283, 284, 285, 288, 291, 293, 295, 296, 297, 300, 308, 310, 311, 312, 314, 317, 318,
    321, 323, 324, 332, 334, 336, 338, 356, 361, 362, 365, 373, 374, 375, 377, 378, 379, 380, 381, 382,
    384, 385, 386, 387, 388, 389, 390, 397, 398, 400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471,
    472, 473, 474, 475, 476, 477
]

/// The 52 blendshape category names in output order (docs/pipelines.md §5.5; `_neutral` included).
public let faceBlendshapeNames: [String] = [
    "_neutral", "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight",
    "cheekPuff", "cheekSquintLeft", "cheekSquintRight",
    "eyeBlinkLeft", "eyeBlinkRight", "eyeLookDownLeft", "eyeLookDownRight", "eyeLookInLeft", "eyeLookInRight",
    "eyeLookOutLeft", "eyeLookOutRight", "eyeLookUpLeft", "eyeLookUpRight", "eyeSquintLeft", "eyeSquintRight",
    "eyeWideLeft", "eyeWideRight",
    "jawForward", "jawLeft", "jawOpen", "jawRight", "mouthClose",
    "mouthDimpleLeft", "mouthDimpleRight", "mouthFrownLeft", "mouthFrownRight", "mouthFunnel", "mouthLeft",
    "mouthLowerDownLeft", "mouthLowerDownRight", "mouthPressLeft", "mouthPressRight", "mouthPucker", "mouthRight",
    "mouthRollLower", "mouthRollUpper", "mouthShrugLower", "mouthShrugUpper",
    "mouthSmileLeft", "mouthSmileRight", "mouthStretchLeft", "mouthStretchRight", "mouthUpperUpLeft",
    "mouthUpperUpRight", "noseSneerLeft", "noseSneerRight"
]

/// ML Kit's classification from the 52 blendshape scores (docs/pipelines.md §5.5, BlazeKit's choice).
/// "Left" is the subject's left in both naming schemes.
struct FaceClassification: Sendable, Hashable {
    var smiling: Double
    var leftEyeOpen: Double
    var rightEyeOpen: Double

    static let eyeBlinkLeft = 9, eyeBlinkRight = 10, mouthSmileLeft = 44, mouthSmileRight = 45

    /// `smiling = (mouthSmileLeft + mouthSmileRight)/2`, `eyeOpen = 1 − eyeBlink`, clamped to [0, 1];
    /// nil when a score is not finite.
    init?(blendshapes scores: [Float]) {
        guard scores.count == faceBlendshapeNames.count else { return nil }
        let smile = (Double(scores[Self.mouthSmileLeft]) + Double(scores[Self.mouthSmileRight])) / 2
        let left = 1 - Double(scores[Self.eyeBlinkLeft]), right = 1 - Double(scores[Self.eyeBlinkRight])
        guard smile.isFinite, left.isFinite, right.isFinite else { return nil }
        func unit(_ v: Double) -> Double { min(1, max(0, v)) }
        smiling = unit(smile)
        leftEyeOpen = unit(left)
        rightEyeOpen = unit(right)
    }
}
