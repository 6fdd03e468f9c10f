import StickerImage

/// What a client downloads: the groups and stickers it may use, in display order.
package struct Manifest: Codable, Sendable, Equatable {
    package var revision: Int64
    /// Where the change feed (`/v1/manifest/changes?since=`) picks up from this manifest.
    package var cursor: String
    package var filter: String?
    package var flags: [String]
    package var size: SizeClass?
    package var scale: Int
    /// "png" when only still pictures were asked for, "webp" for WebP; null for the default, PNG and APNG.
    package var format: String?
    /// The catalog locale the request resolved to; null means the default texts.
    package var locale: String?
    package var groups: [ManifestGroup]

    /// Every key present, nulls included, so clients see one shape; but `size` is left out when there is none: a key
    /// that is an object or null is what OpenAPI generators cannot type (swift-openapi-generator drops it).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(revision, forKey: .revision)
        try c.encode(cursor, forKey: .cursor)
        try c.encode(filter, forKey: .filter)
        try c.encode(flags, forKey: .flags)
        try c.encodeIfPresent(size, forKey: .size)
        try c.encode(scale, forKey: .scale)
        try c.encode(format, forKey: .format)
        try c.encode(locale, forKey: .locale)
        try c.encode(groups, forKey: .groups)
    }

    package init(
        revision: Int64, cursor: String, filter: String? = nil, flags: [String], size: SizeClass? = nil, scale: Int,
        format: String? = nil, locale: String? = nil, groups: [ManifestGroup]
    ) {
        self.revision = revision
        self.cursor = cursor
        self.filter = filter
        self.flags = flags
        self.size = size
        self.scale = scale
        self.format = format
        self.locale = locale
        self.groups = groups
    }
}

/// A group as clients see it; a locked group lists its cover but no stickers.
package struct ManifestGroup: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var sizeClass: SizeClass
    package var flags: [String]
    package var position: Int
    package var locked: Bool
    package var productId: String?
    package var cover: AssetLink?
    package var stickers: [ManifestSticker]
    /// A line under its name, in the asked locale; absent when it has none.
    package var description: String?

    /// Keeps `productId` as an explicit null so every client sees the same keys; `cover` is left out when there is
    /// none, as `Manifest.size` is.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encode(sizeClass, forKey: .sizeClass)
        try c.encode(flags, forKey: .flags)
        try c.encode(position, forKey: .position)
        try c.encode(locked, forKey: .locked)
        try c.encode(productId, forKey: .productId)
        try c.encodeIfPresent(cover, forKey: .cover)
        try c.encode(stickers, forKey: .stickers)
    }

    package init(
        id: String, name: String, description: String? = nil, sizeClass: SizeClass, flags: [String], position: Int,
        locked: Bool, productId: String? = nil, cover: AssetLink? = nil, stickers: [ManifestSticker]
    ) {
        self.description = description
        self.id = id
        self.name = name
        self.sizeClass = sizeClass
        self.flags = flags
        self.position = position
        self.locked = locked
        self.productId = productId
        self.cover = cover
        self.stickers = stickers
    }
}

package struct ManifestSticker: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var description: String
    package var flags: [String]
    package var keywords: [String]
    package var emoji: [String]
    /// What `asset` plays: an animation, or a still picture.
    package var animated: Bool
    package var frames: Int
    package var durationMs: Int
    package var loops: Int
    /// The picture fitted to the group's (or the asked) size class at the asked scale.
    package var asset: AssetLink
    /// A still, small-class picture at the asked scale, for keyboards and pickers.
    package var thumbnail: AssetLink
    /// `#rrggbbaa` to paint before the picture arrives (`Placeholder`); absent until made for an older image.
    package var placeholder: String?
    /// With `sources=all`: the picture at 1x to 3x in WebP and PNG, for a web page's `<picture>` (`PictureSource`).
    package var sources: [PictureSource]?

    package init(
        id: String, name: String, description: String, flags: [String], keywords: [String], emoji: [String],
        animated: Bool, frames: Int, durationMs: Int, loops: Int, asset: AssetLink, thumbnail: AssetLink,
        placeholder: String? = nil, sources: [PictureSource]? = nil
    ) {
        self.placeholder = placeholder
        self.sources = sources
        self.id = id
        self.name = name
        self.description = description
        self.flags = flags
        self.keywords = keywords
        self.emoji = emoji
        self.animated = animated
        self.frames = frames
        self.durationMs = durationMs
        self.loops = loops
        self.asset = asset
        self.thumbnail = thumbnail
    }
}

/// An image as clients fetch it: where, how big (its true pixels), whether it moves, and its digest.
package struct AssetLink: Codable, Sendable, Equatable {
    package var url: String
    package var width: Int
    package var height: Int
    package var bytes: Int
    package var sha256: String
    package var animated: Bool

    package init(url: String, width: Int, height: Int, bytes: Int, sha256: String, animated: Bool) {
        self.url = url
        self.width = width
        self.height = height
        self.bytes = bytes
        self.sha256 = sha256
        self.animated = animated
    }
}

/// Makes asset URLs: paths on this service, or absolute under a public base URL such as a CDN; premium images'
/// URLs carry a signature (`AssetSigner`). Signs, too, the change cursors manifests and change pages carry.
package struct AssetLinker: Sendable {
    package let baseURL: String
    package let signer: AssetSigner?
    /// Derived from the signer's key: replicas with one asset signing key accept each other's cursors.
    package let cursorKey: CursorKey

    package init(publicBaseURL: String?, signer: AssetSigner? = nil) {
        var base = publicBaseURL ?? ""
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.signer = signer
        cursorKey = CursorKey(signer: signer)
    }

    /// Signs every link until then, free images too: an admin's preview of a moment shows images that are not free
    /// (not shown to anyone) yet.
    package var signingEverythingUntil: Int64?

    /// The link to `asset`, signed until `signedUntil` when given.
    package func link(_ asset: Asset, signedUntil: Int64? = nil) -> AssetLink {
        var url = "\(baseURL)/v1/assets/\(asset.sha256).\(asset.format.fileExtension)"
        if let signedUntil = signedUntil ?? signingEverythingUntil, let signer {
            url += "?" + signer.query(sha256: asset.sha256, expires: signedUntil)
        }
        return AssetLink(
            url: url, width: asset.width, height: asset.height, bytes: asset.bytes, sha256: asset.sha256,
            animated: asset.animated)
    }
}
