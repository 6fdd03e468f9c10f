import CWebP

/// Still WebP pictures through libwebp's encoder and decoder: lossy colour at a quality with lossless alpha, so a
/// sticker's edges keep exactly the transparency its PNG rendition has.
public enum WebPCodec {
    /// How a picture is encoded: the settings `cwebp -q Q -alpha_q 100 -m M` uses.
    public struct Settings: Sendable, Equatable {
        /// 0 to 100: the lossy quality (a larger file looks closer to the source).
        public var quality: Float
        /// 0 (fastest) to 6 (smallest): how hard the encoder searches.
        public var method: Int32
        /// Lossless (VP8L) instead of lossy: `quality` then trades time for size.
        public var lossless: Bool
        /// Lossy, but encoded lossless too and the smaller kept: flat sticker art is often smaller lossless, and then
        /// exact (the tour's spinner at 618 px: 105,724 bytes lossless, 289,264 lossy, 224,611 as its APNG).
        public var losslessWhenSmaller: Bool

        public init(quality: Float = 80, method: Int32 = 4, lossless: Bool = false, losslessWhenSmaller: Bool = false) {
            (self.quality, self.method, self.lossless, self.losslessWhenSmaller) = (
                quality, method, lossless, losslessWhenSmaller
            )
        }

        /// Renditions: quality 80 (cwebp's and Pillow's default is 75 and 80; Signal's sticker creator uses 80), or
        /// lossless where that is smaller (at libwebp's quality 25: its default effort costs 3x the time for ~2%).
        public static let rendition = Settings(losslessWhenSmaller: true)
    }

    /// `image` as a still WebP file: lossy or lossless as `settings` say, or the smaller of both.
    public static func encode(
        _ image: RGBAImage, _ settings: Settings = .rendition
    ) throws(PNGWriter.Failure) -> [UInt8] {
        let first = try encodeOnce(image, settings)
        guard settings.losslessWhenSmaller, !settings.lossless else { return first }
        let lossless = try encodeOnce(image, Settings(quality: 25, method: settings.method, lossless: true))
        return lossless.count <= first.count ? lossless : first
    }

    private static func encodeOnce(_ image: RGBAImage, _ settings: Settings) throws(PNGWriter.Failure) -> [UInt8] {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw PNGWriter.Failure(message: "libwebp's encoder is unavailable") }
        config.quality = settings.quality
        config.method = settings.method
        config.lossless = settings.lossless ? 1 : 0
        config.alpha_quality = 100
        config.thread_level = 1
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw PNGWriter.Failure(message: "libwebp's encoder is unavailable")
        }
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        picture.use_argb = settings.lossless ? 1 : 0
        defer { WebPPictureFree(&picture) }
        let imported = image.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else {
            throw PNGWriter.Failure(message: "libwebp could not take the picture (out of memory)")
        }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw PNGWriter.Failure(message: "libwebp could not encode (error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }

    /// Decodes a still WebP (or an animation's first frame) to RGBA; nil when libwebp cannot.
    public static func decode(_ bytes: [UInt8]) -> RGBAImage? {
        bytes.withUnsafeBufferPointer { buffer -> RGBAImage? in
            var width: Int32 = 0
            var height: Int32 = 0
            guard let pixels = WebPDecodeRGBA(buffer.baseAddress, buffer.count, &width, &height) else { return nil }
            defer { WebPFree(pixels) }
            return RGBAImage(
                width: Int(width), height: Int(height),
                pixels: Array(UnsafeBufferPointer(start: pixels, count: Int(width * height * 4))))
        }
    }
}
