import BlazeCLISupport
import BlazeImageIO
import BlazeKit
import Foundation

/// The inputs of `blaze faces|hands`: image files and folders (recursed, sorted by path), or one
/// video (`--video FILE.y4m` or `-` for stdin).
enum InputSpec {
    case images([String])
    case video(String)

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "ppm", "pgm", "pnm"]

    init(arguments: Arguments) throws {
        if let video = arguments.value("--video") {
            guard arguments.positional.isEmpty else { throw UsageError("give either image inputs or --video, not both") }
            self = .video(video)
        } else {
            guard !arguments.positional.isEmpty else { throw UsageError("no input: give image files or folders, or --video FILE.y4m|-") }
            self = .images(arguments.positional)
        }
    }

    /// Expands folders into their image files (recursively, sorted by path); plain paths pass
    /// through unchanged (a missing file is reported when it is read).
    static func expand(_ paths: [String]) -> [String] {
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                result.append(path)
                continue
            }
            var found: [String] = []
            if let walker = FileManager.default.enumerator(atPath: path) {
                while let relative = walker.nextObject() as? String {
                    let ext = (relative as NSString).pathExtension.lowercased()
                    if imageExtensions.contains(ext) { found.append((path as NSString).appendingPathComponent(relative)) }
                }
            }
            result += found.sorted()
        }
        return result
    }
}

/// Where `--annotate PATH` writes: the file itself for one input, else `PATH/<stem>.png`.
struct AnnotationTarget {
    let path: String
    let isFolder: Bool

    init(path: String, inputCount: Int) throws {
        self.path = path
        isFolder = inputCount != 1
        if isFolder {
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw UsageError("cannot create annotation folder \(path): \(error.localizedDescription)")
            }
        }
    }

    func url(forInput input: String, frameIndex: Int? = nil) -> URL {
        guard isFolder else { return URL(fileURLWithPath: path) }
        let stem = input == "-" ? "stdin" : ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = frameIndex.map { String(format: "%@_%06d.png", stem, $0) } ?? stem + ".png"
        return URL(fileURLWithPath: path).appendingPathComponent(name)
    }
}

/// Iterates the frames of a `.y4m` file or stdin.
func openVideo(_ path: String) throws -> Y4MReader {
    path == "-" ? try Y4MReader(fileHandle: FileHandle.standardInput) : try Y4MReader(path: path)
}

/// Common JSON fields of one output line.
func imageFields(input: String, image: VisionImage, frame: VideoFrame?) -> [(String, JSON)] {
    var fields: [(String, JSON)] = [("image", .string(input)), ("width", .int(image.uprightWidth)), ("height", .int(image.uprightHeight))]
    if let frame {
        fields.append(("frameIndex", .int(frame.index)))
        fields.append(("timestampMs", .int(frame.timestampMilliseconds)))
    }
    return fields
}

/// Parses a float option within `range`.
func floatOption(_ arguments: Arguments, _ name: String, default value: Float, range: ClosedRange<Float>) throws -> Float {
    guard let text = arguments.value(name) else { return value }
    guard let v = Float(text), v.isFinite, range.contains(v) else {
        throw UsageError("\(name) expects a number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
    }
    return v
}

/// Runs `process` on every input of `spec`: each image file (expanded folders) or each frame of
/// the video, with the annotation target for it. An unreadable or failing image is reported on
/// stderr and skipped; the others are still processed. Returns the exit status (1 if any failed).
func forEachInput(_ spec: InputSpec, annotatePath: String?, command: String,
                  _ process: (_ input: String, _ image: VisionImage, _ frame: VideoFrame?, _ annotation: URL?) throws -> Void) throws -> Int32 {
    var failed = false
    switch spec {
    case .images(let paths):
        let files = InputSpec.expand(paths)
        let annotation = try annotatePath.map { try AnnotationTarget(path: $0, inputCount: files.count) }
        for path in files {
            do {
                try process(path, try ImageFile.read(path: path), nil, annotation?.url(forInput: path))
            } catch {
                printError("blaze \(command): \(path): \(error)")
                failed = true
            }
        }
    case .video(let path):
        let reader = try openVideo(path)
        let annotation = try annotatePath.map { try AnnotationTarget(path: $0, inputCount: 2) }
        while let frame = try reader.nextFrame() {
            try process(path, frame.image, frame, annotation?.url(forInput: path, frameIndex: frame.index))
        }
    }
    return failed ? 1 : 0
}
