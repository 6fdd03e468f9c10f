/// A sticker's picture made for a platform's pack: the file, what it is, and how close it is to its source.
public struct PackPicture: Sendable, Equatable {
    public let bytes: [UInt8]
    /// PNG (APNG when animated) or WebP.
    public let format: ImageFormat
    public let width: Int
    public let height: Int
    public let frames: Int
    public let durationMs: Int
    /// Peak signal-to-noise ratio in dB against the source placed the same way (premultiplied RGBA, over every frame
    /// kept); infinite when the file is lossless and keeps every frame.
    public let psnr: Double
    /// The lossy WebP quality used; nil for a lossless file.
    public let quality: Float?
    /// Frames of the source left out (to meet a minimum frame time or a byte budget); their time goes to the frame
    /// before.
    public let droppedFrames: Int
}

/// Where a sticker's picture goes in a platform's image: fitted in a square canvas and centred (never enlarged:
/// WhatsApp's and Signal's 512 x 512), or scaled so its longest side is exactly a length (Telegram's "one side 512").
public enum PackPlacement: Sendable, Equatable {
    case centered(side: Int)
    case longestSide(Int)

    /// The size of the picture placed from a `width` x `height` source, and of the whole image.
    public func sizes(
        width: Int, height: Int
    ) -> (picture: (width: Int, height: Int), canvas: (width: Int, height: Int)) {
        switch self {
        case .centered(let side):
            let picture = RenditionEdge.fitted(width: width, height: height, edge: side)
            return (picture, (side, side))
        case .longestSide(let length):
            let scale = Double(length) / Double(max(width, height))
            let picture = (
                min(length, max(1, Int((Double(width) * scale).rounded()))),
                min(length, max(1, Int((Double(height) * scale).rounded())))
            )
            return (picture, picture)
        }
    }

    /// `image` placed: resized in linear light (Lanczos-3), then centred on a transparent canvas.
    public func apply(_ image: RGBAImage) -> RGBAImage {
        let (picture, canvas) = sizes(width: image.width, height: image.height)
        let resized =
            picture == (image.width, image.height)
            ? image
            : Lanczos.resize(LinearImage(image), width: picture.width, height: picture.height).rgba
        guard canvas != picture else { return resized }
        var pixels = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
        let (left, top) = ((canvas.width - picture.width) / 2, (canvas.height - picture.height) / 2)
        for row in 0..<picture.height {
            let from = row * picture.width * 4
            let to = ((top + row) * canvas.width + left) * 4
            pixels.replaceSubrange(
                to..<(to + picture.width * 4), with: resized.pixels[from..<(from + picture.width * 4)])
        }
        return RGBAImage(width: canvas.width, height: canvas.height, pixels: pixels)
    }
}

extension PackPicture {
    /// The still picture of `source` placed by `placement`, in the first of `formats` that fits `budget` bytes: a
    /// lossless PNG or WebP when one fits (exact: sticker art with flat colours usually does), otherwise a lossy WebP
    /// at the highest quality that fits (a binary search over libwebp's quality, alpha lossless). Nil when nothing
    /// fits.
    public static func still(
        _ source: StickerSource, placement: PackPlacement, budget: Int, formats: [ImageFormat],
        rules: StickerRules = StickerRules()
    ) throws -> PackPicture? {
        var picture: RGBAImage?
        try source.play(rules: rules, still: { picture = $0 }, canvas: { _, _, _ in })
        guard let picture else { throw PNGWriter.Failure(message: "the image did not decode") }
        return try still(placement.apply(picture), budget: budget, formats: formats)
    }

    /// `image` as a still file of one of `formats` within `budget` bytes, as `still(_:placement:...)` chooses.
    public static func still(_ image: RGBAImage, budget: Int, formats: [ImageFormat]) throws -> PackPicture? {
        func made(_ bytes: [UInt8], _ format: ImageFormat, quality: Float?) -> PackPicture {
            let decoded = quality == nil ? nil : WebPCodec.decode(bytes)
            return PackPicture(
                bytes: bytes, format: format, width: image.width, height: image.height, frames: 1, durationMs: 0,
                psnr: decoded.map(image.psnr) ?? .infinity, quality: quality, droppedFrames: 0)
        }
        for format in formats {
            let lossless =
                format == .webp
                ? try WebPCodec.encode(image, .init(quality: 75, lossless: true)) : try PNGWriter.encode(image)
            if lossless.count <= budget { return made(lossless, format, quality: nil) }
        }
        guard formats.contains(.webp) else { return nil }
        // The highest whole quality whose file fits: qualities 0...100, smaller files at lower ones.
        var (low, high, best) = (0, 100, [UInt8]?.none)
        var bestQuality = 0
        while low <= high {
            let quality = (low + high) / 2
            let bytes = try WebPCodec.encode(image, .init(quality: Float(quality)))
            if bytes.count <= budget {
                (best, bestQuality, low) = (bytes, quality, quality + 1)
            } else {
                high = quality - 1
            }
        }
        return best.map { made($0, .webp, quality: Float(bestQuality)) }
    }
}
