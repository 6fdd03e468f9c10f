import StickerImage

/// The pictures a client's view asks for: `apng` (PNG, animated where the sticker moves; the default), `png` (still
/// PNG only, for clients that cannot animate) or `webp` (WebP, animated where the sticker moves).
package enum PictureFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case apng
    case png
    case webp

    /// Only still pictures.
    package var still: Bool { self == .png }

    /// The file format of its pictures.
    package var file: ImageFormat { self == .webp ? .webp : .png }
}
