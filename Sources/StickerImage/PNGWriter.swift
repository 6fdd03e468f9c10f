import CStickerPNG

#if canImport(Glibc)
    import Glibc
#endif

/// Writes PNGs as small as libpng makes them: the fewest channels that hold the picture exactly (RGB without alpha
/// when every pixel is opaque, grey when every pixel is grey, a palette when at most 256 colours occur) and zlib at
/// level 9. Lossless: decoding gives back the same pixels.
///
/// Row filters: none for art. On sticker art (flat colours, transparent backgrounds, antialiased edges) unfiltered
/// rows deflate best: over every demo rendition, no filter took 618 KB against 760 KB for libpng's adaptive choice of
/// all five, and half the time (measured with libvips' writer, which takes the same options). A photo (a JPEG's
/// picture) is the other way round: its 618 px renditions took 1,090,825 bytes with all five filters at zlib level 4,
/// against 1,526,279 unfiltered at 9, in half the time (`Encoding.photo`).
public enum PNGWriter {
    public struct Failure: Error, Sendable {
        public let message: String
    }

    /// zlib level and libpng row filters.
    public struct Encoding: Sendable, Equatable {
        public var level: Int32
        /// PNG_FILTER_* flags: 0x08 none, 0xF8 all five (libpng chooses per row).
        public var filters: Int32

        /// Sticker art: level 9, no filter.
        public static let art = Encoding(level: 9, filters: 0x08)
        /// Photographs: level 4, every filter.
        public static let photo = Encoding(level: 4, filters: 0xF8)
    }

    /// `reduce` false keeps RGBA, for APNG frames, which must all share one layout.
    public static func encode(
        _ image: RGBAImage, reduce: Bool = true, encoding: Encoding = .art
    ) throws(Failure) -> [UInt8] {
        let layout = reduce ? Layout(image) : Layout(rgba: image.pixels)
        return try write(
            width: image.width, height: image.height, channels: Int32(layout.channels), pixels: layout.pixels,
            palette: layout.palette, encoding: encoding)
    }

    /// The zlib stream of the image data libpng writes for `image` in `layout`: what an APNG frame's IDAT or fdAT
    /// carries.
    public static func imageData(
        _ image: RGBAImage, level: Int32 = 9, layout: FrameLayout = .rgba
    ) throws(Failure) -> [UInt8] {
        let (channels, pixels, palette) = layout.pixels(of: image)
        let png = try write(
            width: image.width, height: image.height, channels: channels, pixels: pixels, palette: palette,
            encoding: Encoding(level: level, filters: Encoding.art.filters))
        guard let chunks = try? PNGChunkWalker.chunks(of: png).get() else {
            throw Failure(message: "libpng wrote an unreadable PNG")
        }
        return chunks.filter { $0.type == "IDAT" }.flatMap { png[$0.data] }
    }

    /// A PNG of `pixels` (`channels` bytes each, or palette indices for 0) through libpng.
    private static func write(
        width: Int, height: Int, channels: Int32, pixels: [UInt8], palette: [UInt8], encoding: Encoding
    ) throws(Failure) -> [UInt8] {
        var options = sticker_png_options()
        options.level = encoding.level
        options.strategy = 0  // Z_DEFAULT_STRATEGY
        options.filters = encoding.filters
        options.channels = channels
        options.palette_entries = Int32(palette.count / 4)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeBufferPointer { pixels in
            palette.withUnsafeBufferPointer { palette in
                options.palette = palette.baseAddress
                return sticker_png_encode(
                    pixels.baseAddress, UInt32(width), UInt32(height), options, &output, &size, &error, error.count)
            }
        }
        guard status == 0, let output else {
            throw Failure(
                message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The smallest exact layout of the pixels.
    struct Layout {
        var channels: Int
        var pixels: [UInt8]
        var palette: [UInt8] = []

        init(rgba: [UInt8]) {
            (channels, pixels) = (4, rgba)
        }

        init(_ image: RGBAImage) {
            let source = image.pixels
            let count = image.width * image.height
            var opaque = true
            var grey = true
            var colours: [UInt32: UInt8] = [:]
            var paletteFits = true
            source.withUnsafeBufferPointer { p in
                for index in 0..<count {
                    let (r, g, b, a) = (p[index * 4], p[index * 4 + 1], p[index * 4 + 2], p[index * 4 + 3])
                    if a != 255 { opaque = false }
                    if r != g || g != b { grey = false }
                    if paletteFits {
                        let key = UInt32(r) << 24 | UInt32(g) << 16 | UInt32(b) << 8 | UInt32(a)
                        if colours[key] == nil {
                            if colours.count == 256 { paletteFits = false } else { colours[key] = UInt8(colours.count) }
                        }
                    }
                }
            }
            if paletteFits, colours.count > 1 || !opaque {
                // Opaque entries last, so that tRNS stops short of them.
                let ordered = colours.keys.sorted { ($0 & 0xFF, $0) < ($1 & 0xFF, $1) }
                let index = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1, UInt8($0)) })
                channels = 0
                palette = ordered.flatMap {
                    [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)]
                }
                pixels = (0..<count).map { i in
                    index[
                        UInt32(source[i * 4]) << 24 | UInt32(source[i * 4 + 1]) << 16 | UInt32(source[i * 4 + 2]) << 8
                            | UInt32(source[i * 4 + 3])] ?? 0
                }
                return
            }
            switch (opaque, grey) {
            case (true, true): (channels, pixels) = (1, (0..<count).map { source[$0 * 4] })
            case (true, false): (channels, pixels) = (3, (0..<count).flatMap { source[($0 * 4)..<($0 * 4 + 3)] })
            case (false, true): (channels, pixels) = (2, (0..<count).flatMap { [source[$0 * 4], source[$0 * 4 + 3]] })
            case (false, false): (channels, pixels) = (4, source)
            }
        }
    }
}
