import CLibPNG

/// Decoded pixels: 8-bit RGBA, rows top to bottom.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// PNG decode and encode through libpng's simplified `png_image` API, which reports errors instead of longjmp-ing.
public enum PNGCodec {
    /// RGBA with 8 bits per channel (PNG_FORMAT_RGBA).
    static let rgba = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// Fully decodes `bytes` (every CRC, the zlib stream and every filter), refusing images over `maxPixels`
    /// before any pixel memory is allocated.
    public static func decode(_ bytes: [UInt8], maxPixels: Int) throws(StickerRejection) -> RGBAImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw .corrupt(message(of: &image)) }
        defer { png_image_free(&image) }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width > 0, height > 0, width * height <= maxPixels else {
            throw .corrupt("the image claims \(width) x \(height) pixels")
        }
        image.format = rgba
        // A 16-bit file without gAMA or sRGB is sRGB like any other PNG; without this flag libpng takes its samples
        // for linear light, and grey 0x8080 would come out at 186 instead of 128.
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { throw .corrupt(message(of: &image)) }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Encodes RGBA pixels as a PNG; without `alpha` the alpha channel is dropped (an opaque RGB PNG).
    public static func encode(_ picture: RGBAImage, alpha: Bool = true) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(picture.width)
        image.height = UInt32(picture.height)
        image.format = alpha ? rgba : UInt32(PNG_FORMAT_FLAG_COLOR)
        let pixels = alpha ? picture.pixels : picture.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        var size = 0
        pixels.withUnsafeBytes { pixels in
            _ = png_image_write_to_memory(&image, nil, &size, 0, pixels.baseAddress, 0, nil)
        }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes { pixels in
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
            }
        }
        precondition(written != 0, "libpng could not encode: \(message(of: &image))")
        return Array(output.prefix(size))
    }

    /// libpng's error text, with the library's prefix kept short.
    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
