/// What MediaPipe does with a gesture classifier's scores and how it picks one gesture per hand
/// (`TensorsToClassificationCalculator` as configured by `ConfigureTensorsToClassificationCalculator`,
/// then `CombinedPredictionCalculator` with background label "None").
enum GestureClassification {
    /// One classifier head: its label list (nil when the model has none, as Google's canned
    /// classifier) and the score threshold of its metadata.
    struct Head: Sendable {
        var labels: [String]?
        var metadataScoreThreshold: Float?
    }

    /// The categories a head keeps from `scores` (the classifier ends in a softmax, so they are
    /// used as they are): those not below the threshold (the option's, else the metadata's, else
    /// none) and allowed by the lists, highest score first (ties by index), at most `maxResults`.
    static func categories(_ scores: [Float], head: Head, options: ClassifierOptions) -> [ResultCategory] {
        let threshold = options.scoreThreshold ?? head.metadataScoreThreshold ?? -.greatestFiniteMagnitude
        var kept: [ResultCategory] = []
        for (index, score) in scores.enumerated() {
            if score < threshold { continue }  // MediaPipe's test: a NaN score is kept
            let label = head.labels?[index]
            if let label {
                if !options.categoryAllowlist.isEmpty && !options.categoryAllowlist.contains(label) { continue }
                if options.categoryDenylist.contains(label) { continue }
            }
            kept.append(ResultCategory(index: index, score: score, categoryName: label ?? "", displayName: ""))
        }
        kept.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        if options.maxResults > 0 && kept.count > options.maxResults { kept.removeLast(kept.count - options.maxResults) }
        return kept
    }

    /// The background class's label: a head whose top category has it defers to the next head.
    static let backgroundLabel = "None"

    /// The hand's gesture from the heads' kept categories, custom first: the first head whose top
    /// category is not "None" wins, else the first "None"; nil when every list is empty. As in
    /// MediaPipe, the result has index -1, the label as `categoryName` and an empty `displayName`.
    static func combined(_ lists: [[ResultCategory]]) -> ResultCategory? {
        var first: ResultCategory?
        for list in lists where !list.isEmpty {
            // MediaPipe takes the first category scoring strictly above 0 (an empty prediction if none).
            var top = ResultCategory(index: -1, score: 0, categoryName: "", displayName: "")
            for c in list where c.score > top.score {
                top = ResultCategory(index: -1, score: c.score, categoryName: c.categoryName, displayName: "")
            }
            if top.categoryName != backgroundLabel { return top }
            if first == nil { first = top }
        }
        return first
    }
}

/// Which categories of a classifier a `GestureRecognizer` reports (MediaPipe Tasks'
/// `ClassifierOptions`). Allow and deny lists name labels, so they need a classifier with labels.
public struct ClassifierOptions: Sendable, Hashable {
    /// Scores below this are dropped; `nil` (the default) uses the model's own threshold from its
    /// metadata (Model Maker classifiers carry 0.5), or none.
    public var scoreThreshold: Float?
    /// When not empty, only these labels are kept (names the classifier lacks are ignored, but at
    /// least one must be its).
    public var categoryAllowlist: [String] = []
    /// These labels are dropped. Not together with an allowlist: MediaPipe's ClassifierOptions
    /// declare them mutually exclusive (its GestureRecognizer silently ignores the denylist).
    public var categoryDenylist: [String] = []
    /// At most this many categories per hand before the gesture is picked; ≤ 0: all.
    public var maxResults = -1
    /// Accepted for MediaPipe's API; the models carry no localized display names.
    public var displayNamesLocale = "en"

    public init() {}

    /// Checks the options against the classifier's labels (`what` names it in errors).
    func validate(labels: [String]?, what: String) throws {
        if let t = scoreThreshold, !t.isFinite {
            throw GestureRecognizerError.invalidOption("\(what).scoreThreshold must be finite, got \(t)")
        }
        guard categoryAllowlist.isEmpty || categoryDenylist.isEmpty else {
            throw GestureRecognizerError.invalidOption("\(what): categoryAllowlist and categoryDenylist are mutually exclusive")
        }
        guard let labels else {
            if !(categoryAllowlist.isEmpty && categoryDenylist.isEmpty) {
                throw GestureRecognizerError.invalidOption("\(what): allow and deny lists need a classifier with labels, and this one has none")
            }
            return
        }
        // Unknown names are ignored, as MediaPipe does; an allowlist of only unknown names would
        // silently allow everything there, which is never what it means.
        if !categoryAllowlist.isEmpty && !categoryAllowlist.contains(where: labels.contains) {
            throw GestureRecognizerError.invalidOption(
                "\(what).categoryAllowlist \(categoryAllowlist) names none of the classifier's labels \(labels)")
        }
    }
}
