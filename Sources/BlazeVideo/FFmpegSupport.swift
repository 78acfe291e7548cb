import BlazeEngine
import CFFmpeg
import Foundation

/// FFmpeg's error codes that are C macros (Swift does not import function-like macros).
enum FFmpegCode {
    /// `AVERROR(EAGAIN)`: the codec needs input (decoding) or output to be drained first.
    static let again = -EAGAIN
    /// `AVERROR_EOF` = `-MKTAG('E','O','F',' ')`.
    static let endOfFile = -Int32(bitPattern: 0x45 | 0x4F << 8 | 0x46 << 16 | 0x20 << 24)
    /// `AVERROR_INVALIDDATA` = `-MKTAG('I','N','D','A')`.
    static let invalidData = -Int32(bitPattern: 0x49 | 0x4E << 8 | 0x44 << 16 | 0x41 << 24)
    /// `AV_NOPTS_VALUE`: no timestamp.
    static let noTimestamp = Int64.min
}

/// FFmpeg's own text for an error code (`av_err2str` is a macro).
func ffmpegMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    if av_strerror(code, &buffer, buffer.count) < 0 { return "FFmpeg error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Quiets FFmpeg's own logging to standard error once per process (errors are reported through
/// `BlazeError`); `BLAZE_FFMPEG_LOG=1` keeps its warnings for debugging.
let quietFFmpegLogging: Void = {
    av_log_set_level(ProcessInfo.processInfo.environment["BLAZE_FFMPEG_LOG"] == "1" ? AV_LOG_WARNING : AV_LOG_QUIET)
}()

extension AVRational {
    var doubleValue: Double? { den != 0 && num != 0 ? Double(num) / Double(den) : nil }
}

/// Milliseconds of `value` in `timeBase`, rounded down (the rounding `Y4MReader` uses for
/// `index · 1000 / fps`, so a constant-rate stream gives the same timestamps either way).
func milliseconds(_ value: Int64, timeBase: AVRational) -> Int {
    Int(av_rescale_rnd(value, Int64(timeBase.num) * 1000, Int64(timeBase.den), AV_ROUND_DOWN))
}
