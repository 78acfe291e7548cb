import BlazeEngine
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// `GestureRecognizer` against MediaPipe 0.10.21's GestureRecognizer (Fixtures/gestures, made by
/// Tools/fixtures/gestures/make_gesture_references.py) on every test photo, with the Model Maker
/// bundle (`custom`: 9 labelled classes, threshold 0.5, then the unlabelled canned classifier) and
/// the same bundle without its custom classifier (`canned`). The gesture nets are converted by
/// Tools/fixtures/gestures/convert_gesture_models.sh; the hand nets are the bundled ones (the
/// bundle's are the same files).
@Suite("Gesture recognizer", .serialized)
struct GestureRecognizerTests {
    struct ReferenceCategory: Decodable { let index: Int; let score: Float; let category_name: String; let display_name: String }
    struct ReferenceHand: Decodable {
        let gestures: [ReferenceCategory]?
        let handedness: [ReferenceCategory]
        let landmarks: [[Float]]
        let world_landmarks: [[Float]]
    }
    struct Reference: Decodable { let width: Int; let height: Int; let gesture_count: Int; let hands: [ReferenceHand] }

    /// Gesture score against MediaPipe's: on MediaPipe's own hand landmarks, end to end through
    /// ours, and in video mode (tracked regions). 3× the worst measured over the avx512, avx2 and
    /// baseline levels (docs/testing.md); the reference rounds to 6 decimals.
    static let scoreTolerance: Float = 1.3e-5
    static let endToEndScoreTolerance: Float = 4.2e-4
    static let videoScoreTolerance: Float = 7.2e-3

    static let models = RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/gestures/models")

    /// A model folder for `bundle`: the committed nets, without the custom classifier for `canned`.
    static func modelFolder(_ bundle: String, in scratch: ScratchFolder) throws -> String {
        guard bundle == "canned" else { return models.path }
        for name in [GestureModels.embedderFile, GestureModels.cannedFile] {
            try FileManager.default.copyItem(at: models.appendingPathComponent(name), to: scratch.url.appendingPathComponent(name))
        }
        return scratch.url.path
    }

    static func recognizer(_ folder: String, configure: (inout GestureRecognizerOptions) -> Void = { _ in }) throws -> GestureRecognizer {
        var options = GestureRecognizerOptions()
        options.baseOptions.modelAssetPath = folder
        options.numHands = 2
        configure(&options)
        return try GestureRecognizer(options: options)
    }

