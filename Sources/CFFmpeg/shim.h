// FFmpeg's demuxing, decoding, encoding, scaling and device headers (Debian: libavformat-dev,
// libavcodec-dev, libavutil-dev, libswscale-dev, libavdevice-dev). BlazeVideo calls the libraries
// from Swift; the only C here is the version adapters at the end. libavdevice is not linked (its
// dependencies double the libraries every `blaze` start loads): VideoReader opens it for cameras.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>

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
// it has none. FFmpeg 6.1 moved stream side data into the codec parameters (`coded_side_data`,
// read with `av_packet_side_data_get`, both absent from 5.1) and deprecated
// `av_stream_get_side_data`; libavformat 62 (FFmpeg 8) removed it.
static inline const int32_t *blaze_stream_display_matrix(const AVStream *stream) {
#if LIBAVFORMAT_VERSION_MAJOR >= 61
    const AVPacketSideData *side = av_packet_side_data_get(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    if (side == NULL || side->size < 9 * sizeof(int32_t)) return NULL;
    return (const int32_t *)side->data;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data == NULL || size < 9 * sizeof(int32_t)) return NULL;
    return (const int32_t *)data;
#endif
}
