import Testing
@testable import BlazeKit

/// MediaPipe's classifier postprocessing and canned/custom combination, on hand-made scores.
@Suite struct GestureClassificationTests {
    typealias C = GestureClassification
    static let labels = ["none", "0", "add", "None"]

    static func names(_ list: [ResultCategory]) -> [String] { list.map { $0.categoryName ?? "?" } }

    @Test func thresholdsListsAndMaxResults() {
        let head = C.Head(labels: Self.labels, metadataScoreThreshold: 0.25)
        let scores: [Float] = [0.1, 0.3, 0.25, 0.35]
        // The metadata's threshold: 0.25 itself is kept (MediaPipe drops only scores below it).
        #expect(Self.names(C.categories(scores, head: head, options: ClassifierOptions())) == ["None", "0", "add"])
        var o = ClassifierOptions()
        o.scoreThreshold = 0  // the option wins over the metadata
        #expect(Self.names(C.categories(scores, head: head, options: o)) == ["None", "0", "add", "none"])
        o.maxResults = 2
        #expect(Self.names(C.categories(scores, head: head, options: o)) == ["None", "0"])
        o.maxResults = -1
        o.categoryDenylist = ["None", "0"]
        #expect(Self.names(C.categories(scores, head: head, options: o)) == ["add", "none"])
        o.categoryDenylist = []
        o.categoryAllowlist = ["none"]
        #expect(Self.names(C.categories(scores, head: head, options: o)) == ["none"])
        // Without labels: empty names, every index kept; equal scores by index; a NaN is not below anything.
        let unlabelled = C.categories([0.5, .nan, 0.5], head: C.Head(labels: nil), options: ClassifierOptions())
        #expect(unlabelled.map(\.index).sorted() == [0, 1, 2] && unlabelled.allSatisfy { $0.categoryName == "" })
        #expect(C.categories([0.5, 0.5], head: C.Head(labels: nil), options: ClassifierOptions()).map(\.index) == [0, 1])
    }

    @Test func customFirstThenCannedUnlessNone() {
        func c(_ name: String, _ score: Float) -> ResultCategory { ResultCategory(index: 3, score: score, categoryName: name, displayName: "x") }
        // The custom head's top wins, reported as MediaPipe does: index -1, no display name.
        let custom = C.combined([[c("add", 0.7), c("0", 0.2)], [c("Thumb_Up", 0.9)]])
        #expect(custom == ResultCategory(index: -1, score: 0.7, categoryName: "add", displayName: ""))
        // An empty custom list (all below its threshold) defers to the canned head.
        #expect(C.combined([[], [c("", 0.6)]])?.score == 0.6)
        // "None" (case-sensitive) defers too; Model Maker's "none" does not.
        #expect(C.combined([[c("None", 0.8)], [c("Victory", 0.4)]])?.categoryName == "Victory")
        #expect(C.combined([[c("none", 0.8)], [c("Victory", 0.4)]])?.categoryName == "none")
        // Both "None": the first one.
        #expect(C.combined([[c("None", 0.8)], [c("None", 0.9)]])?.score == 0.8)
        // Nothing kept anywhere: no gesture.
        #expect(C.combined([[], []]) == nil)
    }
}
