/// A group of the catalog as a platform export reads it: its texts in the chosen language and its stickers' uploads.
public struct PackGroup: Sendable {
    /// The group's id (a slug), which names its packs.
    public var id: String
    public var name: String
    /// The sticker shown as the group's cover; nil means its first.
    public var coverStickerId: String?
    public var stickers: [PackSticker]

    public init(id: String, name: String, coverStickerId: String? = nil, stickers: [PackSticker]) {
        (self.id, self.name, self.coverStickerId, self.stickers) = (id, name, coverStickerId, stickers)
    }

    /// The cover sticker: the one named, else the first.
    var cover: PackSticker? { stickers.first { $0.id == coverStickerId } ?? stickers.first }
}

/// A sticker as an export reads it: its texts and its upload's bytes (PNG, APNG, WebP, GIF or JPEG).
public struct PackSticker: Sendable {
    public var id: String
    public var name: String
    public var description: String
    public var emoji: [String]
    public var keywords: [String]
    public var image: [UInt8]

    public init(id: String, name: String, description: String, emoji: [String], keywords: [String], image: [UInt8]) {
        (self.id, self.name, self.description, self.emoji, self.keywords, self.image) = (
            id, name, description, emoji, keywords, image
        )
    }
}
