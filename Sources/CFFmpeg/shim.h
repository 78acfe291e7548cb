// FFmpeg's demuxing, decoding, encoding, scaling and device headers (Debian: libavformat-dev,
// libavcodec-dev, libavutil-dev, libswscale-dev, libavdevice-dev). BlazeVideo calls the libraries
// from Swift; the only C here is the function pointer types and the version adapters below.
// Only libavutil and libswscale are linked: libavformat, libavcodec and libavdevice, with the
// hundred-odd libraries they depend on, are opened when a video or camera is (FFmpegLibraries).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>

// MARK: - Functions of the libraries opened at run time
//
// Their pointer types, from the installed headers' own declarations, so a call through a pointer
// that `dlsym` found is type-checked like a call to the function (FFmpegLibraries.swift).
#define BLAZE_FFMPEG_FUNCTION(name) typedef __typeof__(&name) blaze_##name##_fn;
BLAZE_FFMPEG_FUNCTION(av_find_best_stream)
BLAZE_FFMPEG_FUNCTION(av_find_input_format)
BLAZE_FFMPEG_FUNCTION(av_interleaved_write_frame)
BLAZE_FFMPEG_FUNCTION(av_read_frame)
BLAZE_FFMPEG_FUNCTION(av_write_trailer)
BLAZE_FFMPEG_FUNCTION(avformat_alloc_output_context2)
BLAZE_FFMPEG_FUNCTION(avformat_close_input)
BLAZE_FFMPEG_FUNCTION(avformat_find_stream_info)
BLAZE_FFMPEG_FUNCTION(avformat_free_context)
BLAZE_FFMPEG_FUNCTION(avformat_new_stream)
BLAZE_FFMPEG_FUNCTION(avformat_open_input)
BLAZE_FFMPEG_FUNCTION(avformat_query_codec)
BLAZE_FFMPEG_FUNCTION(avformat_write_header)
BLAZE_FFMPEG_FUNCTION(avio_closep)
BLAZE_FFMPEG_FUNCTION(avio_open)
BLAZE_FFMPEG_FUNCTION(av_packet_alloc)
BLAZE_FFMPEG_FUNCTION(av_packet_free)
BLAZE_FFMPEG_FUNCTION(av_packet_rescale_ts)
BLAZE_FFMPEG_FUNCTION(av_packet_unref)
BLAZE_FFMPEG_FUNCTION(avcodec_alloc_context3)
BLAZE_FFMPEG_FUNCTION(avcodec_find_encoder)
BLAZE_FFMPEG_FUNCTION(avcodec_find_encoder_by_name)
BLAZE_FFMPEG_FUNCTION(avcodec_free_context)
BLAZE_FFMPEG_FUNCTION(avcodec_open2)
BLAZE_FFMPEG_FUNCTION(avcodec_parameters_from_context)
BLAZE_FFMPEG_FUNCTION(avcodec_parameters_to_context)
BLAZE_FFMPEG_FUNCTION(avcodec_receive_frame)
BLAZE_FFMPEG_FUNCTION(avcodec_receive_packet)
BLAZE_FFMPEG_FUNCTION(avcodec_send_frame)
BLAZE_FFMPEG_FUNCTION(avcodec_send_packet)
BLAZE_FFMPEG_FUNCTION(avdevice_register_all)

// MARK: - Version adapters
//
// Every difference between the FFmpeg releases BlazeVideo builds against (5.1 in Debian 12, 7.1 in
// Debian 13, 9.0 in sid) is handled here and nowhere else. Swift's `#if` cannot read the C
// version macros, and Swift code cannot name a function or field that one release lacks, so the
// choice is made by the C preprocessor on the installed headers. Each adapter only forwards to
// FFmpeg, with the same types on every release; BlazeVideo calls these instead of the originals.

// swscale 9 (FFmpeg 8) made `SwsContext` a public struct (Swift then sees
// `UnsafeMutablePointer<SwsContext>`, not `OpaquePointer`) and its `SWS_*` flags an enum
// (`SwsFlags`, not `Int32`). This handle is never defined, so Swift sees `OpaquePointer` on every
// release.
typedef struct BlazeSwsContext BlazeSwsContext;

// `SWS_BILINEAR` as a plain `int` (the type of `sws_getContext`'s `flags` on every release).
static const int BLAZE_SWS_BILINEAR = SWS_BILINEAR;

static inline BlazeSwsContext *blaze_sws_getContext(
    int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags) {
    return (BlazeSwsContext *)sws_getContext(srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, NULL, NULL, NULL);
}

static inline BlazeSwsContext *blaze_sws_getCachedContext(
    BlazeSwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat,
    int flags) {
    return (BlazeSwsContext *)sws_getCachedContext(
        (struct SwsContext *)context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, NULL, NULL, NULL);
}

static inline int blaze_sws_setColorspaceDetails(
    BlazeSwsContext *context, const int inv_table[4], int srcRange, const int table[4], int dstRange, int brightness, int contrast,
    int saturation) {
    return sws_setColorspaceDetails(
        (struct SwsContext *)context, inv_table, srcRange, table, dstRange, brightness, contrast, saturation);
}

static inline int blaze_sws_scale(
    BlazeSwsContext *context, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH,
    uint8_t *const dst[], const int dstStride[]) {
    return sws_scale((struct SwsContext *)context, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride);
}

static inline void blaze_sws_freeContext(BlazeSwsContext *context) {
    sws_freeContext((struct SwsContext *)context);
}

// The stream's display matrix (nine `int32_t`, what `av_display_rotation_get` reads), or NULL when
// it has none, given the function named `BLAZE_SIDE_DATA_FUNCTION`. FFmpeg 6.1 moved stream side
// data into the codec parameters (`coded_side_data`, read with libavcodec's
// `av_packet_side_data_get`, both absent from 5.1) and deprecated libavformat's
// `av_stream_get_side_data`; libavformat 62 (FFmpeg 8) removed it.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
#define BLAZE_SIDE_DATA_FUNCTION "av_packet_side_data_get"
typedef __typeof__(&av_packet_side_data_get) blaze_side_data_fn;
static inline const int32_t *blaze_stream_display_matrix(blaze_side_data_fn sideData, const AVStream *stream) {
    const AVPacketSideData *side = sideData(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    if (side == NULL || side->size < 9 * sizeof(int32_t)) return NULL;
    return (const int32_t *)side->data;
}
#else
#define BLAZE_SIDE_DATA_FUNCTION "av_stream_get_side_data"
typedef __typeof__(&av_stream_get_side_data) blaze_side_data_fn;
static inline const int32_t *blaze_stream_display_matrix(blaze_side_data_fn sideData, const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = sideData(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data == NULL || size < 9 * sizeof(int32_t)) return NULL;
    return (const int32_t *)data;
}
#endif
