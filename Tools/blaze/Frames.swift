import BlazeCLISupport
import BlazeEngine
import BlazeImageIO
import BlazeKit
import BlazeVideo
import Foundation
import Synchronization

/// A frame source of `--video` or `--camera`, with what is known about its timing.
struct OpenedFrames {
    let source: FramePrefetcher
    let name: String
    let framesPerSecond: (numerator: Int, denominator: Int)?
    let duration: Double?

    /// `.y4m` files through `Y4MReader`; every other file, and standard input, through FFmpeg
    /// (which also reads YUV4MPEG2 from a pipe); a camera through FFmpeg's V4L2 input, read
    /// ahead with only the newest frame kept (frames are dropped while the detector is busy).
    init(_ spec: InputSpec) throws {
        switch spec {
        case .video(let path) where path != "-" && (path as NSString).pathExtension.lowercased() == "y4m":
            let reader = try Y4MReader(path: path)
            source = FramePrefetcher(reader, policy: .ordered(depth: 2))
            name = path
            framesPerSecond = (reader.header.frameRateNumerator, reader.header.frameRateDenominator)
            duration = nil
        case .video(let path):
            let reader = try VideoReader(path: path)
            source = FramePrefetcher(reader, policy: .ordered(depth: 2))
            name = path == "-" ? "standard input" : path
            framesPerSecond = Self.declaredRate(reader.info)
            duration = reader.info.duration
        case .camera(let device):
            let reader = try VideoReader(camera: device)
            source = FramePrefetcher(reader, policy: .latest)
            name = device
            framesPerSecond = Self.declaredRate(reader.info)
            duration = nil
        case .images:
            preconditionFailure("OpenedFrames is for --video and --camera")
        }
    }

    /// The stream's frame rate as a fraction, when it declares one.
    private static func declaredRate(_ info: VideoInfo) -> (numerator: Int, denominator: Int)? {
        info.framesPerSecond != nil ? (info.frameRateNumerator, info.frameRateDenominator) : nil
    }
}

/// Where the annotations of a video's frames go: one video file, or one PNG per frame in a folder.
enum FrameAnnotation {
    case video(path: String)
    case pictures(AnnotationTarget)

    static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "avi"]

    init(path: String) throws {
        if !path.hasSuffix("/"), FrameAnnotation.videoExtensions.contains((path as NSString).pathExtension.lowercased()) {
            self = .video(path: path)
        } else {
            self = .pictures(try AnnotationTarget(path: path, inputCount: 2))
        }
    }
}

/// Set by SIGINT/SIGTERM during a video or camera run: stop after the current frame and finish
/// the outputs (the annotated video stays playable).
let stopRequested = Atomic<Bool>(false)

/// Runs `process` on each frame of a video or camera in order (decoding overlaps inference),
/// up to `maxFrames`. Returns true when the input failed part-way (reported on stderr; the lines
/// and annotated frames written before stay valid).
func runFrames(
    _ spec: InputSpec, annotatePath: String?, command: String, maxFrames: Int?, progress: ProgressReporter,
    _ process: InputProcessor
) throws -> Bool {
    let input: String
    switch spec {
    case .video(let path): input = path
    case .camera(let device): input = device
    case .images: preconditionFailure("runFrames is for --video and --camera")
    }
    let annotation = try annotatePath.map(FrameAnnotation.init)
    let frames = try OpenedFrames(spec)
    defer { frames.source.stop() }
    progress.duration = frames.duration
    signal(SIGINT) { _ in stopRequested.store(true, ordering: .relaxed) }
    signal(SIGTERM) { _ in stopRequested.store(true, ordering: .relaxed) }
    defer {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    var writer: VideoWriter?
    var failure: String?
    var position: Double?
    var count = 0
    do {
        while maxFrames.map({ count < $0 }) ?? true, !stopRequested.load(ordering: .relaxed), let frame = try frames.source.nextFrame() {
            let (text, canvas) = try process(input, frame.image, frame, annotation != nil)
            switch (annotation, canvas) {
            case (.video(let path), let canvas?):
                if writer == nil {
                    let rate = frames.framesPerSecond ?? (30, 1)
                    writer = try VideoWriter(
                        path: path, width: canvas.width, height: canvas.height,
                        framesPerSecondNumerator: rate.numerator, framesPerSecondDenominator: rate.denominator)
                }
                try writer!.append(canvas)
            case (.pictures(let target), let canvas?):
                try canvas.write(to: target.url(forInput: input, frameIndex: frame.index))
            default:
                break
            }
            try printLine(text)
            count += 1
            position = Double(frame.timestampInMilliseconds) / 1000
            progress.step(position: position)
        }
    } catch let error as StreamWriteError {
        throw error
    } catch let error as BlazeError {
        failure = error.context == nil ? error.within(frames.name).description : error.description
    } catch {
        failure = "\(frames.name): \(error)"
    }
    // The frames annotated so far make a complete, playable file even when the input failed.
    do { try writer?.finish() } catch {
        failure = (failure.map { $0 + "; " } ?? "") + "\(error)"
    }
    progress.finish(position: position)
    if case .camera = spec, frames.source.droppedFrames > 0 {
        progress.prepareForMessage()
        printError("blaze \(command): \(input): \(frames.source.droppedFrames) camera frame(s) dropped while the detector was busy")
    }
    if let failure {
        progress.prepareForMessage()
        printError("blaze \(command): \(failure)")
        return true
    }
    return false
}
