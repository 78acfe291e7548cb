import BlazeEngine
import BlazeImageIO
import BlazeKit
import CFFmpeg
import Foundation

/// What a video's container and stream say about it.
public struct VideoInfo: Sendable, Hashable {
    /// Stored frame size (before `orientation`).
    public var width: Int
    public var height: Int
    /// The decoder's name (`h264`, `vp9`, `rawvideo`, …).
    public var codec: String
    /// The container's format name (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `video4linux2,v4l2`, …).
    public var container: String
    /// The stream's frame rate as a fraction, when it declares one (0/1 otherwise).
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    /// Seconds, when the container knows them (not for pipes or cameras).
    public var duration: Double?
    /// The frame count the container declares (nil when it does not, e.g. Matroska).
    public var frameCount: Int?
    /// The display rotation of the stream (its display matrix, as a phone writes it), given to
    /// every frame as `VisionImage.orientation`, so results are in upright coordinates.
    public var orientation: ImageOrientation
    /// Whether the input can be seeked (a regular file).
    public var isSeekable: Bool

    /// Frames per second, when declared.
    public var framesPerSecond: Double? {
        frameRateNumerator > 0 && frameRateDenominator > 0 ? Double(frameRateNumerator) / Double(frameRateDenominator) : nil
    }
}

/// Decodes a video file, a stream on standard input or a V4L2 camera through FFmpeg's libraries,
/// one frame at a time.
///
/// - Frames come in presentation order with `timestampInMilliseconds` from each frame's
///   presentation time (rounded down to the millisecond, strictly increasing: a frame without a
///   timestamp, or one not after its predecessor, gets the previous one plus a frame interval).
/// - Frames keep the decoder's pixel layout when BlazeKit has it (`yuv420p`/`yuvj420p` → `.i420`,
///   `nv12` → `.nv12`, `gray` → `.gray8`, packed RGB/BGR(A) as themselves); any other layout
///   (4:2:2, 4:4:4, 10-bit…) is converted to `.i420` by swscale. No frame is converted to RGB.
/// - The stream's display rotation is set as the frames' orientation (`info.orientation`).
/// - A damaged packet is skipped; the frames before it are returned. When the input ends early
///   (a read error, or fewer frames than the container declares), `nextFrame()` returns every
///   frame it could decode and then throws `.invalidInput` once.
///
/// Not thread-safe: use one reader from one thread (`FramePrefetcher` moves it to a thread of
/// its own).
public final class VideoReader: FrameSource {
    public let info: VideoInfo
    /// Index of the next frame to be returned.
    public private(set) var frameIndex = 0
    /// Packets the decoder rejected as damaged (skipped).
    public private(set) var damagedPackets = 0

    private let name: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let streamIndex: Int32
    private let timeBase: AVRational
    private var converter = FrameConverter()
    private var flushing = false
    private var finished = false
    private var readFailure: String?
    private var lastTimestamp: Int?

    /// Opens a video file; `-` reads a stream from standard input (any format FFmpeg can probe
    /// from a pipe, YUV4MPEG2 included).
    public convenience init(path: String) throws {
        let name = path == "-" ? "standard input" : path
        if path != "-" {
            var st = stat()
            guard stat(path, &st) == 0 else { throw BlazeError(.io, "cannot open: \(String(cString: strerror(errno)))", context: name) }
            guard st.st_mode & S_IFMT != S_IFDIR else { throw BlazeError(.invalidInput, "is a folder, not a video", context: name) }
        }
        try self.init(url: path == "-" ? "pipe:0" : "file:" + path, inputFormat: nil, options: [:], name: name)
    }

    /// Opens a V4L2 camera (`/dev/video0`…) through FFmpeg's `video4linux2` input. `options` are
    /// the device's own (`video_size`: `1280x720`, `framerate`: `30`, `input_format`: `mjpeg`).
    public convenience init(camera device: String, options: [String: String] = [:]) throws {
        var st = stat()
        guard stat(device, &st) == 0 else {
            throw BlazeError(.io, "no camera: \(String(cString: strerror(errno)))", context: device)
        }
        guard st.st_mode & S_IFMT == S_IFCHR else {
            throw BlazeError(.invalidInput, "not a camera (a V4L2 camera is a character device such as /dev/video0)", context: device)
        }
        try FFmpegLibraries.openDevices()
        guard let v4l2 = FF.av_find_input_format("video4linux2") else {
            throw BlazeError(.unsupported, "this FFmpeg build has no video4linux2 input", context: device)
        }
        try self.init(url: device, inputFormat: v4l2, options: options, name: device)
    }

