import BlazeTestSupport
import Foundation
import Testing

/// `blaze faces` / `blaze hands` as docs/cli.md describes them, run as a child process on the
/// committed test photos (Tests/Fixtures/testdata, provenance in its SOURCES.md). Expected face
/// and hand counts and labels come from the MediaPipe 0.10.21 reference JSON there.
@Suite("blaze command line")
struct BlazeCLITests {
    let tool: URL

    init() throws {
        tool = try #require(ProcessRunner.executable("blaze"), "blaze not built next to the tests")
    }

    func image(_ name: String) -> String { RepoPaths.testImages.appendingPathComponent(name).path }

    func blaze(_ args: [String], stdin: Data? = nil) throws -> ProcessResult {
        let r = try ProcessRunner.run(tool, args, stdin: stdin)
        #expect(!r.crashed, "blaze \(args) crashed: \(r.stderr)")
        return r
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    func referenceCount(_ stem: String, _ kind: String, key: String) throws -> Int {
        let url = RepoPaths.referenceOutputs.appendingPathComponent("\(stem).\(kind).json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return try #require(object[key] as? [Any]).count
    }

    @Test func facesJSONLinesFollowInputOrderAndReportErrors() throws {
        let inputs = [image("three_people.jpg"), image("missing.jpg"), image("neg_coffee.png"), image("sergey_portrait.png")]
        let r = try blaze(["faces", "--json"] + inputs)
        #expect(r.status == 1, "an unreadable input makes the exit status 1")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("missing.jpg"))
        let lines = try jsonLines(r.stdout)
        #expect(lines.compactMap { $0["image"] as? String } == [inputs[0], inputs[2], inputs[3]])
        let counts = lines.map { ($0["faces"] as? [Any])?.count ?? -1 }
        #expect(
            counts == [
                try referenceCount("three_people", "face_detection_short_range", key: "detections"), 0,
                try referenceCount("sergey_portrait", "face_detection_short_range", key: "detections")
            ])
        let faces = try #require(lines[0]["faces"] as? [[String: Any]])
        let scores = faces.compactMap { $0["score"] as? Double }
        #expect(scores == scores.sorted(by: >))
        for face in faces {
            #expect(face["frame"] is [String: Any])
            #expect((face["keypoints"] as? [Any])?.count == 6)
            #expect(face["headEulerAngleX"] == nil, "detector-only mode has no X angle")
            #expect(face["headEulerAngleZ"] != nil && face["headEulerAngleY"] != nil)
            #expect(face["mesh"] == nil && face["landmarks"] == nil && face["trackingID"] == nil)
        }
        #expect(lines[0]["width"] as? Int == 1049 && lines[0]["height"] as? Int == 861)
    }

    @Test func facesAllFieldsAndTracking() throws {
        let r = try blaze(["faces", "--all", "--tracking", "--json", image("sergey_portrait.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("nan") && !r.stdout.contains("inf"))
        let face = try #require((try jsonLines(r.stdout).first?["faces"] as? [[String: Any]])?.first)
        #expect((face["landmarks"] as? [Any])?.count == 10)
        let contours = try #require(face["contours"] as? [[String: Any]])
        #expect(contours.count == 15)
        #expect(contours.reduce(0) { $0 + (($1["points"] as? [Any])?.count ?? 0) } == 133)
        #expect((face["mesh"] as? [Any])?.count == 478)
        for key in [
            "headEulerAngleX", "headEulerAngleY", "headEulerAngleZ", "smilingProbability",
            "leftEyeOpenProbability", "rightEyeOpenProbability", "trackingID"
        ] {
            #expect(face[key] != nil, "missing \(key)")
        }
        // docs/pipelines.md §5.5 sanity: sergey is smiling (0.83 from the reference blendshapes).
        #expect(abs((face["smilingProbability"] as? Double ?? 0) - 0.83) < 0.05)
    }

    @Test func facesAnnotateWritesPNG() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("blaze-annotate-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try blaze(["faces", "--all", "--annotate", out.path, image("grace_hopper.jpg")])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = [UInt8](try Data(contentsOf: out).prefix(8))
        #expect(bytes == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func handsJSONMatchesReferenceCountsAndSwappedLabels() throws {
        let r = try blaze(["hands", "--num-hands", "2", "--json", image("two_hands_open_palms.jpg")])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(try jsonLines(r.stdout).first)
        let hands = try #require(line["hands"] as? [[String: Any]])
        let url = RepoPaths.referenceOutputs.appendingPathComponent("two_hands_open_palms.hands_model_complexity_1.json")
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let refHands = try #require(reference["hands"] as? [[String: Any]])
        #expect(hands.count == refHands.count)
        for (hand, ref) in zip(hands, refHands) {
            #expect((hand["landmarks"] as? [[Double]])?.count == 21)
            #expect((hand["worldLandmarks"] as? [[Double]])?.count == 21)
            let handedness = try #require(hand["handedness"] as? [String: Any])
            let refLabel = try #require((ref["handedness"] as? [String: Any])?["label"] as? String)
            // The legacy reference names the mirrored hand; Tasks names the real hand (§6.5).
            #expect(handedness["categoryName"] as? String == (refLabel == "Left" ? "Right" : "Left"))
            #expect(handedness["index"] as? Int == (refLabel == "Left" ? 0 : 1))
            #expect(hand["trackingID"] == nil, "tracking IDs are for video only")
        }
        let mirrored = try blaze(["hands", "--num-hands", "2", "--mirrored", "--json", image("two_hands_open_palms.jpg")])
        let mirroredHands = try #require(try jsonLines(mirrored.stdout).first?["hands"] as? [[String: Any]])
        for (a, b) in zip(hands, mirroredHands) {
            let ha = try #require(a["handedness"] as? [String: Any]), hb = try #require(b["handedness"] as? [String: Any])
            #expect(ha["categoryName"] as? String != hb["categoryName"] as? String)
            #expect(ha["score"] as? Double == hb["score"] as? Double)
        }
    }

    /// `blaze gestures`: the bundled canned gestures by name, and a bundle given with `--task`
    /// (converted on the fly) with MediaPipe's answers for it (Fixtures/gestures/custom).
    @Test func gesturesJSONWithTheBundledDefaultAndATask() throws {
        let r = try blaze(["gestures", "--json", image("hand_thumb_up_blue_bg.jpg"), image("hand_victory_white_bg.jpg")])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try jsonLines(r.stdout)
        let names = lines.map { (($0["hands"] as? [[String: Any]])?.first?["gestures"] as? [[String: Any]])?.first?["categoryName"] as? String }
        #expect(names == ["Thumb_Up", "Victory"])
        let hand = try #require((lines.first?["hands"] as? [[String: Any]])?.first)
        #expect(hand["handedness"] != nil && (hand["landmarks"] as? [[Double]])?.count == 21 && (hand["worldLandmarks"] as? [[Double]])?.count == 21)

        let task = RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/gestures/gesture_nets.task").path
        let custom = try blaze(["gestures", "--task", task, "--num-hands", "2", "--json", image("two_hands_open_palms.jpg")])
        #expect(custom.status == 0, "\(custom.stderr)")
        let gestures = try #require(try jsonLines(custom.stdout).first?["hands"] as? [[String: Any]]).compactMap {
            (($0["gestures"] as? [[String: Any]])?.first?["categoryName"] as? String)
        }
        // MediaPipe 0.10.21 on this photo with this bundle: "equal" and "divide".
        #expect(gestures.sorted() == ["divide", "equal"])
        let allowed = try blaze(["gestures", "--task", task, "--allow", "plus", "--custom-threshold", "0", "--json", image("hand_thumb_up_blue_bg.jpg")])
        #expect(
            try jsonLines(allowed.stdout).first.flatMap { (($0["hands"] as? [[String: Any]])?.first?["gestures"] as? [[String: Any]])?.first?["categoryName"] as? String } == "plus"
        )
        // Bad options and a file that is no bundle: one line on stderr, status 1.
        for bad in [["--allow", "a", "--deny", "b"], ["--max-results", "0"], ["--task", image("grace_hopper.jpg")], ["--canned-threshold", "2"]] {
            let e = try blaze(["gestures"] + bad + [image("grace_hopper.jpg")])
            #expect(e.status == 1 && !e.stderr.isEmpty && e.stdout.isEmpty, "\(bad): \(e.stderr)")
        }
        let folder = try blaze(["gestures", "--task", RepoPaths.root.path, image("grace_hopper.jpg")])
        #expect(folder.status == 1 && folder.stderr.contains("is a directory, not a .task bundle"), "\(folder.stderr)")
        // Another model file: named for what it is, not for the scratch folder it was converted into.
        let sources = RepoPaths.root.appendingPathComponent("Models/sources")
        let tflite = try blaze(["gestures", "--task", sources.appendingPathComponent("hand_landmark_lite.tflite").path, image("grace_hopper.jpg")])
        #expect(tflite.status == 1 && tflite.stderr.contains("hand_landmark_lite.tflite is one .tflite model, not a .task bundle"), "\(tflite.stderr)")
        let faces = try blaze(["gestures", "--task", sources.appendingPathComponent("face_landmarker.task").path, image("grace_hopper.jpg")])
        #expect(
            faces.status == 1 && faces.stdout.isEmpty
                && faces.stderr.contains(
                    "face_landmarker.task is not a gesture recognizer bundle: it holds face_blendshapes, face_detector, face_landmarks_detector, without gesture_embedder and canned_gesture_classifier"
                ),
            "\(faces.stderr)")
    }

    @Test func handsVideoFromStdin() throws {
        let video = try Data(contentsOf: RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/hands/two_hands_video.y4m"))
        let r = try blaze(["hands", "--num-hands", "2", "--json", "--video", "-"], stdin: video)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try jsonLines(r.stdout)
        // The clip has 10 frames at 30 fps, two hands in each (make_hand_video.py; MediaPipe finds both in every frame).
        #expect(lines.count == 10)
        var ids = Set<Int>()
        for (i, line) in lines.enumerated() {
            #expect(line["image"] as? String == "-")
            #expect(line["frameIndex"] as? Int == i)
            #expect(line["timestampMs"] as? Int == i * 1000 / 30)
            let hands = try #require(line["hands"] as? [[String: Any]], "frame \(i) has no hands array")
            #expect(hands.count == 2, "frame \(i): \(hands.count) hands")
            for hand in hands {
                let id = try #require(hand["trackingID"] as? Int, "frame \(i): a hand without a tracking ID")
                ids.insert(id)
            }
        }
        #expect(ids.count == 2, "both hands keep their IDs through the clip: \(ids)")
    }

    @Test func badOptionsAreOneLineErrors() throws {
        for args in [
            ["faces", "--mode", "slow", image("grace_hopper.jpg")], ["faces", "--min-face-size", "2", image("grace_hopper.jpg")],
            ["hands", "--num-hands", "0", image("grace_hopper.jpg")], ["hands", "--min-detection", "nan", image("grace_hopper.jpg")],
            ["faces"], ["hands", "--bogus"], ["face-landmarks", "--num-faces", "0", image("grace_hopper.jpg")],
            ["face-landmarks", "--min-presence", "2", image("grace_hopper.jpg")], ["face-landmarks"]
        ] {
            let r = try blaze(args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout.isEmpty && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
    }

    /// `blaze face-landmarks` (docs/cli.md): face counts from MediaPipe's Tasks FaceLandmarker
    /// reference (IMAGE mode, num_faces 5), 478 points, the 52 named blendshapes and a 16-number
    /// row-major matrix per face.
    @Test func faceLandmarksJSON() throws {
        let photos = ["three_people.jpg", "neg_coffee.png", "grace_hopper.jpg"]
        let r = try blaze(["face-landmarks", "--num-faces", "5", "--blendshapes", "--matrices", "--json"] + photos.map(image))
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try jsonLines(r.stdout)
        #expect(lines.count == photos.count)
        for (line, photo) in zip(lines, photos) {
            let faces = try #require(line["faces"] as? [[String: Any]])
            let stem = (photo as NSString).deletingPathExtension
            #expect(faces.count == (try referenceCount(stem, "face_landmarker", key: "faces")), "\(photo)")
            #expect(line["frameIndex"] == nil)
            for face in faces {
                #expect((face["landmarks"] as? [[Double]])?.allSatisfy { $0.count == 3 } == true)
                #expect((face["landmarks"] as? [Any])?.count == 478)
                let shapes = try #require(face["blendshapes"] as? [[String: Any]])
                #expect(shapes.count == 52)
                #expect(shapes.first?["categoryName"] as? String == "_neutral" && shapes.last?["categoryName"] as? String == "noseSneerRight")
                #expect(shapes.enumerated().allSatisfy { $0.element["index"] as? Int == $0.offset })
                #expect((face["transformationMatrix"] as? [Double])?.count == 16)
                #expect(face["trackingID"] == nil)
            }
        }
        let plain = try blaze(["face-landmarks", "--json", image("three_people.jpg")])
        let face = try #require((try jsonLines(plain.stdout).first?["faces"] as? [[String: Any]])?.first)
        #expect(face["blendshapes"] == nil && face["transformationMatrix"] == nil, "optional outputs only when asked for")
    }

    @Test func faceLandmarksVideoTracksFaces() throws {
        let video = RepoPaths.root.appendingPathComponent("Tests/BlazeKitTests/Fixtures/faces/three_people_video.y4m").path
        let r = try blaze(["face-landmarks", "--num-faces", "3", "--json", "--video", video])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try jsonLines(r.stdout)
        #expect(lines.count == 12)
        var ids = Set<Int>()
        for (i, line) in lines.enumerated() {
            #expect(line["frameIndex"] as? Int == i && line["timestampMs"] as? Int == i * 1000 / 30)
            let faces = line["faces"] as? [[String: Any]] ?? []
            #expect(faces.count == 3)
            for face in faces { ids.insert(try #require(face["trackingID"] as? Int)) }
        }
        #expect(ids.count == 3, "the same three faces tracked through the clip: \(ids)")
    }
}