    @Test(arguments: ["custom", "canned"])
    func everyPhotoMatchesMediaPipe(bundle: String) throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let recognizer = try Self.recognizer(try Self.modelFolder(bundle, in: scratch))
        var worst: Float = 0, hands = 0
        for name in try HandTestData.photoNames() {
            let stem = HandTestData.stem(name)
            let reference = try Self.reference(bundle, stem)
            let result = try recognizer.recognize(image: try HandTestData.photo(name))
            #expect(result.landmarks.count == reference.hands.count, "\(bundle) \(stem): \(result.landmarks.count) hands, MediaPipe \(reference.hands.count)")
            guard result.landmarks.count == reference.hands.count else { continue }
            #expect(result.gestures.count == result.landmarks.count && result.handedness.count == result.landmarks.count)
            let referenceLandmarks = reference.hands.map { $0.landmarks.map { NormalizedLandmark(x: $0[0], y: $0[1], z: $0[2]) } }
            let match = handMatch(result.landmarks, referenceLandmarks, width: reference.width, height: reference.height)
            for (i, r) in match.enumerated() {
                let want = try #require(reference.hands[r].gestures?.first, "\(bundle) \(stem): MediaPipe gave hand \(r) no gesture")
                let got = try #require(result.gestures[i].first, "\(bundle) \(stem) hand \(i): no gesture")
                #expect(result.gestures[i].count == 1 && got.index == -1 && got.displayName == "")
                #expect(got.categoryName == want.category_name, "\(bundle) \(stem) hand \(i): \(got.categoryName ?? "nil") vs MediaPipe \(want.category_name)")
                worst = worse(worst, abs(got.score - want.score))
                #expect(abs(got.score - want.score) <= Self.endToEndScoreTolerance, "\(bundle) \(stem) hand \(i): \(got.score) vs \(want.score)")
                hands += 1
            }
        }
        print("[Gestures] \(bundle): \(hands) hands; worst gesture score difference \(worst)")
        #expect(hands >= 15, "the photos hold at least 15 hands MediaPipe recognizes")
    }

    static func reference(_ bundle: String, _ stem: String) throws -> Reference {
        let url = RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/gestures/\(bundle)/\(stem).json")
        return try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }

    /// The gesture part alone: MediaPipe's own hand landmarks, world landmarks and handedness of
    /// every hand in the references through our embedder inputs, nets and classifier rules give
    /// MediaPipe's gesture.
    @Test(arguments: ["custom", "canned"])
    func gesturesOfMediaPipesHandsMatch(bundle: String) throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let recognizer = try Self.recognizer(try Self.modelFolder(bundle, in: scratch))
        let sessions = recognizer.makeSessions()
        var worst: Float = 0, hands = 0
        for name in try HandTestData.photoNames() {
            let stem = HandTestData.stem(name)
            let reference = try Self.reference(bundle, stem)
            for (i, hand) in reference.hands.enumerated() {
                let h = hand.handedness[0]
                let inputs = GestureEmbedderInputs(
                    landmarks: hand.landmarks.map { NormalizedLandmark(x: $0[0], y: $0[1], z: $0[2]) },
                    worldLandmarks: hand.world_landmarks.map { Landmark(x: $0[0], y: $0[1], z: $0[2]) },
                    handedness: ResultCategory(index: h.index, score: h.score, categoryName: h.category_name, displayName: h.display_name),
                    imageWidth: reference.width, imageHeight: reference.height)
                let got = try #require(try recognizer.gesture(inputs, with: sessions))
                let want = try #require(hand.gestures?.first)
                #expect(got.categoryName == want.category_name && got.index == -1 && got.displayName == "", "\(bundle) \(stem) hand \(i)")
                worst = worse(worst, abs(got.score - want.score))
                #expect(abs(got.score - want.score) <= Self.scoreTolerance, "\(bundle) \(stem) hand \(i): \(got.score) vs \(want.score)")
                hands += 1
            }
        }
        print("[Gestures] \(bundle), MediaPipe's hands: \(hands) hands; worst gesture score difference \(worst)")
        #expect(hands >= 15)
    }

    /// The embedder's inputs for MediaPipe Hands' reference landmarks equal the parity fixture's,
    /// which Tools/parity/make_gesture_parity_fixtures.py prepared in NumPy from the same JSON.
    @Test func embedderInputsMatchTheScripts() throws {
        let reference = try HandTestData.reference("two_hands_open_palms", complexity: 1)
        let fixtures = RepoPaths.root.appendingPathComponent("Tests/BlazeConvertTests/Fixtures/gestures/gesture_embedder")
        for (i, hand) in reference.hands.enumerated() {
            let inputs = GestureEmbedderInputs(
                landmarks: hand.landmarks, worldLandmarks: hand.world,
                handedness: ResultCategory(index: hand.index, score: hand.score, categoryName: hand.label, displayName: hand.label),
                imageWidth: reference.width, imageHeight: reference.height)
            let stored = try (0..<3).map { try NPYArray(contentsOf: fixtures.appendingPathComponent("hand_\(i)/input_\($0).npy")).values }
            #expect(inputs.hand == stored[0], "hand \(i): max |Δ| \(maxAbsDifference(inputs.hand, stored[0]))")
            #expect(maxAbsDifference(inputs.handedness, stored[1]) <= 1e-6, "hand \(i): \(inputs.handedness) vs \(stored[1])")
            #expect(inputs.worldHand == stored[2], "hand \(i): max |Δ| \(maxAbsDifference(inputs.worldHand, stored[2]))")
        }
    }

    @Test func badOptionsAreTypedErrors() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        func error(_ configure: (inout GestureRecognizerOptions) -> Void) -> GestureRecognizerError? {
            do { _ = try Self.recognizer(Self.models.path, configure: configure) } catch let e as GestureRecognizerError { return e } catch { return nil }
            return nil
        }
        // Google's canned classifier has no labels: lists cannot name its classes.
        #expect(error { $0.cannedGesturesClassifierOptions.categoryAllowlist = ["Thumb_Up"] }?.description.contains("need a classifier with labels") == true)
        #expect(
            error {
                $0.customGesturesClassifierOptions.categoryAllowlist = ["add"]; $0.customGesturesClassifierOptions.categoryDenylist = ["none"]
            } != nil)
        #expect(error { $0.customGesturesClassifierOptions.scoreThreshold = .nan } != nil)
        #expect(error { $0.numHands = 0 } == .invalidNumHands(0))
        #expect(error { $0.runningMode = .liveStream } == .missingLiveStreamDelegate(option: "gestureRecognizerLiveStreamDelegate"))
        #expect(error { $0.baseOptions.modelAssetPath = scratch.url.path }.map { if case .modelNotFound = $0 { true } else { false } } == true)
        #expect(error { $0.baseOptions.modelAssetPath = "bundle.task" } == .unconvertedModel(path: "bundle.task"))
        let image = try Self.recognizer(Self.models.path)
        #expect(throws: GestureRecognizerError.self) { try image.recognize(videoFrame: try HandTestData.photo("grace_hopper.jpg"), timestampInMilliseconds: 0) }
    }

    /// A custom allowlist keeps only the named classes; a threshold above every score leaves the
    /// custom classifier nothing, so the canned one answers (MediaPipe's fallback).
    @Test func classifierOptionsChangeTheAnswer() throws {
        let photo = try HandTestData.photo("hand_thumb_up_blue_bg.jpg")
        let plain = try Self.recognizer(Self.models.path).recognize(image: photo)
        #expect(plain.gestures.first?.first?.categoryName == "divide")
        let allowed = try Self.recognizer(Self.models.path) {
            $0.customGesturesClassifierOptions.categoryAllowlist = ["plus"]
            $0.customGesturesClassifierOptions.scoreThreshold = 0
        }.recognize(image: photo)
        #expect(allowed.gestures.first?.first?.categoryName == "plus")
        let strict = try Self.recognizer(Self.models.path) { $0.customGesturesClassifierOptions.scoreThreshold = 1.5 }.recognize(image: photo)
        #expect(strict.gestures.first?.first?.categoryName == "", "the unlabelled canned classifier answers")
        let nothing = try Self.recognizer(Self.models.path) {
            $0.customGesturesClassifierOptions.scoreThreshold = 1.5
            $0.cannedGesturesClassifierOptions.scoreThreshold = 1.5
        }.recognize(image: photo)
        #expect(nothing.landmarks.count == 1 && nothing.gestures == [[]], "the hand stays, with no gesture")
    }

    /// Live stream gives, frame by frame, what video mode gives for the same frames (the hand
    /// landmarker tracks in both), delivered in order; after `close()` the stream finishes.
    @Test func liveStreamMatchesVideoMode() async throws {
        let frames = try ["hand_victory_white_bg.jpg", "hand_victory_white_bg.jpg", "hand_thumb_up_blue_bg.jpg", "hand_thumb_up_blue_bg.jpg"]
            .map { try HandTestData.photo($0) }
        let video = try Self.recognizer(Self.models.path) { $0.runningMode = .video }
        let expected = try frames.enumerated().map { try video.recognize(videoFrame: $1, timestampInMilliseconds: $0 * 33) }
        var options = GestureRecognizerOptions()
        options.baseOptions.modelAssetPath = Self.models.path
        options.numHands = 2
        let (live, results) = try GestureRecognizer.liveStream(options: options)
        var iterator = results.makeAsyncIterator()
        for (i, frame) in frames.enumerated() {
            #expect(try live.recognizeAsync(image: frame, timestampInMilliseconds: i * 33), "frame \(i) accepted (the previous one is delivered)")
            let delivered = try #require(await iterator.next())
            #expect(delivered.timestampInMilliseconds == i * 33)
            let result = try delivered.result.get()
            #expect(result == expected[i], "frame \(i)")
            #expect(result.gestures.first?.isEmpty == false && result.trackingIDs.count == result.landmarks.count)
        }
        #expect(throws: GestureRecognizerError.nonIncreasingTimestamp(previous: 99, received: 99)) {
            try live.recognizeAsync(image: frames[0], timestampInMilliseconds: 99)
        }
        live.close()
        #expect(await iterator.next() == nil, "the stream finishes after close()")
        #expect(throws: GestureRecognizerError.closed(method: "recognizeAsync(image:timestampInMilliseconds:)")) {
            try live.recognizeAsync(image: frames[0], timestampInMilliseconds: 200)
        }
    }

    /// The bundled default names the canned classes as MediaPipe documents them. The order is
    /// shown on photos whose gesture a person can see — a raised thumb, a V sign, an open palm —
    /// and its scores are the canned bundle's (the same two nets).
    @Test func defaultRecognizerNamesVisibleGestures() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let bundled = try GestureRecognizer(
            options: {
                var o = GestureRecognizerOptions(); o.numHands = 2; return o
            }())
        let canned = try Self.recognizer(try Self.modelFolder("canned", in: scratch))
        func names(_ photo: String) throws -> [String] {
            try bundled.recognize(image: try HandTestData.photo(photo)).gestures.map { $0.first?.categoryName ?? "-" }
        }
        #expect(try names("hand_thumb_up_blue_bg.jpg") == ["Thumb_Up"])
        #expect(try names("hand_victory_white_bg.jpg") == ["Victory"])
        #expect(try names("two_hands_open_palms.jpg").contains("Open_Palm"))
        for name in try HandTestData.photoNames() {
            let photo = try HandTestData.photo(name)
            let ours = try bundled.recognize(image: photo), theirs = try canned.recognize(image: photo)
            #expect(ours.landmarks == theirs.landmarks, "\(name)")
            #expect(ours.gestures.map { $0.map(\.score) } == theirs.gestures.map { $0.map(\.score) }, "\(name)")
            #expect(ours.gestures.joined().allSatisfy { GestureModels.cannedGestureNames.contains($0.categoryName ?? "") }, "\(name)")
            #expect(theirs.gestures.joined().allSatisfy { $0.categoryName == "" }, "a bundle's unlabelled classifier keeps MediaPipe's empty names")
        }
    }

    struct VideoReference: Decodable {
        struct Frame: Decodable { let frame: Int; let timestamp_ms: Int; let hands: [ReferenceHand] }
        let width: Int; let height: Int; let frames: [Frame]
    }

    /// Video mode on the 10-frame hand clip (Fixtures/hands/two_hands_video.y4m) against MediaPipe's
    /// GestureRecognizer in VIDEO mode on the same frames: the same gestures frame by frame.
    @Test(arguments: ["custom", "canned"])
    func videoModeMatchesMediaPipe(bundle: String) throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let recognizer = try Self.recognizer(try Self.modelFolder(bundle, in: scratch)) { $0.runningMode = .video }
        let url = RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/gestures/\(bundle)/two_hands_video.json")
        let reference = try JSONDecoder().decode(VideoReference.self, from: Data(contentsOf: url))
        let reader = try Y4MReader(path: RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/hands/two_hands_video.y4m").path)
        var worst: Float = 0, hands = 0
        for want in reference.frames {
            let frame = try #require(try reader.nextFrame())
            let result = try recognizer.recognize(videoFrame: frame.image, timestampInMilliseconds: want.timestamp_ms)
            try #require(result.landmarks.count == want.hands.count, "\(bundle) frame \(want.frame): \(result.landmarks.count) hands, MediaPipe \(want.hands.count)")
            let wantLandmarks = want.hands.map { $0.landmarks.map { NormalizedLandmark(x: $0[0], y: $0[1], z: $0[2]) } }
            for (i, r) in handMatch(result.landmarks, wantLandmarks, width: reference.width, height: reference.height).enumerated() {
                let got = try #require(result.gestures[i].first), theirs = try #require(want.hands[r].gestures?.first)
                #expect(got.categoryName == theirs.category_name, "\(bundle) frame \(want.frame) hand \(i)")
                worst = worse(worst, abs(got.score - theirs.score))
                #expect(abs(got.score - theirs.score) <= Self.videoScoreTolerance, "\(bundle) frame \(want.frame) hand \(i): \(got.score) vs \(theirs.score)")
                hands += 1
            }
        }
        print("[Gestures] \(bundle), video: \(hands) hands in \(reference.frames.count) frames; worst gesture score difference \(worst)")
        #expect(hands == 20)
    }

    /// A bundle folder with an entry missing, a corrupt classifier, a net in the wrong place, or
    /// labels that do not match the classes: one typed error each, naming the file.
    @Test func badBundlesAreTypedErrors() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        func folder(_ name: String, _ files: [String: String]) throws -> String {
            let dir = scratch.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (to, from) in files { try FileManager.default.copyItem(at: Self.models.appendingPathComponent(from), to: dir.appendingPathComponent(to)) }
            return dir.path
        }
        func error(_ path: String) -> GestureRecognizerError? {
            do { _ = try Self.recognizer(path) } catch let e as GestureRecognizerError { return e } catch { return nil }
            return nil
        }
        let e = GestureModels.embedderFile, c = GestureModels.cannedFile, u = GestureModels.customFile
        // No embedder.
        let missingFolder = try folder("missing", [c: c])
        let missing = error(missingFolder)
        #expect(missing.map { if case .modelNotFound = $0 { true } else { false } } == true && missing?.description.contains(e) == true, "\(String(describing: missing))")
        // The message names the file's path once (the loader and the reader each used to add it).
        let missingPath = URL(fileURLWithPath: missingFolder).appendingPathComponent(e).path
        #expect(missing?.description.components(separatedBy: e).count == 2 && missing?.description.contains(missingPath) == true, "\(String(describing: missing))")
        // A classifier where the embedder belongs: wrong inputs and embedding size.
        let swapped = error(try folder("swapped", [e: c, c: c]))
        #expect(swapped.map { if case .invalidModel = $0 { true } else { false } } == true && swapped?.description.contains("not a gesture embedder") == true)
        // The embedder where a classifier belongs.
        let wrongHead = error(try folder("wrong_head", [e: e, c: e]))
        #expect(wrongHead?.description.contains("not a gesture classifier") == true, "\(String(describing: wrongHead))")
        // A truncated classifier file.
        let truncatedFolder = try folder("truncated", [e: e, c: c])
        let canned = URL(fileURLWithPath: truncatedFolder).appendingPathComponent(c)
        try Data(try Data(contentsOf: canned).prefix(100)).write(to: canned)
        let truncated = error(truncatedFolder)
        #expect(truncated.map { if case .invalidModel = $0 { true } else { false } } == true && truncated?.description.contains(c) == true, "\(String(describing: truncated))")
        #expect(truncated?.description.components(separatedBy: canned.path).count == 2, "\(String(describing: truncated))")
        // Labels that do not match the classes.
        var graph = try Model(contentsOf: Self.models.appendingPathComponent(u)).graph
        graph.metadata["output.0.labels"] = "a\nb"
        #expect(throws: GestureRecognizerError.invalidModel("\(u) has 2 labels for 9 classes")) { try GestureModels.head(try Model(graph: graph), file: u) }
        graph.metadata["output.0.labels"] = nil
        graph.metadata["output.0.score_threshold"] = "x"
        #expect(throws: GestureRecognizerError.self) { try GestureModels.head(try Model(graph: graph), file: u) }
    }
}
