import BlazeEngine
import BlazeImageIO
import CFFmpeg
import Foundation

/// Encodes RGBA pictures (annotated frames) into a video file through FFmpeg's libraries.
///
/// The container follows the file's extension (`.mp4`, `.mov`, `.mkv`, `.webm`, `.avi`…); the
/// codec is H.264 (libx264) where the FFmpeg build has it and the container takes it, else
/// MPEG-4 Part 2; `.webm` gets VP9 (libvpx-vp9), else VP8. Frames are numbered at a constant
/// `framesPerSecond`. The file appears only when `finish()` succeeds: it is written under a
/// temporary name in the same folder and renamed, so a failure leaves nothing half-written.
public final class VideoWriter {
    public let path: String
    public let width: Int
    public let height: Int
    /// The encoder in use (`libx264`, `mpeg4`, `libvpx-vp9`, …).
    public let encoderName: String
    public private(set) var framesWritten = 0

    private let temporaryPath: String
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var finished = false

    /// Creates the encoder for `width`×`height` frames at `framesPerSecond` (a fraction, such as
    /// 30000/1001). Throws `.invalidInput` for a bad size, rate or extension, `.unsupported` when
    /// no encoder fits, `.io` when the folder is not writable.
    public init(path: String, width: Int, height: Int, framesPerSecondNumerator: Int = 30, framesPerSecondDenominator: Int = 1) throws {
        try FFmpegLibraries.open()
        _ = quietFFmpegLogging
        guard (2...16384).contains(width), (2...16384).contains(height) else {
            throw BlazeError(.invalidInput, "a video frame must be 2…16384 pixels a side, got \(width)×\(height)", context: path)
        }
        guard framesPerSecondNumerator > 0, framesPerSecondDenominator > 0, framesPerSecondNumerator <= Int(Int32.max),
            framesPerSecondDenominator <= Int(Int32.max)
        else {
            throw BlazeError(.invalidInput, "frame rate must be positive, got \(framesPerSecondNumerator)/\(framesPerSecondDenominator)", context: path)
        }
        self.path = path
        self.width = width
        self.height = height
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension.lowercased()
        temporaryPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent).partial-\(getpid()).\(ext)").path

