/// The limits an uploaded sticker must meet (Apple's Messages rules, BRIEF.md), and the safety caps of the decoder.
public struct StickerRules: Sendable {
    /// Each file under 500 KB.
    public var maxBytes = 500 * 1024
    /// Each side at @3x, from small (300) to large (618).
    public var sideRange = 300...618
    /// Frames of an animated sticker: 100 is 10 s at 10 fps, more than Messages plays smoothly in a bubble.
    public var maxFrames = 100
    /// Play time of one loop: 10 s, WhatsApp's limit for animated stickers; longer is a video, not a sticker.
    public var maxDurationMs = 10_000
    /// Pixels of all frames together, 4 bytes each once decoded: 128 MiB, about 87 full 618 x 618 frames.
    public var maxDecodedBytes = 128 * 1024 * 1024
    /// One ancillary chunk (text, ICC profile, EXIF...): 256 KiB, half the whole file limit.
    public var maxAncillaryChunkBytes = 256 * 1024
    /// What a compressed ancillary chunk (zTXt, iTXt, iCCP) may inflate to: 1 MiB stops metadata bombs.
    public var maxInflatedMetadataBytes = 1024 * 1024

    public init() {}
}

/// What the validator learned about an accepted sticker image.
public struct StickerImageInfo: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let animated: Bool
    /// Frames of the animation; 1 for a still image.
    public let frames: Int
    /// One loop's play time; 0 for a still image.
    public let durationMs: Int
    /// Times the animation plays; 0 means forever (and for a still image).
    public let loops: Int
    public let hasAlpha: Bool
    /// PNG (and APNG) or WebP.
    public let format: ImageFormat
    /// The file as it is stored and served: privacy-leaking metadata chunks removed, image data untouched.
    public let storedBytes: [UInt8]
    /// Its still picture's colour (`Placeholder`), when the pixels were read for renditions; nil when only validated
    /// (an image stored already keeps the colour it has).
    public var placeholder: String? = nil
}

/// Something allowed but unwise about an accepted upload.
public struct StickerWarning: Sendable, Equatable, Codable {
    public let code: String
    public let detail: String

    public init(code: String, detail: String) {
        self.code = code
        self.detail = detail
    }
}

extension StickerRules {
    /// Refuses, before anything is decoded, a canvas past `maxPixels` and canvases past `maxDecodedBytes` together
    /// (4 bytes a pixel, one canvas a frame).
    func checkDecodable(width: Int, height: Int, frames: Int, maxPixels: Int) throws(StickerRejection) {
        guard width * height <= maxPixels else { throw .corrupt("the image claims \(width) x \(height) pixels") }
        let decodedBytes = width * height * 4 * frames
        guard decodedBytes <= maxDecodedBytes else {
            throw .tooManyFrames(
                "its \(frames) frames decode to \(decodedBytes) bytes; the limit is \(maxDecodedBytes)")
        }
    }
}
