import CatalogCore
import Foundation
import Hummingbird
import StickerImage

/// A sticker as the admin API shows it, with downloadable (signed) image URLs and any upload warnings.
package struct AdminSticker: ResponseEncodable {
    package var id: String
    package var groupId: String
    package var name: String
    package var description: String
    package var localizedDescriptions: [String: String]
    package var flags: [String]
    package var keywords: [String]
    package var emoji: [String]
    package var position: Int
    package var animated: Bool
    package var frames: Int
    package var durationMs: Int
    package var loops: Int
    /// The image as uploaded (metadata stripped).
    package var asset: AssetLink
    /// The image at every box edge, still and (for an APNG) animated.
    package var renditions: [AdminRendition]
    package var createdAt: Date
    package var updatedAt: Date
    /// When it appears and leaves in its group; null is always.
    package var publishAt: Date?
    package var unpublishAt: Date?
    package var warnings: [StickerWarning]?

    package enum CodingKeys: String, CodingKey {
        case id, groupId, name, description, localizedDescriptions, flags, keywords, emoji, position, animated, frames,
            durationMs, loops
        case asset, renditions, createdAt, updatedAt, publishAt, unpublishAt, warnings
    }

    /// Every key present but `warnings` (the schedule's as null when open).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(groupId, forKey: .groupId)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encode(localizedDescriptions, forKey: .localizedDescriptions)
        try c.encode(flags, forKey: .flags)
        try c.encode(keywords, forKey: .keywords)
        try c.encode(emoji, forKey: .emoji)
        try c.encode(position, forKey: .position)
        try c.encode(animated, forKey: .animated)
        try c.encode(frames, forKey: .frames)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(loops, forKey: .loops)
        try c.encode(asset, forKey: .asset)
        try c.encode(renditions, forKey: .renditions)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(publishAt.map(RFC3339.string), forKey: .publishAt)
        try c.encode(unpublishAt.map(RFC3339.string), forKey: .unpublishAt)
        try c.encodeIfPresent(warnings, forKey: .warnings)
    }

    package init(_ s: Sticker, linker: AssetLinker, warnings: [StickerWarning]? = nil) {
        (id, groupId, name, description, localizedDescriptions) = (
            s.id.apiString, s.groupId, s.name, s.description, s.localizedDescriptions
        )
        (flags, keywords, emoji, position) = (s.flags, s.keywords, s.emoji, s.position)
        (animated, frames, durationMs, loops) = (s.asset.animated, s.asset.frames, s.asset.durationMs, s.asset.loops)
        // Signed, so that an admin can open a premium sticker's image too (free images ignore the signature).
        let until = linker.signer?.expiry(at: Date())
        asset = linker.link(s.asset, signedUntil: until)
        renditions = s.renditions.map {
            AdminRendition(
                edge: $0.edge, still: $0.still, format: $0.format.fileExtension,
                asset: linker.link($0.asset, signedUntil: until))
        }
        (createdAt, updatedAt, self.warnings) = (s.createdAt, s.updatedAt, warnings)
        (publishAt, unpublishAt) = (s.publishAt, s.unpublishAt)
    }
}

/// One rendition of a sticker, as the admin API lists them.
package struct AdminRendition: Codable {
    package var edge: Int
    package var still: Bool
    /// "png" (PNG or APNG) or "webp".
    package var format: String
    package var asset: AssetLink
}

/// A group as the admin API shows it: all its fields, its sticker count and, for a single group, its stickers.
package struct AdminGroup: ResponseEncodable {
    package var group: StickerGroup
    package var stickerCount: Int
    package var stickers: [AdminSticker]?

    package enum CodingKeys: String, CodingKey {
        case id, name, localizedNames, sizeClass, flags, productId, position, published, coverStickerId, createdAt,
            updatedAt
        case publishAt, unpublishAt, stickerCount, stickers, audience, description, localizedDescriptions
    }

    /// Every key present (nulls included), ids in lowercase like everywhere else in the API.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(group.id, forKey: .id)
        try c.encode(group.name, forKey: .name)
        try c.encode(group.localizedNames, forKey: .localizedNames)
        try c.encode(group.description, forKey: .description)
        try c.encode(group.localizedDescriptions, forKey: .localizedDescriptions)
        try c.encode(group.sizeClass, forKey: .sizeClass)
        try c.encode(group.flags, forKey: .flags)
        try c.encode(group.productId, forKey: .productId)
        try c.encode(group.position, forKey: .position)
        try c.encode(group.published, forKey: .published)
        try c.encode(group.coverStickerId?.apiString, forKey: .coverStickerId)
        try c.encode(group.createdAt, forKey: .createdAt)
        try c.encode(group.updatedAt, forKey: .updatedAt)
        // RFC 3339 with the milliseconds an admin gave (the encoder's ISO 8601 drops them).
        try c.encode(group.publishAt.map(RFC3339.string), forKey: .publishAt)
        try c.encode(group.unpublishAt.map(RFC3339.string), forKey: .unpublishAt)
        try c.encode(group.audience?.form, forKey: .audience)
        try c.encode(stickerCount, forKey: .stickerCount)
        try c.encodeIfPresent(stickers, forKey: .stickers)
    }
}

/// A page of groups; `nextOffset` is null on the last page.
package struct AdminGroupPage: ResponseEncodable {
    package var groups: [AdminGroup]
    package var limit: Int
    package var offset: Int
    package var nextOffset: Int?

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(groups, forKey: .groups)
        try c.encode(limit, forKey: .limit)
        try c.encode(offset, forKey: .offset)
        try c.encode(nextOffset, forKey: .nextOffset)
    }

    package enum CodingKeys: String, CodingKey { case groups, limit, offset, nextOffset }
}

/// `PUT /v1/admin/groups/{id}/order`.
package struct StickerOrder: Decodable {
    package var stickerIds: [UUID]
}

/// `PUT /v1/admin/filters/{name}`.
package struct FilterBody: Decodable {
    package var title: String?
    package var flags: [String]
}

extension StickerFilter: ResponseEncodable {}