        var context: UnsafeMutablePointer<AVFormatContext>?
        guard FF.avformat_alloc_output_context2(&context, nil, nil, path) >= 0, let context else {
            throw BlazeError(.invalidInput, "no video container for the extension '.\(ext)' (use .mp4, .mkv, .webm, .mov or .avi)", context: path)
        }
        output = context
        let containerFormat = context.pointee.oformat!
        let candidates = ext == "webm" ? ["libvpx-vp9", "libvpx"] : ["libx264", "mpeg4"]
        var chosen: UnsafePointer<AVCodec>?
        for name in candidates {
            if let codec = FF.avcodec_find_encoder_by_name(name), FF.avformat_query_codec(containerFormat, codec.pointee.id, FF_COMPLIANCE_NORMAL) == 1 {
                chosen = codec
                break
            }
        }
        guard let codec = chosen ?? FF.avcodec_find_encoder(containerFormat.pointee.video_codec) else {
            FF.avformat_free_context(context); output = nil
            throw BlazeError(.unsupported, "this FFmpeg build has no video encoder for .\(ext)", context: path)
        }
        encoderName = String(cString: codec.pointee.name)
        guard let encoderContext = FF.avcodec_alloc_context3(codec) else {
            FF.avformat_free_context(context); output = nil
            throw BlazeError(.io, "FFmpeg could not allocate an encoder", context: path)
        }
        encoder = encoderContext
        encoderContext.pointee.width = Int32(width)
        encoderContext.pointee.height = Int32(height)
        encoderContext.pointee.time_base = AVRational(num: Int32(framesPerSecondDenominator), den: Int32(framesPerSecondNumerator))
        encoderContext.pointee.framerate = AVRational(num: Int32(framesPerSecondNumerator), den: Int32(framesPerSecondDenominator))
        // 4:2:0 needs even sides; an odd-sized input is kept at its size in 4:4:4.
        let pixelFormat = width % 2 == 0 && height % 2 == 0 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUV444P
        encoderContext.pointee.pix_fmt = pixelFormat
        encoderContext.pointee.gop_size = 60
        encoderContext.pointee.thread_count = 1
        if encoderName == "mpeg4" { encoderContext.pointee.bit_rate = Int64(max(400_000, width * height * 4)) }
        if encoderName == "libx264" {
            av_opt_set(encoderContext.pointee.priv_data, "preset", "veryfast", 0)
            av_opt_set(encoderContext.pointee.priv_data, "crf", "20", 0)
        }
        if encoderName.hasPrefix("libvpx") {
            av_opt_set(encoderContext.pointee.priv_data, "deadline", "realtime", 0)
            av_opt_set(encoderContext.pointee.priv_data, "cpu-used", "8", 0)
            encoderContext.pointee.bit_rate = Int64(max(400_000, width * height * 3))
        }
        if containerFormat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoderContext.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var status = FF.avcodec_open2(encoderContext, codec, nil)
        guard status >= 0 else {
            release()
            throw BlazeError(.unsupported, "cannot open the \(encoderName) encoder: \(ffmpegMessage(status))", context: path)
        }
        guard let newStream = FF.avformat_new_stream(context, nil) else {
            release()
            throw BlazeError(.io, "FFmpeg could not add a stream", context: path)
        }
        stream = newStream
        status = FF.avcodec_parameters_from_context(newStream.pointee.codecpar, encoderContext)
        guard status >= 0 else {
            release()
            throw BlazeError(.io, "FFmpeg could not describe the stream: \(ffmpegMessage(status))", context: path)
        }
        newStream.pointee.time_base = encoderContext.pointee.time_base
        newStream.pointee.avg_frame_rate = encoderContext.pointee.framerate
        status = FF.avio_open(&context.pointee.pb, temporaryPath, AVIO_FLAG_WRITE)
        guard status >= 0 else {
            release()
            throw BlazeError(.io, "cannot write here: \(ffmpegMessage(status))", context: path)
        }
        status = FF.avformat_write_header(context, nil)
        guard status >= 0 else {
            release()
            unlink(temporaryPath)
            throw BlazeError(.io, "cannot start the \(String(cString: containerFormat.pointee.name)) file: \(ffmpegMessage(status))", context: path)
        }
        picture = av_frame_alloc()
        packet = FF.av_packet_alloc()
        guard let picture, packet != nil else { release(); unlink(temporaryPath); throw BlazeError(.io, "FFmpeg could not allocate a frame", context: path) }
        picture.pointee.width = Int32(width)
        picture.pointee.height = Int32(height)
        picture.pointee.format = pixelFormat.rawValue
        guard av_frame_get_buffer(picture, 0) >= 0 else { release(); unlink(temporaryPath); throw BlazeError(.io, "FFmpeg could not allocate a frame", context: path) }
        scaler = blaze_sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(width), Int32(height), pixelFormat, BLAZE_SWS_BILINEAR)
        guard scaler != nil else { release(); unlink(temporaryPath); throw BlazeError(.unsupported, "no RGBA to YUV converter", context: path) }
    }

    deinit {
        if !finished {
            release()
            unlink(temporaryPath)
        }
    }

    /// Encodes one picture: RGBA rows of `width` pixels, `bytesPerRow` apart.
    public func append(rgba pixels: UnsafeRawBufferPointer, bytesPerRow: Int) throws {
        guard !finished else { throw BlazeError(.invalidInput, "append after finish()", context: path) }
        guard bytesPerRow >= width * 4, pixels.count >= bytesPerRow * (height - 1) + width * 4, let picture, let scaler else {
            throw BlazeError(.invalidInput, "an RGBA picture of \(width)×\(height) needs \(width * 4)-byte rows", context: path)
        }
        guard av_frame_make_writable(picture) >= 0 else { throw BlazeError(.io, "FFmpeg could not allocate a frame", context: path) }
        var source: [UnsafePointer<UInt8>?] = [pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var sourceStride: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
        var destination: [UnsafeMutablePointer<UInt8>?] = [picture.pointee.data.0, picture.pointee.data.1, picture.pointee.data.2, nil]
        var destinationStride: [Int32] = [picture.pointee.linesize.0, picture.pointee.linesize.1, picture.pointee.linesize.2, 0]
        blaze_sws_scale(scaler, &source, &sourceStride, 0, Int32(height), &destination, &destinationStride)
        picture.pointee.pts = Int64(framesWritten)
        try encode(picture)
        framesWritten += 1
    }

    /// Encodes a drawn canvas (which must have the writer's size).
    public func append(_ canvas: Canvas) throws {
        guard canvas.width == width, canvas.height == height else {
            throw BlazeError(.invalidInput, "frame \(framesWritten) is \(canvas.width)×\(canvas.height), the video is \(width)×\(height)", context: path)
        }
        try canvas.pixels.withUnsafeBytes { try append(rgba: $0, bytesPerRow: width * 4) }
    }

    /// Drains the encoder, writes the container's index and moves the file into place.
    public func finish() throws {
        guard !finished else { return }
        try encode(nil)
        guard let output else { return }
        let status = FF.av_write_trailer(output)
        let closed = FF.avio_closep(&output.pointee.pb)
        finished = true
        release()
        guard status >= 0, closed >= 0 else {
            unlink(temporaryPath)
            throw BlazeError(.io, "cannot finish the file: \(ffmpegMessage(status < 0 ? status : closed))", context: path)
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw BlazeError(.io, "cannot move the finished file into place: \(reason)", context: path)
        }
    }

    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        guard let encoder, let packet, let output, let stream else { return }
        var status = FF.avcodec_send_frame(encoder, frame)
        guard status >= 0 else { throw BlazeError(.io, "the encoder refused a frame: \(ffmpegMessage(status))", context: path) }
        while true {
            status = FF.avcodec_receive_packet(encoder, packet)
            if status == FFmpegCode.again || status == FFmpegCode.endOfFile { return }
            guard status >= 0 else { throw BlazeError(.io, "encoding failed: \(ffmpegMessage(status))", context: path) }
            FF.av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            status = FF.av_interleaved_write_frame(output, packet)
            guard status >= 0 else { throw BlazeError(.io, "cannot write: \(ffmpegMessage(status))", context: path) }
        }
    }

    private func release() {
        blaze_sws_freeContext(scaler)
        scaler = nil
        av_frame_free(&picture)
        FF.av_packet_free(&packet)
        FF.avcodec_free_context(&encoder)
        if let output {
            if output.pointee.pb != nil { _ = FF.avio_closep(&output.pointee.pb) }
            FF.avformat_free_context(output)
        }
        output = nil
    }
}
