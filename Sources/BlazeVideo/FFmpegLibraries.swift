import BlazeEngine
import CFFmpeg
import Foundation

/// libavformat and libavcodec, opened when the first video is rather than linked: with the
/// hundred-odd libraries they depend on they made up most of a `blaze` start, for images too.
/// libavdevice is opened for the first camera. Never closed.
enum FFmpegLibraries {
    /// libavcodec before libavformat, which depends on it; `RTLD_GLOBAL`, so `FF`'s look-ups
    /// (`ProcessSymbols`) find their functions.
    private static let opened: Result<Void, BlazeError> = {
        for (stem, major) in [("libavcodec", LIBAVCODEC_VERSION_MAJOR), ("libavformat", LIBAVFORMAT_VERSION_MAJOR)] {
            if let failure = open(stem, major: major) { return .failure(failure) }
        }
        return .success(())
    }()

    private static let devicesOpened: Result<Void, BlazeError> = {
        if let failure = open("libavdevice", major: LIBAVDEVICE_VERSION_MAJOR) { return .failure(failure) }
        FF.avdevice_register_all()
        return .success(())
    }()

    /// Opens libavformat and libavcodec once; throws `.unsupported` naming a missing library.
    static func open() throws { try opened.get() }

    /// `open()`, then libavdevice, whose `avdevice_register_all` adds its inputs (V4L2) to
    /// libavformat's list.
    static func openDevices() throws {
        try opened.get()
        try devicesOpened.get()
    }

    /// Opens `stem.so.major` (the headers' major version); nil, or why not.
    static func open(_ stem: String, major: Int32) -> BlazeError? {
        let library = "\(stem).so.\(major)"
        if dlopen(library, RTLD_NOW | RTLD_GLOBAL) != nil { return nil }
        let reason = dlerror().map { String(cString: $0) } ?? "not found"
        return BlazeError(.unsupported, "video needs FFmpeg's \(library) (Debian: \(stem)\(major)): \(reason)")
    }

    /// The function `name` from the opened libraries, as `T`, one of shim.h's pointer types.
    static func function<T>(_ name: String) -> T {
        // Reached only after `open()` succeeded: a library of the headers' major version exports
        // every function those headers declare.
        guard let address = ProcessSymbols.address(of: name) else {
            preconditionFailure("FFmpeg's \(name) is not in the opened libraries")
        }
        return unsafeBitCast(address, to: T.self)
    }
}

/// The functions of the libraries `FFmpegLibraries` opens, each looked up on its first call.
enum FF {
    static let av_find_best_stream: blaze_av_find_best_stream_fn = FFmpegLibraries.function("av_find_best_stream")
    static let av_find_input_format: blaze_av_find_input_format_fn = FFmpegLibraries.function("av_find_input_format")
    static let av_interleaved_write_frame: blaze_av_interleaved_write_frame_fn = FFmpegLibraries.function("av_interleaved_write_frame")
    static let av_read_frame: blaze_av_read_frame_fn = FFmpegLibraries.function("av_read_frame")
    static let av_write_trailer: blaze_av_write_trailer_fn = FFmpegLibraries.function("av_write_trailer")
    static let avformat_alloc_output_context2: blaze_avformat_alloc_output_context2_fn = FFmpegLibraries.function("avformat_alloc_output_context2")
    static let avformat_close_input: blaze_avformat_close_input_fn = FFmpegLibraries.function("avformat_close_input")
    static let avformat_find_stream_info: blaze_avformat_find_stream_info_fn = FFmpegLibraries.function("avformat_find_stream_info")
    static let avformat_free_context: blaze_avformat_free_context_fn = FFmpegLibraries.function("avformat_free_context")
    static let avformat_new_stream: blaze_avformat_new_stream_fn = FFmpegLibraries.function("avformat_new_stream")
    static let avformat_open_input: blaze_avformat_open_input_fn = FFmpegLibraries.function("avformat_open_input")
    static let avformat_query_codec: blaze_avformat_query_codec_fn = FFmpegLibraries.function("avformat_query_codec")
    static let avformat_write_header: blaze_avformat_write_header_fn = FFmpegLibraries.function("avformat_write_header")
    static let avio_closep: blaze_avio_closep_fn = FFmpegLibraries.function("avio_closep")
    static let avio_open: blaze_avio_open_fn = FFmpegLibraries.function("avio_open")
    static let av_packet_alloc: blaze_av_packet_alloc_fn = FFmpegLibraries.function("av_packet_alloc")
    static let av_packet_free: blaze_av_packet_free_fn = FFmpegLibraries.function("av_packet_free")
    static let av_packet_rescale_ts: blaze_av_packet_rescale_ts_fn = FFmpegLibraries.function("av_packet_rescale_ts")
    static let av_packet_unref: blaze_av_packet_unref_fn = FFmpegLibraries.function("av_packet_unref")
    static let avcodec_alloc_context3: blaze_avcodec_alloc_context3_fn = FFmpegLibraries.function("avcodec_alloc_context3")
    static let avcodec_find_encoder: blaze_avcodec_find_encoder_fn = FFmpegLibraries.function("avcodec_find_encoder")
    static let avcodec_find_encoder_by_name: blaze_avcodec_find_encoder_by_name_fn = FFmpegLibraries.function("avcodec_find_encoder_by_name")
    static let avcodec_free_context: blaze_avcodec_free_context_fn = FFmpegLibraries.function("avcodec_free_context")
    static let avcodec_open2: blaze_avcodec_open2_fn = FFmpegLibraries.function("avcodec_open2")
    static let avcodec_parameters_from_context: blaze_avcodec_parameters_from_context_fn = FFmpegLibraries.function("avcodec_parameters_from_context")
    static let avcodec_parameters_to_context: blaze_avcodec_parameters_to_context_fn = FFmpegLibraries.function("avcodec_parameters_to_context")
    static let avcodec_receive_frame: blaze_avcodec_receive_frame_fn = FFmpegLibraries.function("avcodec_receive_frame")
    static let avcodec_receive_packet: blaze_avcodec_receive_packet_fn = FFmpegLibraries.function("avcodec_receive_packet")
    static let avcodec_send_frame: blaze_avcodec_send_frame_fn = FFmpegLibraries.function("avcodec_send_frame")
    static let avcodec_send_packet: blaze_avcodec_send_packet_fn = FFmpegLibraries.function("avcodec_send_packet")
    static let avdevice_register_all: blaze_avdevice_register_all_fn = FFmpegLibraries.function("avdevice_register_all")
    /// The side-data reader `blaze_stream_display_matrix` takes (which one depends on the release).
    static let sideData: blaze_side_data_fn = FFmpegLibraries.function(BLAZE_SIDE_DATA_FUNCTION)
}
