import Foundation
import StickerImage

/// A group of stickers shown together; every sticker in it displays at the group's size class.
package struct StickerGroup: Codable, Sendable, Equatable {
    /// URL-safe slug such as `chocolate`.
    package var id: String
    package var name: String
    /// Names by locale tag (`fr`, `pt-BR`), falling back to `name`.
    package var localizedNames: [String: String]
    package var sizeClass: SizeClass
    package var flags: [String]
    /// App Store product that unlocks the group; nil for a free group.
    package var productId: String?
    package var position: Int
    /// A draft (false) is never shown to clients; a published group only within its schedule.
    package var published: Bool
    /// The sticker shown as the group's cover; nil means its first sticker.
    package var coverStickerId: UUID?
    package var createdAt: Date
    package var updatedAt: Date
    /// When it appears and leaves (`Schedule`); nil is always.
    package var publishAt: Date? = nil
    package var unpublishAt: Date? = nil
    /// Who sees it (`Audience`); nil is everyone.
    package var audience: Audience? = nil
    /// The group's own salt for percentage buckets, made once when the group is created.
    package var audienceSalt: String = ""
    /// A line under its name in a browse list; empty is none. Translations by locale tag fall back to it.
    package var description: String = ""
    package var localizedDescriptions: [String: String] = [:]

    package init(
        id: String, name: String, localizedNames: [String: String], sizeClass: SizeClass, flags: [String],
        productId: String? = nil, position: Int, published: Bool, coverStickerId: UUID? = nil, createdAt: Date,
        updatedAt: Date, publishAt: Date? = nil, unpublishAt: Date? = nil, audience: Audience? = nil,
        audienceSalt: String = "", description: String = "", localizedDescriptions: [String: String] = [:]
    ) {
        (self.description, self.localizedDescriptions) = (description, localizedDescriptions)
        self.audience = audience
        self.audienceSalt = audienceSalt
        self.id = id
        self.name = name
        self.localizedNames = localizedNames
        self.sizeClass = sizeClass
        self.flags = flags
        self.productId = productId
        self.position = position
        self.published = published
        self.coverStickerId = coverStickerId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.publishAt = publishAt
        self.unpublishAt = unpublishAt
    }
}

/// A sticker: one image with its accessibility text and search terms.
package struct Sticker: Codable, Sendable, Equatable {
    package var id: UUID
    package var groupId: String
    package var name: String
    /// Accessibility label, at most 150 characters.
    package var description: String
    package var localizedDescriptions: [String: String]
    package var flags: [String]
    package var keywords: [String]
    package var emoji: [String]
    package var position: Int
    /// The uploaded image, as stored.
    package var asset: Asset
    /// The image fitted to each box edge in each format, still and (for an animation) animated; empty until they are
    /// made.
    package var renditions: [StickerRendition] = []
    package var createdAt: Date
    package var updatedAt: Date
    /// When it appears and leaves in its group (`Schedule`); nil is always.
    package var publishAt: Date? = nil
    package var unpublishAt: Date? = nil
    /// The colour a client paints before the image arrives (`Placeholder`, `#rrggbbaa`); nil until it is made for an
    /// image stored before placeholders were.
    package var placeholder: String? = nil

    package init(
        id: UUID, groupId: String, name: String, description: String, localizedDescriptions: [String: String],
        flags: [String], keywords: [String], emoji: [String], position: Int, asset: Asset,
        renditions: [StickerRendition] = [], createdAt: Date, updatedAt: Date, publishAt: Date? = nil,
        unpublishAt: Date? = nil, placeholder: String? = nil
    ) {
        self.placeholder = placeholder
        self.id = id
        self.groupId = groupId
        self.name = name
        self.description = description
        self.localizedDescriptions = localizedDescriptions
        self.flags = flags
        self.keywords = keywords
        self.emoji = emoji
        self.position = position
        self.asset = asset
        self.renditions = renditions
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.publishAt = publishAt
        self.unpublishAt = unpublishAt
    }
}

/// Stored image bytes, named by their SHA-256.
package struct Asset: Codable, Sendable, Equatable {
    package var sha256: String
    package var width: Int
    package var height: Int
    package var bytes: Int
    package var animated: Bool
    package var frames: Int
    /// One loop's play time; 0 for a still image.
    package var durationMs: Int
    /// Times an animation plays; 0 is forever.
    package var loops: Int
    /// PNG (APNG) or WebP: its URL's extension and its Content-Type.
    package var format: ImageFormat = .png

    package init(
        sha256: String, width: Int, height: Int, bytes: Int, animated: Bool, frames: Int, durationMs: Int, loops: Int,
        format: ImageFormat = .png
    ) {
        self.sha256 = sha256
        self.width = width
        self.height = height
        self.bytes = bytes
        self.animated = animated
        self.frames = frames
        self.durationMs = durationMs
        self.loops = loops
        self.format = format
    }
}

/// A named client mode such as `chocoholic`: it shows only stickers carrying every required flag.
package struct StickerFilter: Codable, Sendable, Equatable {
    package var name: String
    package var title: String
    package var flags: [String]

    package init(name: String, title: String, flags: [String]) {
        self.name = name
        self.title = title
        self.flags = flags
    }
}

extension UUID {
    /// The form the API uses everywhere (JSON, URLs, logs): lowercase, as RFC 9562 recommends.
    package var apiString: String { uuidString.lowercased() }
}
