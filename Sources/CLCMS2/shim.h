#include <lcms2.h>

/// lcms2's pixel formats are macros Swift cannot import: 8-bit RGBA, alpha last.
static const cmsUInt32Number STICKER_TYPE_RGBA_8 = TYPE_RGBA_8;
