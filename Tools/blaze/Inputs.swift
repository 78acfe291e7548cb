import BlazeCLISupport
import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation

/// The inputs of `blaze faces|hands`: image files and folders (recursed, sorted by path) and/or a
/// streamed list of paths (`--files-from FILE|-`), or one video (`--video FILE|-`).
enum InputSpec: Sendable {
    case images([String], filesFrom: String?)
    case video(String)
    case camera(String)

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "ppm", "pgm", "pnm"]

    init(arguments: Arguments) throws {
        let filesFrom = arguments.value("--files-from")
        let video = arguments.value("--video"), camera = arguments.value("--camera")
        if video != nil || camera != nil {
            guard arguments.positional.isEmpty, filesFrom == nil, video == nil || camera == nil else {
                throw UsageError("give one kind of input: images (INPUT…, --files-from), --video or --camera")
            }
            self = video.map { .video($0) } ?? .camera(camera!)
        } else {
            guard !arguments.positional.isEmpty || filesFrom != nil else {
                throw UsageError("no input: give image files or folders, --files-from FILE|-, --video FILE|- or --camera DEVICE")
            }
            if filesFrom == "-" && arguments.positional.contains("-") {
                throw UsageError("standard input cannot be both an image (-) and the --files-from list")
            }
            self = .images(arguments.positional, filesFrom: filesFrom)
        }
    }

    /// Whether inputs are frames in order (video, camera) rather than independent images.
    var isVideo: Bool { if case .images = self { false } else { true } }

    /// The number of images when the command line names each one (no folder, no path list) and
    /// they are fewer than `limit`; nil otherwise. At least `limit` paths give at least `limit`
    /// images, so they are not looked at (`expand` reads them later).
    func namedImageCount(below limit: Int) -> Int? {
        guard case .images(let paths, nil) = self, paths.count < limit else { return nil }
        for path in paths where path != "-" {
            var st = stat()
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR { return nil }
        }
        return paths.count
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

    private static func walk(
        _ folder: String, identity: FileIdentity, into found: inout [String], problems: inout [String],
        visited: inout Set<FileIdentity>
    ) {
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
struct AnnotationTarget: Sendable {
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

/// Common JSON fields of one output line.
func imageFields(input: String, image: VisionImage, frame: VideoFrame?) -> [(String, JSON)] {
    var fields: [(String, JSON)] = [("image", .string(input)), ("width", .int(image.uprightWidth)), ("height", .int(image.uprightHeight))]
    if let frame {
        fields.append(("frameIndex", .int(frame.index)))
        fields.append(("timestampMs", .int(frame.timestampInMilliseconds)))
    }
    return fields
}

/// The options every detection command shares (docs/cli.md).
let commonValuedOptions: Set<String> = ["--annotate", "--video", "--camera", "--files-from", "--jobs", "--max-frames"]
let commonFlags: Set<String> = ["--json", "--progress", "--no-progress"]

/// What `blaze faces` and `blaze hands` parse alike: the inputs and how to run over them.
struct RunSettings: Sendable {
    let inputs: InputSpec
    /// Workers for images (`--jobs`, default every core, at most one per named image); 1 for
    /// video and camera frames, which go in order, and when `oneByOne` (face tracking: IDs depend
    /// on the order of the images). With one worker the detectors use every core themselves.
    let jobs: Int
    let maxFrames: Int?
    let annotatePath: String?
    let json: Bool
    let arguments: Arguments

    init(_ arguments: Arguments, oneByOne: Bool = false) throws {
        inputs = try InputSpec(arguments: arguments)
        var jobs = ParallelBatch.defaultJobs
        if let text = arguments.value("--jobs") {
            guard let n = Int(text), (1...1024).contains(n) else { throw UsageError("--jobs expects an integer in 1…1024, got '\(text)'") }
            jobs = n
        }
        self.jobs = inputs.isVideo || oneByOne ? 1 : ParallelBatch.jobs(forInputs: inputs.namedImageCount(below: jobs), requested: jobs)
        if let text = arguments.value("--max-frames") {
            guard let n = Int(text), n >= 1 else { throw UsageError("--max-frames expects a positive integer, got '\(text)'") }
            maxFrames = n
        } else {
            maxFrames = nil
        }
        annotatePath = arguments.value("--annotate")
        json = arguments.has("--json")
        self.arguments = arguments
    }
}

/// Parses a float option within `range`.
func floatOption(_ arguments: Arguments, _ name: String, default value: Float, range: ClosedRange<Float>) throws -> Float {
    guard let text = arguments.value(name) else { return value }
    guard let v = Float(text), v.isFinite, range.contains(v) else {
        throw UsageError("\(name) expects a number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
    }
    return v
}

/// Makes the standard-output text of one input (an image, or a frame of a video) and, when
/// `draws` is true, its annotated picture. Runs in the batch's workers, so it must be safe to
/// call from many threads.
typealias InputProcessor = @Sendable (_ input: String, _ image: VisionImage, _ frame: VideoFrame?, _ draws: Bool) throws -> (String, Canvas?)

/// Runs `process` on every input of `spec` and writes its text to standard output, in input
/// order: images on `jobs` workers (decoded there too), the frames of a video one by one. An
/// unreadable or failing image is reported on stderr and skipped; the others are still processed.
/// Returns the exit status (1 if any failed).
func runInputs(_ settings: RunSettings, command: String, _ process: @escaping InputProcessor) throws -> Int32 {
    let spec = settings.inputs, annotatePath = settings.annotatePath
    let progress = ProgressReporter(arguments: settings.arguments, unit: spec.isVideo ? .frames : .images)
    var failed = false
    func report(_ message: String) {
        progress.prepareForMessage()
        printError("blaze \(command): \(message)")
        failed = true
    }
    switch spec {
    case .images(let paths, let filesFrom):
        let (files, problems) = InputSpec.expand(paths)
        let list = try filesFrom.map { try PathListReader(path: $0) }
        let annotation = try annotatePath.map { try AnnotationTarget(path: $0, inputCount: list == nil ? files.count : 2) }
        try annotation?.checkCollisions(files)
        problems.forEach(report)
        if progress.isEnabled {
            // A second pass over a list file, only to show done/total.
            progress.total = list == nil ? files.count : filesFrom.flatMap(PathListReader.countPaths).map { $0 + files.count }
        }
        let inputs = ImageInputs(files: files, list: list, annotation: annotation)
        try ParallelBatch(jobs: settings.jobs).forEach(
            inputs,
            transform: { input in
                if let problem = input.problem { throw UsageError(problem) }
                let (text, canvas) = try process(input.path, try ImageFile.read(path: input.path), nil, input.annotation != nil)
                // Annotate first: an input is reported once, as a result line or as an error.
                if let canvas, let url = input.annotation { try canvas.write(to: url) }
                return text
            },
            deliver: { input, result in
                progress.step()
                switch result {
                case .success(let text): try printLine(text)
                case .failure(let error): report(describe(error, of: input.path))
                }
            })
        if let list {
            if let failure = list.failure { report(failure) }
            if list.skippedLongLines > 0 {
                report("--files-from \(list.name): skipped \(list.skippedLongLines) line(s) longer than \(PathListReader.maxLineLength) bytes (not paths)")
            }
        }
        progress.finish()
    case .video, .camera:
        if try runFrames(spec, annotatePath: annotatePath, command: command, maxFrames: settings.maxFrames, progress: progress, process) {
            failed = true
        }
    }
    return failed ? 1 : 0
}

/// One image input of a batch: its path, where its annotation goes, or why it cannot be run.
struct ImageInput: Sendable {
    let path: String
    let annotation: URL?
    let problem: String?
}

/// The image inputs in order: the expanded positional files, then the `--files-from` lines as
/// they are read. With a folder of annotations, a streamed path whose annotation name is taken
/// becomes a problem (the positional ones were checked before the start).
struct ImageInputs: Sequence, IteratorProtocol {
    let files: [String]
    let list: PathListReader?
    let annotation: AnnotationTarget?
    private var position = 0
    private var annotationNames: [String: String] = [:]

    init(files: [String], list: PathListReader?, annotation: AnnotationTarget?) {
        self.files = files
        self.list = list
        self.annotation = annotation
        if let annotation, annotation.isFolder, list != nil {
            for file in files { annotationNames[annotation.url(forInput: file).lastPathComponent] = file }
        }
    }

    mutating func next() -> ImageInput? {
        if position < files.count {
            defer { position += 1 }
            return ImageInput(path: files[position], annotation: annotation?.url(forInput: files[position]), problem: nil)
        }
        guard let path = list?.next() else { return nil }
        guard let annotation else { return ImageInput(path: path, annotation: nil, problem: nil) }
        let url = annotation.url(forInput: path)
        if let other = annotationNames[url.lastPathComponent] {
            return ImageInput(
                path: path, annotation: nil,
                problem: "--annotate \(annotation.path): \(other) is already annotated into \(url.lastPathComponent); not processed")
        }
        annotationNames[url.lastPathComponent] = path
        return ImageInput(path: path, annotation: url, problem: nil)
    }
}

/// `path: reason` for an error of one input, naming the path once (decoder errors carry it as
/// their context already).
func describe(_ error: Error, of path: String) -> String {
    if let e = error as? BlazeError, let context = e.context, context == path || context.hasPrefix(path + ": ") {
        return e.description
    }
    return "\(path): \(error)"
}
