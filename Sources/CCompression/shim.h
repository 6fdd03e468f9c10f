#include <zlib.h>
#include <brotli/encode.h>
#include <brotli/decode.h>
