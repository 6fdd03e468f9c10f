#include "sticker_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
} buffer;

static void write_bytes(png_structp png, png_bytep bytes, png_size_t length) {
    buffer *out = png_get_io_ptr(png);
    if (out->failed) return;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity < out->size + length) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) {
            out->failed = 1;
            png_error(png, "out of memory");
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, bytes, length);
    out->size += length;
}

static void flush_bytes(png_structp png) { (void)png; }

typedef struct {
    char *message;
    size_t size;
} error_sink;

static void on_error(png_structp png, png_const_charp message) {
    error_sink *sink = png_get_error_ptr(png);
    if (sink && sink->message && sink->size) {
        strncpy(sink->message, message, sink->size - 1);
        sink->message[sink->size - 1] = 0;
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

int sticker_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, sticker_png_options options,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    error_sink sink = {error, error_size};
    buffer output = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    png_bytep *rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(output.data);
        return -1;
    }
    int color_type;
    int bytes_per_pixel;
    switch (options.channels) {
    case 0: color_type = PNG_COLOR_TYPE_PALETTE; bytes_per_pixel = 1; break;
    case 1: color_type = PNG_COLOR_TYPE_GRAY; bytes_per_pixel = 1; break;
    case 2: color_type = PNG_COLOR_TYPE_GRAY_ALPHA; bytes_per_pixel = 2; break;
    case 3: color_type = PNG_COLOR_TYPE_RGB; bytes_per_pixel = 3; break;
    default: color_type = PNG_COLOR_TYPE_RGB_ALPHA; bytes_per_pixel = 4; break;
    }
    png_set_write_fn(png, &output, write_bytes, flush_bytes);
    png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color colors[256];
        png_byte alphas[256];
        int opaque_tail = options.palette_entries;
        for (int i = 0; i < options.palette_entries && i < 256; i++) {
            colors[i].red = options.palette[i * 4];
            colors[i].green = options.palette[i * 4 + 1];
            colors[i].blue = options.palette[i * 4 + 2];
            alphas[i] = options.palette[i * 4 + 3];
        }
        // tRNS only as long as the last entry that is not opaque.
        while (opaque_tail > 0 && alphas[opaque_tail - 1] == 255) opaque_tail--;
        png_set_PLTE(png, info, colors, options.palette_entries);
        if (opaque_tail > 0) png_set_tRNS(png, info, alphas, opaque_tail, NULL);
    }
    png_set_compression_level(png, options.level);
    png_set_compression_strategy(png, options.strategy);
    png_set_compression_mem_level(png, 9);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, options.filters);
    rows = malloc(sizeof(png_bytep) * height);
    if (!rows) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width * bytes_per_pixel);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(rows);
    *out = output.data;
    *out_size = output.size;
    return 0;
}
