/// Everything clients can see at one catalog revision: published groups in order, their stickers in order, filters.
public struct CatalogSnapshot: Sendable {
    public let revision: Int64
    /// Published groups by position, then name.
    public let groups: [StickerGroup]
    /// Stickers of each group by position.
    public let stickers: [String: [Sticker]]
    public let filters: [String: StickerFilter]
    /// Every language tag some group name or sticker description is translated to.
    public let locales: Set<String>
    private let groupIndex: [String: Int]

    public init(revision: Int64, groups: [StickerGroup], stickers: [String: [Sticker]], filters: [String: StickerFilter]) {
        self.revision = revision
        self.groups = groups
        self.stickers = stickers
        self.filters = filters
        var locales = Set(groups.flatMap(\.localizedNames.keys))
        for list in stickers.values { for sticker in list { locales.formUnion(sticker.localizedDescriptions.keys) } }
        self.locales = locales
        self.groupIndex = Dictionary(groups.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The published group `id`, if there is one.
    public func group(id: String) -> StickerGroup? {
        groupIndex[id].map { groups[$0] }
    }
}
