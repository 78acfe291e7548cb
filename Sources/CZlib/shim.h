// The system's zlib (Debian: zlib1g-dev), for the raw deflate entries of `.task` bundles.
#include <zlib.h>
