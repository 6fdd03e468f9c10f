/// Everything clients can see at one catalog revision: published groups in order, their stickers in order, filters.
public struct CatalogSnapshot: Sendable {
    public var revision: Int64
    /// Published groups by position, then name.
    public var groups: [StickerGroup]
    /// Stickers of each group by position.
    public var stickers: [String: [Sticker]]
    public var filters: [String: StickerFilter]

    public init(revision: Int64, groups: [StickerGroup], stickers: [String: [Sticker]], filters: [String: StickerFilter]) {
        self.revision = revision
        self.groups = groups
        self.stickers = stickers
        self.filters = filters
    }
}
