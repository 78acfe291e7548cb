import BlazeCLISupport
import BlazeEngine
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

    /// Expands folders into their image files (recursively, following symbolic links, each folder
    /// once, sorted by path); plain paths pass through unchanged (a missing file is reported when
    /// it is read). `problems` lists what could not be walked: an unreadable folder or entry, a
    /// link loop, a folder without images.
    static func expand(_ paths: [String]) -> (files: [String], problems: [String]) {
        var result: [String] = []
        var problems: [String] = []
        var visited = Set<FileIdentity>()
        for path in paths {
            var st = stat()
            guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                result.append(path)
                continue
            }
            var found: [String] = []
            walk(path, identity: FileIdentity(st), into: &found, problems: &problems, visited: &visited)
            if found.isEmpty && !problems.contains(where: { $0.hasPrefix(path) }) {
                problems.append("\(path): no image files (\(imageExtensions.sorted().joined(separator: ", "))) in this folder")
            }
            result += found.sorted()
        }
        return (result, problems)
    }

    /// A folder's device and inode: the same folder reached twice (a link loop) is walked once.
    struct FileIdentity: Hashable {
        let device: UInt64, inode: UInt64
        init(_ st: stat) { device = UInt64(st.st_dev); inode = UInt64(st.st_ino) }
    }

    private static func walk(_ folder: String, identity: FileIdentity, into found: inout [String], problems: inout [String],
                             visited: inout Set<FileIdentity>) {
        guard visited.insert(identity).inserted else {
            problems.append("\(folder): skipped, this folder was already walked (a symbolic-link loop or a second link to it)")
            return
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            problems.append("\(folder): cannot list this folder: \(systemReason(error))")
            return
        }
        for name in names {
            let child = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var st = stat()
            guard stat(child, &st) == 0 else {
                let reason = String(cString: strerror(errno))
                if imageExtensions.contains((name as NSString).pathExtension.lowercased()) || lstat(child, &st) != 0 || st.st_mode & S_IFMT == S_IFLNK {
                    problems.append("\(child): cannot read: \(reason)")
                }
                continue
            }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                walk(child, identity: FileIdentity(st), into: &found, problems: &problems, visited: &visited)
            default:
                if imageExtensions.contains((name as NSString).pathExtension.lowercased()) { found.append(child) }
            }
        }
    }

    /// The POSIX reason inside a Foundation file error, when there is one.
    private static func systemReason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
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

    /// Throws when two of `inputs` would be annotated into one file (same stem in a folder target).
    func checkCollisions(_ inputs: [String]) throws {
        guard isFolder else { return }
        var seen: [String: String] = [:]
        for input in inputs {
            let name = url(forInput: input).lastPathComponent
            if let other = seen[name] {
                throw UsageError("--annotate \(path): \(other) and \(input) would both be annotated into \(name); give inputs with distinct names")
            }
            seen[name] = input
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
        let (files, problems) = InputSpec.expand(paths)
        let annotation = try annotatePath.map { try AnnotationTarget(path: $0, inputCount: files.count) }
        try annotation?.checkCollisions(files)
        for problem in problems {
            printError("blaze \(command): \(problem)")
            failed = true
        }
        for path in files {
            do {
                try process(path, try ImageFile.read(path: path), nil, annotation?.url(forInput: path))
            } catch let error as StreamWriteError {
                throw error                      // no point in going on: nothing more can be reported
            } catch {
                printError("blaze \(command): \(describe(error, of: path))")
                failed = true
            }
        }
    case .video(let path):
        let reader = try openVideo(path)
        let annotation = try annotatePath.map { try AnnotationTarget(path: $0, inputCount: 2) }
        do {
            while let frame = try reader.nextFrame() {
                try process(path, frame.image, frame, annotation?.url(forInput: path, frameIndex: frame.index))
            }
        } catch let error as BlazeError where error.context == nil {
            throw error.within(path == "-" ? "standard input" : path)
        }
    }
    return failed ? 1 : 0
}

/// `path: reason` for an error of one input, naming the path once (decoder errors carry it as
/// their context already).
func describe(_ error: Error, of path: String) -> String {
    if let e = error as? BlazeError, let context = e.context, context == path || context.hasPrefix(path + ": ") {
        return e.description
    }
    return "\(path): \(error)"
}
