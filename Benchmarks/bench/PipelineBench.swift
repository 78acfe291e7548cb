import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation

/// The whole-pipeline entries of `bench` (docs/cli.md), on the committed inputs in
/// Benchmarks/Resources (640-px copies of two test photos, see its README):
/// - `faces_fast`, `faces_accurate`, `faces_all`: `FaceDetector.results(in:)` on three_people;
/// - `hands_image`: `HandLandmarker.detect(image:)`, numHands 2, on woman_sitting_street;
/// - `hands_video_tracked`: video mode on the same frame with increasing timestamps, so every
///   frame after the first is tracked (palm detection skipped);
/// - `face_landmarker_image`: `FaceLandmarker.detect(image:)`, numFaces 3, blendshapes and
///   matrices on, on three_people;
/// - `face_landmarker_video_tracked`: the same in video mode with increasing timestamps, so every
///   frame after the first is tracked (face detection skipped);
/// - `gestures_video_tracked`: `GestureRecognizer` (the bundled canned gestures), numHands 2, in
///   video mode on woman_sitting_street with increasing timestamps (hands tracked);
/// - `crop_nv12_720p_192`: a rotated 192×192 crop of a 1280×720 NV12 frame (the S1 sampler, its
///   rows split over the threads as in the pipelines);
/// - `crop_rgb_720p_192`: the same crop of the same frame size in packed RGB (decoded photos).
enum PipelineBench {
    static let names = [
        "faces_fast", "faces_accurate", "faces_all", "hands_image", "hands_video_tracked",
        "face_landmarker_image", "face_landmarker_video_tracked", "gestures_video_tracked", "crop_nv12_720p_192",
        "crop_rgb_720p_192"
    ]

    struct Timing {
        var name: String
        var threads: Int
        var medianMs: Double
    }

    static var resources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources")
    }

    static func run(_ name: String, threads: Int, runs requested: Int) throws -> Timing {
        let body = try makeBody(name, threads: threads)
        for _ in 0..<3 { try body() }
        let probeStart = nowMs()
        try body()
        let probe = max(nowMs() - probeStart, 0.01)
        let runs = requested > 0 ? requested : min(max(Int(1500 / probe), 10), 300)
        var samples = [Double](repeating: 0, count: runs)
        for i in 0..<runs {
            let s = nowMs()
            try body()
            samples[i] = nowMs() - s
        }
        samples.sort()
        return Timing(name: name, threads: threads, medianMs: samples[samples.count / 2])
    }

    private static func makeBody(_ name: String, threads: Int) throws -> () throws -> Void {
        switch name {
        case "faces_fast", "faces_accurate", "faces_all":
            let image = try ImageFile.read(contentsOf: resources.appendingPathComponent("three_people_640.png"))
            var options = FaceDetectorOptions()
            options.minFaceSize = 0
            options.threadCount = threads
            if name == "faces_accurate" { options.performanceMode = .accurate }
            if name == "faces_all" {
                options.landmarkMode = .all
                options.contourMode = .all
                options.classificationMode = .all
            }
            let detector = try FaceDetector.faceDetector(options: options)
            return { _ = try detector.results(in: image) }
        case "hands_image", "hands_video_tracked":
            let image = try ImageFile.read(contentsOf: resources.appendingPathComponent("woman_sitting_street_640.png"))
            var options = HandLandmarkerOptions()
            options.numHands = 2
            options.numThreads = threads
            if name == "hands_image" {
                let landmarker = try HandLandmarker(options: options)
                return { _ = try landmarker.detect(image: image) }
            }
            options.runningMode = .video
            let landmarker = try HandLandmarker(options: options)
            let clock = TimestampBox()
            return {
                clock.value += 33
                _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: clock.value)
            }
        case "gestures_video_tracked":
            let image = try ImageFile.read(contentsOf: resources.appendingPathComponent("woman_sitting_street_640.png"))
            var options = GestureRecognizerOptions()
            options.numHands = 2
            options.numThreads = threads
            options.runningMode = .video
            let recognizer = try GestureRecognizer(options: options)
            let clock = TimestampBox()
            return {
                clock.value += 33
                _ = try recognizer.recognize(videoFrame: image, timestampInMilliseconds: clock.value)
            }
        case "face_landmarker_image", "face_landmarker_video_tracked":
            let image = try ImageFile.read(contentsOf: resources.appendingPathComponent("three_people_640.png"))
            var options = FaceLandmarkerOptions()
            options.numFaces = 3
            options.outputFaceBlendshapes = true
            options.outputFacialTransformationMatrixes = true
            options.numThreads = threads
            if name == "face_landmarker_image" {
                let landmarker = try FaceLandmarker(options: options)
                return { _ = try landmarker.detect(image: image) }
            }
            options.runningMode = .video
            let landmarker = try FaceLandmarker(options: options)
            let clock = TimestampBox()
            return {
                clock.value += 33
                _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: clock.value)
            }
        case "crop_nv12_720p_192", "crop_rgb_720p_192":
            let width = 1280, height = 720
            let (format, byteCount): (PixelFormat, Int) =
                name == "crop_rgb_720p_192" ? (.rgb8, width * height * 3) : (.nv12(.video), width * height * 3 / 2)
            var state: UInt32 = 0x9E37_79B9
            let bytes = (0..<byteCount).map { _ -> UInt8 in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
            let image = try VisionImage(copying: bytes, width: width, height: height, format: format)
            let roi = NormalizedRect(xCenter: 0.52, yCenter: 0.47, width: 0.3, height: 0.5, rotation: 0.4)
            let options = ImageToTensorOptions(width: 192, height: 192, keepAspectRatio: true)
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: options.elementCount)
            // The buffer lives as long as the closure, i.e. for the whole measurement.
            let holder = BufferHolder(buffer)
            let workers = WorkerPool(threadCount: threads)
            return { _ = try image.toTensor(roi: roi, options: options, into: holder.buffer, workers: workers) }
        default:
            throw BlazeError(.invalidInput, "unknown pipeline \(name); one of \(names.joined(separator: ", "))")
        }
    }
}

private final class TimestampBox { var value = 0 }

private final class BufferHolder {
    let buffer: UnsafeMutableBufferPointer<Float>
    init(_ buffer: UnsafeMutableBufferPointer<Float>) { self.buffer = buffer }
    deinit { buffer.deallocate() }
}
