import BlazeEngine
import BlazeModels
import Foundation

/// The gesture nets of a converted bundle: the embedder, Google's canned classifier and, in a
/// Model Maker bundle, the custom classifier, each checked for MediaPipe's shapes, with the
/// classifiers' labels and score thresholds from their metadata (`output.0.labels`,
/// `output.0.score_threshold`, written by the converter).
package struct GestureModels: Sendable {
    let embedder: Model
    let canned: Model
    let custom: Model?
    let cannedHead: GestureClassification.Head
    let customHead: GestureClassification.Head?

    static let embedderFile = "gesture_embedder.bkm"
    static let cannedFile = "canned_gesture_classifier.bkm"
    package static let customFile = "custom_gesture_classifier.bkm"
    /// What a converted bundle must hold (`customFile` is optional).
    package static let requiredFiles = [embedderFile, cannedFile]
    static let embeddingSize = 128

    /// The canned classifier's class names, in its output order, as MediaPipe documents them
    /// (`gesture_recognizer.h`). Google's classifier carries no labels, so MediaPipe reports empty
    /// names; BlazeKit's bundled default uses these. The order is checked on photos whose gesture a
    /// person can see (GestureRecognizerTests.defaultRecognizerNamesVisibleGestures).
    static let cannedGestureNames = ["None", "Closed_Fist", "Open_Palm", "Pointing_Up", "Thumb_Down", "Thumb_Up", "Victory", "ILoveYou"]

    /// The bundled default: Google's embedder and canned classifier, with `cannedGestureNames`.
    static func bundled() throws -> GestureModels {
        try GestureModels(
            locate: { name in
                do { return try BundledModels.url(ofFile: name) } catch let error as BlazeError {
                    throw GestureRecognizerError.modelNotFound("\(error)", underlying: error)
                }
            }, cannedNames: cannedGestureNames, customFile: false)
    }

    /// Loads the nets from `folder` (a converted bundle).
    init(folder: URL) throws {
        try self.init(locate: { folder.appendingPathComponent($0) }, cannedNames: nil, customFile: true)
    }

    /// Loads the nets `locate` finds; `cannedNames` label a canned classifier that has none;
    /// `customFile`: look for a custom classifier too.
    private init(locate: (String) throws -> URL, cannedNames: [String]?, customFile: Bool) throws {
        func load(_ name: String) throws -> Model {
            try TasksError.loadModel(
                locate(name), hint: "the folder must hold a converted gesture bundle: `blaze-model convert bundle.task --output-dir DIR`")
        }
        embedder = try load(Self.embedderFile)
        let embedderInputs = embedder.inputs.map { $0.shape.reduce(1, *) }, embedderOutputs = embedder.outputs.map { $0.shape.reduce(1, *) }
        guard embedderInputs == [63, 1, 63], embedderOutputs == [Self.embeddingSize] else {
            throw GestureRecognizerError.invalidModel(
                "\(Self.embedderFile) is not a gesture embedder: expected inputs of 63, 1 and 63 values and an output of \(Self.embeddingSize), "
                    + "got \(embedder.inputs.map(\.shape)) → \(embedder.outputs.map(\.shape))")
        }
        canned = try load(Self.cannedFile)
        var cannedHead = try Self.head(canned, file: Self.cannedFile)
        if cannedHead.labels == nil, let names = cannedNames, names.count == canned.outputs[0].shape.reduce(1, *) {
            cannedHead.labels = names
        }
        self.cannedHead = cannedHead
        if customFile, let url = try? locate(Self.customFile), FileManager.default.fileExists(atPath: url.path) {
            let model = try load(Self.customFile)
            custom = model
            customHead = try Self.head(model, file: Self.customFile)
        } else {
            custom = nil
            customHead = nil
        }
    }

    /// A classifier's head, after checking it maps one embedding to one score vector.
    static func head(_ model: Model, file: String) throws -> GestureClassification.Head {
        guard model.inputs.map({ $0.shape.reduce(1, *) }) == [embeddingSize], model.outputs.count == 1 else {
            throw GestureRecognizerError.invalidModel(
                "\(file) is not a gesture classifier: expected one input of \(embeddingSize) values and one output, got \(model.inputs.map(\.shape)) → \(model.outputs.map(\.shape))"
            )
        }
        let classes = model.outputs[0].shape.reduce(1, *)
        let metadata = model.graph.metadata
        let labels = metadata["output.0.labels"].map { $0.components(separatedBy: "\n") }
        if let labels, labels.count != classes {
            throw GestureRecognizerError.invalidModel("\(file) has \(labels.count) labels for \(classes) classes")
        }
        var threshold: Float?
        if let text = metadata["output.0.score_threshold"] {
            guard let value = Float(text), value.isFinite else {
                throw GestureRecognizerError.invalidModel("\(file): score threshold '\(text)' in its metadata is not a number")
            }
            threshold = value
        }
        return GestureClassification.Head(labels: labels, metadataScoreThreshold: threshold)
    }

    func makeSessions(threads: Int?) -> GestureSessions {
        // The nets are tiny (a 128-wide MLP): one thread each, whatever the hand nets use.
        GestureSessions(
            embedder: embedder.makeSession(threads: 1), canned: canned.makeSession(threads: 1),
            custom: custom?.makeSession(threads: 1))
    }
}

/// One session per gesture net: what one thread needs to classify hands. Not thread-safe.
final class GestureSessions: @unchecked Sendable {
    // @unchecked: a set is used by one thread at a time (the recognizer's pool hands it out).
    let embedder: Session
    let canned: Session
    let custom: Session?

    init(embedder: Session, canned: Session, custom: Session?) {
        self.embedder = embedder
        self.canned = canned
        self.custom = custom
    }

    /// The embedding of one hand's prepared inputs.
    func embedding(_ inputs: GestureEmbedderInputs) throws -> [Float] {
        try embedder.run([inputs.hand, inputs.handedness, inputs.worldHand])[0]
    }
}
