import Foundation
import StickerImage

/// A group of stickers shown together; every sticker in it displays at the group's size class.
public struct StickerGroup: Codable, Sendable, Equatable {
    /// URL-safe slug such as `chocolate`.
    public var id: String
    public var name: String
    /// Names by locale tag (`fr`, `pt-BR`), falling back to `name`.
    public var localizedNames: [String: String]
    public var sizeClass: SizeClass
    public var flags: [String]
    /// App Store product that unlocks the group; nil for a free group.
    public var productId: String?
    public var position: Int
    /// A draft (false) is never shown to clients; a published group only within its schedule.
    public var published: Bool
    /// The sticker shown as the group's cover; nil means its first sticker.
    public var coverStickerId: UUID?
    public var createdAt: Date
    public var updatedAt: Date
    /// When it appears and leaves (`Schedule`); nil is always.
    public var publishAt: Date? = nil
    public var unpublishAt: Date? = nil
}

/// A sticker: one image with its accessibility text and search terms.
public struct Sticker: Codable, Sendable, Equatable {
    public var id: UUID
    public var groupId: String
    public var name: String
    /// Accessibility label, at most 150 characters.
    public var description: String
    public var localizedDescriptions: [String: String]
    public var flags: [String]
    public var keywords: [String]
    public var emoji: [String]
    public var position: Int
    /// The uploaded image, as stored.
    public var asset: Asset
    /// The image fitted to each box edge in each format, still and (for an animation) animated; empty until they are made.
    public var renditions: [StickerRendition] = []
    public var createdAt: Date
    public var updatedAt: Date
    /// When it appears and leaves in its group (`Schedule`); nil is always.
    public var publishAt: Date? = nil
    public var unpublishAt: Date? = nil
}

/// Stored image bytes, named by their SHA-256.
public struct Asset: Codable, Sendable, Equatable {
    public var sha256: String
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var animated: Bool
    public var frames: Int
    /// One loop's play time; 0 for a still image.
    public var durationMs: Int
    /// Times an animation plays; 0 is forever.
    public var loops: Int
    /// PNG (APNG) or WebP: its URL's extension and its Content-Type.
    public var format: ImageFormat = .png
}

/// A named client mode such as `chocoholic`: it shows only stickers carrying every required flag.
public struct StickerFilter: Codable, Sendable, Equatable {
    public var name: String
    public var title: String
    public var flags: [String]
}

extension UUID {
    /// The form the API uses everywhere (JSON, URLs, logs): lowercase, as RFC 9562 recommends.
    public var apiString: String { uuidString.lowercased() }
}
