import StickerImage

/// A whole catalog to load at once (the demo): groups with their validated stickers, and filters.
package struct CatalogSeed: Sendable {
    package struct Item: Sendable {
        package var draft: StickerDraft
        package var info: StickerImageInfo
        package var renditions: [Rendition]

        package init(draft: StickerDraft, info: StickerImageInfo, renditions: [Rendition]) {
            (self.draft, self.info, self.renditions) = (draft, info, renditions)
        }
    }

    package struct Group: Sendable {
        package var draft: GroupDraft
        package var items: [Item]

        package init(draft: GroupDraft, items: [Item]) { (self.draft, self.items) = (draft, items) }
    }

    package var groups: [Group]
    package var filters: [StickerFilter]

    package init(groups: [Group], filters: [StickerFilter]) { (self.groups, self.filters) = (groups, filters) }
}

/// Loads a whole catalog into an empty store.
package protocol CatalogSeeding: Sendable {
    /// Loads `seed` when the catalog holds no group; true when it did.
    func loadIfEmpty(_ seed: CatalogSeed) async throws -> Bool
}
