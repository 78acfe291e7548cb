import BlazeCLISupport
import BlazeImageIO
import BlazeKit
import Foundation

/// `blaze faces` (docs/cli.md): ML Kit-style face detection on images, folders or a video.
struct FacesCommand: Sendable {
    static let usage = """
        usage: blaze faces [--mode fast|accurate] [--landmarks] [--contours] [--classification] [--all]
                           [--min-face-size F] [--tracking] [--json] [--annotate PATH] [--jobs N] [--progress|--no-progress]
                           (INPUT... [--files-from FILE|-] | --video FILE|- | --camera DEVICE) [--max-frames N]
        """

    let options: FaceDetectorOptions
    let settings: RunSettings

    init(arguments args: [String]) throws {
        let a = try Arguments(
            args, valued: commonValuedOptions.union(["--mode", "--min-face-size"]),
            flags: commonFlags.union(["--landmarks", "--contours", "--classification", "--all", "--tracking"]))
        var o = FaceDetectorOptions()
        switch a.value("--mode") ?? "fast" {
        case "fast": o.performanceMode = .fast
        case "accurate": o.performanceMode = .accurate
        case let other: throw UsageError("--mode expects fast or accurate, got '\(other)'")
        }
        let all = a.has("--all")
        if all || a.has("--landmarks") { o.landmarkMode = .all }
        if all || a.has("--contours") { o.contourMode = .all }
        if all || a.has("--classification") { o.classificationMode = .all }
        // The CLI's default is 0 (no filter); the library keeps ML Kit's 0.1.
        o.minFaceSize = Double(try floatOption(a, "--min-face-size", default: 0, range: 0...1))
        o.isTrackingEnabled = a.has("--tracking")
        // Tracking IDs depend on the order of the images: they go one by one.
        settings = try RunSettings(a, oneByOne: o.isTrackingEnabled)
        if settings.jobs > 1 { o.threadCount = 1 }
        options = o
    }

    /// Returns the process exit status.
    func run() throws -> Int32 {
        let detector = try FaceDetector.faceDetector(options: options)
        return try runInputs(settings, command: "faces") { input, image, frame, draws in
            let faces = try detector.results(in: image)
            return (output(input: input, image: image, frame: frame, faces: faces), draws ? try drawing(image: image, faces: faces) : nil)
        }
    }

    private func output(input: String, image: VisionImage, frame: VideoFrame?, faces: [Face]) -> String {
        guard settings.json else {
            let where_ = frame.map { "\(input) frame \($0.index)" } ?? input
            return "\(where_): \(faces.count) face(s)"
                + faces.map { String(format: " [score %.3f at %.0f,%.0f %.0f×%.0f]", $0.score, $0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height) }.joined()
        }
        var fields = imageFields(input: input, image: image, frame: frame)
        fields.append(("faces", .array(faces.sorted { $0.score > $1.score }.map(faceJSON))))
        return JSON.object(fields).encoded
    }

    private func faceJSON(_ face: Face) -> JSON {
        var f: [(String, JSON)] = []
        f.append(
            (
                "frame",
                .object([
                    ("x", .double(face.frame.x)), ("y", .double(face.frame.y)),
                    ("width", .double(face.frame.width)), ("height", .double(face.frame.height))
                ])
            ))
        f.append(("score", .float(face.score)))
        f.append(
            (
                "keypoints",
                .array(
                    face.keypoints.map {
                        .object([("type", .string($0.type.name)), ("x", .double($0.position.x)), ("y", .double($0.position.y))])
                    })
            ))
        if face.hasHeadEulerAngleX, let v = JSON.finite(face.headEulerAngleX) { f.append(("headEulerAngleX", v)) }
        if face.hasHeadEulerAngleY, let v = JSON.finite(face.headEulerAngleY) { f.append(("headEulerAngleY", v)) }
        if face.hasHeadEulerAngleZ, let v = JSON.finite(face.headEulerAngleZ) { f.append(("headEulerAngleZ", v)) }
        if options.landmarkMode == .all, !face.landmarks.isEmpty {
            f.append(
                (
                    "landmarks",
                    .array(
                        face.landmarks.map {
                            .object([("type", .string($0.type.rawValue)), ("x", .double($0.position.x)), ("y", .double($0.position.y))])
                        })
                ))
        }
        if options.contourMode == .all, !face.contours.isEmpty {
            f.append(
                (
                    "contours",
                    .array(
                        face.contours.map {
                            .object([("type", .string($0.type.rawValue)), ("points", .array($0.points.map { .array([.double($0.x), .double($0.y)]) }))])
                        })
                ))
            if let mesh = face.mesh {
                f.append(("mesh", .array(mesh.map { .array([.double($0.x), .double($0.y), .double($0.z)]) })))
            }
        }
        if face.hasSmilingProbability, let v = JSON.finite(face.smilingProbability) { f.append(("smilingProbability", v)) }
        if face.hasLeftEyeOpenProbability, let v = JSON.finite(face.leftEyeOpenProbability) { f.append(("leftEyeOpenProbability", v)) }
        if face.hasRightEyeOpenProbability, let v = JSON.finite(face.rightEyeOpenProbability) { f.append(("rightEyeOpenProbability", v)) }
        if face.hasTrackingID { f.append(("trackingID", .int(face.trackingID))) }
        return .object(f)
    }

    private func drawing(image: VisionImage, faces: [Face]) throws -> Canvas {
        var canvas = try Canvas(image: image)
        let line = max(1.0, Double(max(canvas.width, canvas.height)) / 400)
        for face in faces {
            let r = face.frame
            canvas.strokeRect(x: r.x, y: r.y, width: r.width, height: r.height, color: .green, lineWidth: line)
            for contour in face.contours {
                let closed = contour.type == .face || contour.type == .leftEye || contour.type == .rightEye
                canvas.drawPolyline(contour.points.map { ($0.x, $0.y) }, closed: closed, color: .cyan, lineWidth: max(1, line / 2))
            }
            if face.contours.isEmpty, let mesh = face.mesh {
                for p in mesh { canvas.drawPoint(x: p.x, y: p.y, radius: max(1, line / 2), color: .cyan) }
            }
            for l in face.landmarks { canvas.drawPoint(x: l.position.x, y: l.position.y, radius: line * 1.5, color: .magenta) }
            for k in face.keypoints { canvas.drawPoint(x: k.position.x, y: k.position.y, radius: line * 1.5, color: .yellow) }
            var label = String(format: "%.2f", face.score)
            if face.hasTrackingID { label = "#\(face.trackingID) " + label }
            if face.hasSmilingProbability { label += String(format: " smile %.2f", face.smilingProbability) }
            canvas.drawText(
                label, x: Int(r.x), y: max(0, Int(r.y) - 10 * Int(line)), color: .white,
                scale: Int(line), background: Color.black.withAlpha(160))
        }
        return canvas
    }
}
