/// A GIF (87a or 89a), still or animated, whose block structure has been walked whole before any pixel is decoded:
/// the logical screen, colour tables, each frame's rectangle, palette, transparency, disposal and delay, the NETSCAPE
/// loop count, and every sub-block inside the file. `decodeAllFrames` decodes the LZW data with giflib.
///
/// Frames become `Animation.Frame`s with the APNG meaning of their fields, so the APNG compositor plays them exactly as
/// a browser shows a GIF: a frame draws over the canvas (a transparent index leaves the pixel as it was), then its
/// rectangle is left (GIF disposal 0 and 1), cleared to transparent (2: browsers ignore the background colour) or
/// restored (3).
public struct GIFFile: Sendable {
    /// A frame's image data and colours, beside its `Animation.Frame`.
    struct Image: Sendable {
        let control: Animation.Frame
        let interlaced: Bool
        /// The colour table it is drawn with (its own, else the global one): RGB triples.
        let palette: Range<Int>
        let transparentIndex: Int?
        /// From the LZW minimum code size byte to the block terminator.
        let data: Range<Int>
    }

    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    let images: [Image]
    /// The animation, when the file has more than one frame.
    public let animation: Animation?
    /// Where each block the stored file keeps lies: everything but comments, plain text and application data other
    /// than the loop count.
    let kept: [Range<Int>]

    public var frameCount: Int { images.count }

    /// Some pixel can show the transparent canvas: a transparent index, a first frame short of the screen or a frame
    /// cleared after it shows.
    public var hasAlpha: Bool {
        images.contains { $0.transparentIndex != nil || $0.control.dispose == 1 }
            || images.first.map { ($0.control.width, $0.control.height) != (width, height) } ?? false
    }

    /// Walks the blocks of `bytes`. Refuses a file cut short, a frame outside the screen or without pixels, a frame
    /// with no colour table, an LZW code size GIF does not have, and more frames than `rules` allow (counted before
    /// anything is decoded, so a file of a million one-pixel frames costs one pass over its bytes).
    public init(_ bytes: [UInt8], rules: StickerRules) throws(StickerRejection) {
        var reader = GIFBlockReader(bytes: bytes, maxFrames: rules.maxFrames)
        try reader.read()
        self.bytes = bytes
        (width, height, images, kept) = (reader.width, reader.height, reader.images, reader.kept)
        animation = images.count > 1 ? Animation(frames: images.map(\.control), loops: reader.loops) : nil
    }

    /// The file as stored and served: without its comments and application extensions (XMP among them) other than
    /// the loop count, and without bytes after the trailer. Frames and their control blocks are kept byte for byte.
    public var strippedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for range in kept { out += bytes[range] }
        return out + [0x3B]
    }
}

extension Animation.Frame {
    /// A GIF frame: a delay in hundredths of a second, where 0 and 1 (under 20 ms) show for 100 ms as in every browser
    /// (`docs/renditions.md`), and GIF disposal 2 and 3 as APNG's 1 and 2, always drawn over the canvas.
    init(gifFrame x: Int, y: Int, width: Int, height: Int, centiseconds: Int, disposal: Int) {
        let delay = centiseconds <= 1 ? 10 : centiseconds
        self.init(
            width: width, height: height, x: x, y: y, delayMs: Double(delay * 10), delayNumerator: UInt16(delay),
            delayDenominator: 100, dispose: disposal == 2 ? 1 : disposal == 3 ? 2 : 0, blend: 1,
            isDefaultImage: false, data: [])
    }
}

extension GIFFile {
    /// Every colour a canvas can hold, as 0xRRGGBBAA: each colour table's entries, opaque, and transparent black where
    /// the canvas can show through.
    var colours: Set<UInt32> {
        var colours: Set<UInt32> = hasAlpha ? [0] : []
        for range in Set(images.map(\.palette)) {
            for at in Swift.stride(from: range.lowerBound, to: range.upperBound, by: 3) {
                colours.insert(
                    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | 0xFF)
            }
        }
        return colours
    }
}
