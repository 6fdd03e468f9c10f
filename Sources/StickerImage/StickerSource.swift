/// An upload whose structure has been checked, PNG/APNG, WebP, GIF or JPEG: what the validator and the renditions
/// need of each, so that every format meets the same rules and makes the same renditions.
public enum StickerSource: Sendable {
    case png(PNGFile)
    case webp(WebPFile)
    case gif(GIFFile)
    case jpeg(JPEGFile)

    /// Reads the structure of `bytes` by the format its first bytes say; any other format is refused.
    public init(_ bytes: [UInt8], rules: StickerRules) throws(StickerRejection) {
        switch ImageFormat(sniffing: bytes) {
        case .png: self = .png(try PNGFile(bytes, rules: rules))
        case .webp: self = .webp(try WebPFile(bytes, rules: rules))
        case .gif: self = .gif(try GIFFile(bytes, rules: rules))
        case .jpeg: self = .jpeg(try JPEGFile(bytes, rules: rules))
        case let other: throw .unsupportedFormat(other)
        }
    }

    public var format: ImageFormat {
        switch self {
        case .png: .png
        case .webp: .webp
        case .gif: .gif
        case .jpeg: .jpeg
        }
    }

    public var width: Int {
        switch self {
        case .png(let file): file.width
        case .webp(let file): file.width
        case .gif(let file): file.width
        case .jpeg(let file): file.width
        }
    }

    public var height: Int {
        switch self {
        case .png(let file): file.height
        case .webp(let file): file.height
        case .gif(let file): file.height
        case .jpeg(let file): file.height
        }
    }

    public var hasAlpha: Bool {
        switch self {
        case .png(let file): file.hasAlpha
        case .webp(let file): file.hasAlpha
        case .gif(let file): file.hasAlpha
        case .jpeg(let file): file.hasAlpha
        }
    }

    public var animation: Animation? {
        switch self {
        case .png(let file): file.animation
        case .webp(let file): file.animation
        case .gif(let file): file.animation
        case .jpeg: nil
        }
    }

    public var frameCount: Int { animation?.frames.count ?? 1 }

    /// The file as stored and served: metadata that can say who made it, where or when removed.
    public var strippedBytes: [UInt8] {
        switch self {
        case .png(let file): file.strippedBytes
        case .webp(let file): file.strippedBytes
        case .gif(let file): file.strippedBytes
        case .jpeg(let file): file.strippedBytes
        }
    }

    /// Decodes every frame in full, each bounded before it is decoded: what validation needs.
    public func decodeAll(maxPixels: Int, rules: StickerRules) throws(StickerRejection) {
        switch self {
        case .png(let file): try file.decodeAllFrames(maxPixels: maxPixels, rules: rules)
        case .webp(let file): try file.decodeAllFrames(maxPixels: maxPixels, rules: rules)
        case .gif(let file): try file.decodeAllFrames(maxPixels: maxPixels, rules: rules)
        case .jpeg(let file): _ = try file.decode(maxPixels: maxPixels)
        }
    }

    /// Plays the sticker in sRGB: first its still picture (an APNG's default image, an animated WebP's or GIF's first
    /// canvas, a JPEG upright),
    /// then, for an animation, each canvas as shown with the frame it shows for. Nothing is kept between calls.
    public func play(
        rules: StickerRules, still: (RGBAImage) -> Void, canvas: (Int, RGBAImage, Animation.Frame) -> Void
    ) throws(StickerRejection) {
        let side = rules.sideRange.upperBound
        switch self {
        case .png(let file):
            var compositor = APNGCompositor(width: file.width, height: file.height)
            try file.decodeAllFrames(maxPixels: side * side, rules: rules, sRGB: true) { decoded in
                switch decoded {
                case .defaultImage(let image): still(image)
                case .frame(let index, let image):
                    guard let frame = file.animation?.frames[index] else { return }
                    canvas(index, compositor.render(frame, image: image, index: index), frame)
                }
            }
        case .webp(let file):
            try file.decodeAllFrames(maxPixels: side * side, rules: rules, sRGB: true) { index, image in
                if index == 0 { still(image) }
                if let frame = file.animation?.frames[index] { canvas(index, image, frame) }
            }
        case .gif(let file):
            try file.decodeAllFrames(maxPixels: side * side, rules: rules) { index, image in
                if index == 0 { still(image) }
                if let frame = file.animation?.frames[index] { canvas(index, image, frame) }
            }
        case .jpeg(let file):
            still(try file.decode(maxPixels: side * side, sRGB: true))
        }
    }
}

extension StickerSource {
    /// How an APNG rendition of this source stores its frames, at its own size (`fullSize`) or resized: a GIF's
    /// colours as a palette where they fit in one (its canvases hold nothing else), RGB where no canvas can show
    /// through (a GIF without transparency), RGBA otherwise.
    func frameLayout(fullSize: Bool) -> FrameLayout {
        guard case .gif(let file) = self else { return .rgba }
        // Transparent black too where there is room, so that frames can be drawn over the one before.
        var colours = file.colours
        if colours.count < 256 { colours.insert(0) }
        if fullSize, let palette = FrameLayout.palette(of: colours) { return palette }
        return file.hasAlpha ? .rgba : .rgb
    }
}
