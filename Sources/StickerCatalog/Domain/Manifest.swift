import StickerImage

/// What a client downloads: the groups and stickers it may use, in display order.
public struct Manifest: Codable, Sendable, Equatable {
    public var revision: Int64
    /// Where the change feed (`/v1/manifest/changes?since=`) picks up from this manifest.
    public var cursor: String
    public var filter: String?
    public var flags: [String]
    public var size: SizeClass?
    public var scale: Int
    /// "png" when only still pictures were asked for, "webp" for WebP; null for the default, PNG and APNG.
    public var format: String?
    /// The catalog locale the request resolved to; null means the default texts.
    public var locale: String?
    public var groups: [ManifestGroup]

    /// Every key present, nulls included, so clients see one shape; but `size` is left out when there is none: a key
    /// that is an object or null is what OpenAPI generators cannot type (swift-openapi-generator drops it).
    public func encode(to encoder: any Encoder) throws {
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
}

/// A group as clients see it; a locked group lists its cover but no stickers.
public struct ManifestGroup: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var sizeClass: SizeClass
    public var flags: [String]
    public var position: Int
    public var locked: Bool
    public var productId: String?
    public var cover: AssetLink?
    public var stickers: [ManifestSticker]

    /// Keeps `productId` as an explicit null so every client sees the same keys; `cover` is left out when there is none,
    /// as `Manifest.size` is.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(sizeClass, forKey: .sizeClass)
        try c.encode(flags, forKey: .flags)
        try c.encode(position, forKey: .position)
        try c.encode(locked, forKey: .locked)
        try c.encode(productId, forKey: .productId)
        try c.encodeIfPresent(cover, forKey: .cover)
        try c.encode(stickers, forKey: .stickers)
    }
}

public struct ManifestSticker: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String
    public var flags: [String]
    public var keywords: [String]
    public var emoji: [String]
    /// What `asset` plays: an animation, or a still picture.
    public var animated: Bool
    public var frames: Int
    public var durationMs: Int
    public var loops: Int
    /// The picture fitted to the group's (or the asked) size class at the asked scale.
    public var asset: AssetLink
    /// A still, small-class picture at the asked scale, for keyboards and pickers.
    public var thumbnail: AssetLink
}

/// An image as clients fetch it: where, how big (its true pixels), whether it moves, and its digest.
public struct AssetLink: Codable, Sendable, Equatable {
    public var url: String
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var sha256: String
    public var animated: Bool
}

/// Makes asset URLs: paths on this service, or absolute under a public base URL such as a CDN; premium images'
/// URLs carry a signature (`AssetSigner`). Signs, too, the change cursors manifests and change pages carry.
public struct AssetLinker: Sendable {
    public let baseURL: String
    public let signer: AssetSigner?
    /// Derived from the signer's key: replicas with one asset signing key accept each other's cursors.
    public let cursorKey: CursorKey

    public init(publicBaseURL: String?, signer: AssetSigner? = nil) {
        var base = publicBaseURL ?? ""
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.signer = signer
        cursorKey = CursorKey(signer: signer)
    }

    /// Signs every link until then, free images too: an admin's preview of a moment shows images that are not free
    /// (not shown to anyone) yet.
    public var signingEverythingUntil: Int64?

    /// The link to `asset`, signed until `signedUntil` when given.
    public func link(_ asset: Asset, signedUntil: Int64? = nil) -> AssetLink {
        var url = "\(baseURL)/v1/assets/\(asset.sha256).\(asset.format.fileExtension)"
        if let signedUntil = signedUntil ?? signingEverythingUntil, let signer { url += "?" + signer.query(sha256: asset.sha256, expires: signedUntil) }
        return AssetLink(url: url, width: asset.width, height: asset.height, bytes: asset.bytes, sha256: asset.sha256, animated: asset.animated)
    }
}
