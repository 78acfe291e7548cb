/// docs/pipelines.md S10: presence flags and binary classification.

/// Presence test of `ThresholdingCalculator`: present iff `score > threshold` (strictly).
@inlinable
func passesPresenceThreshold(_ score: Float, threshold: Float) -> Bool { score > threshold }

/// One category of a classification result.
public struct ClassificationCategory: Sendable, Hashable {
    public var index: Int
    public var score: Float
    public var categoryName: String

    public init(index: Int, score: Float, categoryName: String) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
    }
}

/// `TensorsToClassificationCalculator` with `binary_classification` and `top_k = 1`: the
/// candidates are `{0, p}` and `{1, 1 − p}`; the higher score wins and a tie keeps index 0.
func binaryClassification(probability p: Float, labels: (String, String)) -> ClassificationCategory {
    let q = Float(1.0 - Double(p))
    return p >= q
        ? ClassificationCategory(index: 0, score: p, categoryName: labels.0)
        : ClassificationCategory(index: 1, score: q, categoryName: labels.1)
}

/// How the hand model's handedness output is named (docs/pipelines.md §6.5). The probability `p`
/// (output `Identity_2`) is the same in both; only the names of index 0 and 1 differ.
enum HandednessConvention: Sendable, Hashable {
    /// MediaPipe Tasks: index 0 = "Right", 1 = "Left" — the anatomical hand of a non-mirrored
    /// image.
    case tasks
    /// Legacy `mp.solutions.hands` (`handedness.txt`): index 0 = "Left", 1 = "Right", which
    /// assumes a mirrored (selfie) image. The reference JSONs use this.
    case legacy

    /// Labels of index 0 and 1.
    var labels: (String, String) {
        switch self {
        case .tasks: ("Right", "Left")
        case .legacy: ("Left", "Right")
        }
    }
}

/// The handedness category for the hand model's probability output `p` = P(index 0).
func handedness(probability p: Float, convention: HandednessConvention = .tasks) -> ClassificationCategory {
    binaryClassification(probability: p, labels: convention.labels)
}
