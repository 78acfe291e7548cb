import BlazeEngine
import BlazeKit
import CFFmpeg
import Foundation

/// Copies decoded `AVFrame`s into owned `VisionImage`s in the decoder's own layout when BlazeKit
/// has it; other layouts go through swscale to I420 (never to RGB). Noncopyable: it owns the
/// swscale context and the I420 frame it keeps between frames, and frees both when it goes.
struct FrameConverter: ~Copyable {
    private var scaler: OpaquePointer?
    private var scaled: UnsafeMutablePointer<AVFrame>?

    init() {}

    deinit {
        blaze_sws_freeContext(scaler)
        var frame = scaled
        av_frame_free(&frame)
    }

    /// BlazeKit's format for an FFmpeg pixel format it can take as is.
    static func pixelFormat(of format: AVPixelFormat, range: AVColorRange) -> PixelFormat? {
        let yuvRange: YUVRange = range == AVCOL_RANGE_JPEG ? .full : .video
        switch format {
        case AV_PIX_FMT_YUV420P: return .i420(yuvRange)
        case AV_PIX_FMT_YUVJ420P: return .i420(.full)
        case AV_PIX_FMT_NV12: return .nv12(yuvRange)
        case AV_PIX_FMT_NV21: return .nv21(yuvRange)
        case AV_PIX_FMT_GRAY8: return .gray8
        case AV_PIX_FMT_RGB24: return .rgb8
        case AV_PIX_FMT_BGR24: return .bgr8
        case AV_PIX_FMT_RGBA: return .rgba8
        case AV_PIX_FMT_BGRA: return .bgra8
        case AV_PIX_FMT_ARGB: return .argb8
        default: return nil
        }
    }

    mutating func image(from decoded: UnsafeMutablePointer<AVFrame>, name: String) throws -> VisionImage {
        let width = Int(decoded.pointee.width), height = Int(decoded.pointee.height)
        let source = AVPixelFormat(rawValue: decoded.pointee.format)
        if let format = FrameConverter.pixelFormat(of: source, range: decoded.pointee.color_range) {
            return try FrameConverter.copy(decoded, width: width, height: height, format: format, name: name)
        }
        let converted = try toI420(decoded, width: width, height: height, name: name)
        return try FrameConverter.copy(converted, width: width, height: height, format: .i420(converted.pointee.color_range == AVCOL_RANGE_JPEG ? .full : .video), name: name)
    }

    /// `decoded` in 8-bit I420 through swscale, keeping its colour range.
    private mutating func toI420(_ decoded: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, name: String) throws -> UnsafeMutablePointer<AVFrame> {
        let source = AVPixelFormat(rawValue: decoded.pointee.format)
        guard sws_isSupportedInput(source) != 0 else {
            let formatName = av_get_pix_fmt_name(source).map { String(cString: $0) } ?? "#\(decoded.pointee.format)"
            throw BlazeError(.unsupported, "pixel format \(formatName) cannot be converted", context: name)
        }
        scaler = blaze_sws_getCachedContext(scaler, Int32(width), Int32(height), source, Int32(width), Int32(height), AV_PIX_FMT_YUV420P, BLAZE_SWS_BILINEAR)
        guard let scaler else { throw BlazeError(.unsupported, "cannot convert this pixel format to I420", context: name) }
        let full: Int32 = decoded.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
        blaze_sws_setColorspaceDetails(scaler, coefficients, full, coefficients, full, 0, 1 << 16, 1 << 16)
        if scaled == nil || scaled!.pointee.width != Int32(width) || scaled!.pointee.height != Int32(height) {
            av_frame_free(&scaled)
            scaled = av_frame_alloc()
            guard let scaled else { throw BlazeError(.io, "no memory for a frame", context: name) }
            scaled.pointee.width = Int32(width)
            scaled.pointee.height = Int32(height)
            scaled.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            guard av_frame_get_buffer(scaled, 0) >= 0 else { throw BlazeError(.io, "no memory for a \(width)×\(height) frame", context: name) }
        }
        guard let scaled, av_frame_make_writable(scaled) >= 0 else { throw BlazeError(.io, "no memory for a frame", context: name) }
        var sourcePlanes = planePointers(decoded).map { $0.map { UnsafePointer($0) } }
        var destinationPlanes = planePointers(scaled)
        var sourceStrides = strides(decoded), destinationStrides = strides(scaled)
        let done = blaze_sws_scale(scaler, &sourcePlanes, &sourceStrides, 0, Int32(height), &destinationPlanes, &destinationStrides)
        guard done == Int32(height) else { throw BlazeError(.invalidInput, "the frame could not be converted to I420", context: name) }
        scaled.pointee.color_range = full == 1 ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        return scaled
    }

    /// The frame's planes copied row by row into an owned image.
    static func copy(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, format: PixelFormat, name: String) throws -> VisionImage {
        var image = try VisionImage(width: width, height: height, format: format)
        let sources = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
        let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2].map(Int.init)
        try image.withUnsafeMutablePlanes(discardingContents: true) { planes in
            for (index, plane) in planes.enumerated() {
                let geometry = format.planeGeometry(index, width: width, height: height)
                guard let source = sources[index], strides[index] >= geometry.minBytesPerRow else {
                    throw BlazeError(.invalidInput, "the decoder returned a frame without plane \(index)", context: name)
                }
                for row in 0..<geometry.height {
                    (plane.bytes.baseAddress! + row * plane.bytesPerRow).copyMemory(from: source + row * strides[index], byteCount: geometry.minBytesPerRow)
                }
            }
        }
        return image
    }
}

private func planePointers(_ frame: UnsafeMutablePointer<AVFrame>) -> [UnsafeMutablePointer<UInt8>?] {
    [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
}

private func strides(_ frame: UnsafeMutablePointer<AVFrame>) -> [Int32] {
    [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3]
}
