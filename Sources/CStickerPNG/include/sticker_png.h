#ifndef STICKER_PNG_H
#define STICKER_PNG_H

#include <stddef.h>
#include <stdint.h>

/// How to write a PNG: libpng's full API, for what its simplified API does not offer (zlib level, strategy, row filters).
typedef struct {
    /// 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA; 0 palette (`palette` holds `palette_entries` RGBA entries).
    int channels;
    const uint8_t *palette;
    int palette_entries;
    /// zlib level 0-9, zlib strategy (Z_DEFAULT_STRATEGY, Z_FILTERED...), PNG_FILTER_* flags.
    int level;
    int strategy;
    int filters;
} sticker_png_options;

/// Encodes `height` rows of `width` pixels (`channels` bytes each, or one palette index each) as a PNG in memory.
/// On success returns 0 and sets *out (free() it) and *out_size; on failure returns -1 with libpng's message in `error`.
/// All of libpng's setjmp error handling stays inside this one function.
int sticker_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, sticker_png_options options,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size);

#endif
