// FFmpeg's demuxing, decoding, encoding, scaling and device headers (Debian: libavformat-dev,
// libavcodec-dev, libavutil-dev, libswscale-dev, libavdevice-dev). Headers only: BlazeVideo
// calls the libraries from Swift.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