    private init(url: String, inputFormat: UnsafePointer<AVInputFormat>?, options: [String: String], name: String) throws {
        try FFmpegLibraries.open()
        _ = quietFFmpegLogging
        self.name = name
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = FF.avformat_open_input(&context, url, inputFormat, &dictionary)
        guard status >= 0, let context else {
            throw BlazeError(.invalidInput, "cannot open as a video: \(ffmpegMessage(status))", context: name)
        }
        format = context
        status = FF.avformat_find_stream_info(context, nil)
        guard status >= 0 else {
            FF.avformat_close_input(&format)
            throw BlazeError(.invalidInput, "cannot read the stream layout: \(ffmpegMessage(status))", context: name)
        }
        var decoder: UnsafePointer<AVCodec>?
        let index = FF.av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)] else {
            FF.avformat_close_input(&format)
            let reason = index == FFmpegCode.decoderNotFound ? "its video codec has no decoder in this FFmpeg build" : "no video stream"
            throw BlazeError(index == FFmpegCode.decoderNotFound ? .unsupported : .invalidInput, reason, context: name)
        }
        streamIndex = index
        timeBase = stream.pointee.time_base
        guard let decoder, let codecContext = FF.avcodec_alloc_context3(decoder) else {
            FF.avformat_close_input(&format)
            throw BlazeError(.unsupported, "no decoder for this video codec", context: name)
        }
        codec = codecContext
        status = FF.avcodec_parameters_to_context(codecContext, stream.pointee.codecpar)
        // One decoding thread: the detectors have the cores, and `FramePrefetcher` overlaps this one.
        codecContext.pointee.thread_count = 1
        if status >= 0 { status = FF.avcodec_open2(codecContext, decoder, nil) }
        guard status >= 0 else {
            FF.avcodec_free_context(&codec)
            FF.avformat_close_input(&format)
            throw BlazeError(.unsupported, "cannot open the \(String(cString: decoder.pointee.name)) decoder: \(ffmpegMessage(status))", context: name)
        }
        packet = FF.av_packet_alloc()
        frame = av_frame_alloc()
        let parameters = stream.pointee.codecpar.pointee
        guard parameters.width > 0, parameters.height > 0 else {
            VideoReader.release(format: &format, codec: &codec, packet: &packet, frame: &frame)
            throw BlazeError(.invalidInput, "the video stream has no frame size", context: name)
        }
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        if rate.num <= 0 || rate.den <= 0 { rate = AVRational(num: 0, den: 1) }
        let duration: Double? =
            context.pointee.duration > 0
            ? Double(context.pointee.duration) / Double(AV_TIME_BASE)
            : (stream.pointee.duration > 0 ? Double(stream.pointee.duration) * (timeBase.doubleValue ?? 0) : nil)
        info = VideoInfo(
            width: Int(parameters.width), height: Int(parameters.height),
            codec: String(cString: decoder.pointee.name),
            container: String(cString: context.pointee.iformat.pointee.name),
            frameRateNumerator: Int(rate.num), frameRateDenominator: Int(rate.den),
            duration: duration,
            frameCount: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
            orientation: VideoReader.displayOrientation(of: stream),
            isSeekable: context.pointee.pb.map { $0.pointee.seekable != 0 } ?? false)
    }

    deinit { VideoReader.release(format: &format, codec: &codec, packet: &packet, frame: &frame) }

    private static func release(
        format: inout UnsafeMutablePointer<AVFormatContext>?, codec: inout UnsafeMutablePointer<AVCodecContext>?,
        packet: inout UnsafeMutablePointer<AVPacket>?, frame: inout UnsafeMutablePointer<AVFrame>?
    ) {
        av_frame_free(&frame)
        FF.av_packet_free(&packet)
        FF.avcodec_free_context(&codec)
        FF.avformat_close_input(&format)
    }

    /// The orientation that shows the stored frames upright, from the stream's display matrix.
    static func displayOrientation(of stream: UnsafeMutablePointer<AVStream>) -> ImageOrientation {
        guard let matrix = blaze_stream_display_matrix(FF.sideData, stream) else { return .up }
        let counterClockwise = av_display_rotation_get(matrix)
        guard counterClockwise.isFinite else { return .up }
        // The display matrix turns the stored picture counter-clockwise by this angle to show it.
        switch Int((-counterClockwise).rounded()) {
        case 90, -270: return .right
        case 180, -180: return .down
        case 270, -90: return .left
        default: return .up
        }
    }

    public func nextFrame() throws -> VideoFrame? {
        guard !finished, let codec, let frame, let packet, let format else { return nil }
        while true {
            let received = FF.avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                return try makeFrame(frame)
            }
            if received == FFmpegCode.endOfFile {
                finished = true
                try checkComplete()
                return nil
            }
            guard received == FFmpegCode.again else {
                // A frame the decoder could not rebuild: skip it, keep the rest.
                damagedPackets += 1
                continue
            }
            if flushing {
                finished = true
                try checkComplete()
                return nil
            }
            let read = FF.av_read_frame(format, packet)
            if read < 0 {
                if read != FFmpegCode.endOfFile { readFailure = ffmpegMessage(read) }
                flushing = true
                _ = FF.avcodec_send_packet(codec, nil)
                continue
            }
            defer { FF.av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = FF.avcodec_send_packet(codec, packet)
            if sent < 0 && sent != FFmpegCode.again { damagedPackets += 1 }
        }
    }

    /// Throws once at the end when the input stopped before its declared end.
    private func checkComplete() throws {
        if let readFailure {
            throw BlazeError(.invalidInput, "the input ended with a read error after \(frameIndex) frame(s): \(readFailure)", context: name)
        }
        if frameIndex == 0 {
            throw BlazeError(.invalidInput, "no frame could be decoded" + (damagedPackets > 0 ? " (\(damagedPackets) damaged packet(s))" : ""), context: name)
        }
        if let declared = info.frameCount, frameIndex < declared, damagedPackets > 0 || declared - frameIndex > 1 {
            throw BlazeError(.invalidInput, "truncated or damaged: decoded \(frameIndex) of the \(declared) frames the container declares", context: name)
        }
        if info.frameCount == nil, let duration = info.duration, let fps = info.framesPerSecond, let last = lastTimestamp, info.isSeekable,
            Double(last) / 1000 - startSeconds + 2.5 / fps < duration
        {
            throw BlazeError(.invalidInput, String(format: "truncated: the frames stop at %.3f s of %.3f s", Double(last) / 1000, duration), context: name)
        }
    }

    /// Seconds of the container's first timestamp (its duration counts from there).
    private var startSeconds: Double {
        guard let format, format.pointee.start_time != FFmpegCode.noTimestamp else { return 0 }
        return Double(format.pointee.start_time) / Double(AV_TIME_BASE)
    }

    private func makeFrame(_ decoded: UnsafeMutablePointer<AVFrame>) throws -> VideoFrame {
        var image = try converter.image(from: decoded, name: name)
        image.orientation = info.orientation
        let timestamp = nextTimestamp(decoded.pointee.best_effort_timestamp)
        defer { frameIndex += 1 }
        return VideoFrame(image: image, index: frameIndex, timestampInMilliseconds: timestamp)
    }

    private func nextTimestamp(_ presentation: Int64) -> Int {
        let interval = info.framesPerSecond.map { max(1, Int(1000 / $0)) } ?? 33
        var timestamp: Int
        if presentation != FFmpegCode.noTimestamp {
            timestamp = milliseconds(presentation, timeBase: timeBase)
        } else {
            timestamp = (lastTimestamp ?? -interval) + interval
        }
        if let last = lastTimestamp, timestamp <= last { timestamp = last + 1 }
        lastTimestamp = timestamp
        return timestamp
    }
}

extension FFmpegCode {
    /// `AVERROR_DECODER_NOT_FOUND` = `-MKTAG(0xF8,'D','E','C')`.
    static let decoderNotFound = -Int32(bitPattern: 0xF8 | 0x44 << 8 | 0x45 << 16 | 0x43 << 24)
}
