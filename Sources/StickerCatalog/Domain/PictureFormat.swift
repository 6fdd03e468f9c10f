import StickerImage

/// The pictures a client's view asks for: `apng` (PNG, animated where the sticker moves; the default), `png` (still
/// PNG only, for clients that cannot animate) or `webp` (WebP, animated where the sticker moves).
public enum PictureFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case apng
    case png
    case webp

    /// Only still pictures.
    public var still: Bool { self == .png }

    /// The file format of its pictures.
    public var file: ImageFormat { self == .webp ? .webp : .png }
}
