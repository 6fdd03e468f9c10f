import StickerImage

/// One page of the group index: the groups a caller may see, in catalog order, without their stickers.
package struct GroupIndexPage: Codable, Sendable, Equatable {
    package var revision: Int64
    package var groups: [GroupSummary]
    /// The cursor of the next page; null on the last.
    package var next: String?

    /// `next` as an explicit null on the last page, so every page has one shape.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(revision, forKey: .revision)
        try c.encode(groups, forKey: .groups)
        try c.encode(next, forKey: .next)
    }

    package init(revision: Int64, groups: [GroupSummary], next: String?) {
        (self.revision, self.groups, self.next) = (revision, groups, next)
    }
}

/// A group as the index lists it: what a browse grid needs (its name, its cover at the view's size, how many stickers,
/// whether it moves, whether it is locked) and its `version`, the ETag `GET /v1/groups/{id}` answers for the same
/// view, so a client refetches a group only when its version changes.
package struct GroupSummary: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    /// A line under its name, in the asked locale; absent when it has none.
    package var description: String?
    package var sizeClass: SizeClass
    package var flags: [String]
    package var position: Int
    package var locked: Bool
    package var productId: String?
    package var cover: AssetLink?
    /// The stickers the group holds (a locked group's too, which its own answer lists once unlocked).
    package var stickerCount: Int
    /// Whether some sticker moves in the view's format.
    package var animated: Bool
    package var version: String

    /// `productId` as an explicit null, as `ManifestGroup` has it.
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
        try c.encode(stickerCount, forKey: .stickerCount)
        try c.encode(animated, forKey: .animated)
        try c.encode(version, forKey: .version)
    }
}

extension GroupSummary {
    /// `group` at `position` as `query` shows it, nil when it has no sticker (its own route answers 404 then).
    package init?(
        _ group: StickerGroup, position: Int, stickers: [Sticker], contentVersion: Int64?, query: ManifestQuery,
        linker: AssetLinker
    ) {
        guard let cover = group.cover(among: stickers) else { return nil }
        var groupView = query
        (groupView.filter, groupView.flags) = (nil, [])
        self.init(
            id: group.id,
            name: localized(group.localizedNames, locale: query.locale, fallback: group.name),
            description: group.description(in: query.locale),
            sizeClass: group.sizeClass,
            flags: group.flags,
            position: position,
            locked: group.productId.map { !query.unlocked.contains($0) } ?? false,
            productId: group.productId,
            cover: linker.link(
                cover.picture(edge: query.edge(for: group), format: query.format),
                signedUntil: group.audience == nil ? nil : query.signedUntil),
            stickerCount: stickers.count,
            animated: !query.still && stickers.contains { $0.asset.animated },
            version: GroupVersion.of(
                group, position: position, stickers: stickers, contentVersion: contentVersion, query: groupView,
                linker: linker))
    }
}
