import StickerImage

/// One page of the change feed: what changed in a client's view since its cursor. Each group listed replaces the
/// client's copy whole (its fields and its stickers as the manifest shows them); a group removed, or no longer in the
/// view, is listed by id; `order` is the view's group order now. Apply every page up to `moreComing: false`, then keep
/// `cursor`.
package struct ManifestChanges: Codable, Sendable, Equatable {
    /// The catalog revision the groups listed come from.
    package var revision: Int64
    package var cursor: String
    package var moreComing: Bool
    package var groups: [ManifestGroup]
    package var removedGroups: [String]
    /// Stickers deleted since the cursor (sent on the last page).
    package var removedStickers: [String]
    package var order: [String]

    package static let defaultLimit = 50
    package static let maxLimit = 200

    /// The page after `cursor` for `query` (normalised, with the products the caller holds now): a plain function of
    /// the snapshot, the change log's answer and the cursor. Throws `cursorExpired` when the query's filter itself was
    /// redefined (which stickers the view shows changed wholesale: the client starts over from the manifest).
    package static func build(
        from snapshot: CatalogSnapshot, query: ManifestQuery, cursor: ChangeCursor, changes: CatalogChanges,
        limit: Int, linker: AssetLinker
    ) throws(CatalogError) -> ManifestChanges {
        if let filter = query.filter, changes.filters.contains(filter) {
            throw .cursorExpired("The filter '\(filter)' was redefined since this cursor; fetch the manifest again.")
        }
        let required = try Manifest.requiredFlags(snapshot, query)
        // A product gained or lost locks or unlocks its groups: a change in this view.
        let moved = Set(cursor.products).symmetricDifference(query.unlocked)
        var changed = changes.groups
        for group in snapshot.groups where group.productId.map(moved.contains) == true { changed.insert(group.id) }
        // So does a restricted group the caller came into or fell out of (its audience or the caller's facts changed).
        changed.formUnion(Set(cursor.admitted).symmetricDifference(query.admitted))
        // A group the caller neither sees now nor could see at the cursor's point is not named at all, not even as
        // removed: "saw it" is judged from the group as it was then (a public group that became restricted was seen;
        // a restricted group never admitted, since unpublished, was not).
        changed = changed.filter { changes.concerns($0, query, admitted: cursor.admitted, in: snapshot) }
        var ids = changed.sorted()
        if let after = cursor.after { ids.removeAll { $0 <= after } }
        let page = ids.prefix(limit)
        let more = ids.count > limit
        var groups: [ManifestGroup] = []
        var removed: [String] = []
        for id in page {
            if let group = snapshot.group(id: id), query.shows(group),
                let shown = ManifestGroup(
                    group, position: query.position(of: group, in: snapshot), stickers: snapshot.stickers[id] ?? [],
                    required: required, query: query, linker: linker)
            {
                groups.append(shown)
            } else {
                removed.append(id)
            }
        }
        let order = snapshot.groups.filter { group in
            query.shows(group)
                && (snapshot.stickers[group.id] ?? []).contains {
                    isSelected(requiredFlags: required, groupFlags: group.flags, stickerFlags: $0.flags)
                }
        }.map(\.id)
        let next =
            if more, let last = page.last {
                ChangeCursor(
                    since: cursor.since, stamp: cursor.sinceStamp, through: cursor.through ?? snapshot.revision,
                    throughStamp: cursor.through == nil ? snapshot.stamp : cursor.throughStamp, after: last,
                    view: cursor.view, products: cursor.products, admitted: cursor.admitted)
            } else if let through = cursor.through {
                ChangeCursor(revision: through, stamp: cursor.throughStamp ?? 0, query: query)
            } else {
                ChangeCursor(revision: snapshot.revision, stamp: snapshot.stamp, query: query)
            }
        return ManifestChanges(
            revision: snapshot.revision, cursor: next.encoded(with: linker.cursorKey), moreComing: more,
            groups: groups, removedGroups: removed,
            removedStickers: more ? [] : removedStickers(changes, cursor, snapshot),
            order: order)
    }

    /// The stickers deleted since the cursor from groups the caller could see then.
    private static func removedStickers(
        _ changes: CatalogChanges, _ cursor: ChangeCursor, _ snapshot: CatalogSnapshot
    ) -> [String] {
        changes.deletedStickers.filter { _, group in
            changes.sawGroup(group, admitted: cursor.admitted, now: snapshot.group(id: group))
        }.keys.sorted()
    }

    package init(
        revision: Int64, cursor: String, moreComing: Bool, groups: [ManifestGroup], removedGroups: [String],
        removedStickers: [String], order: [String]
    ) {
        self.revision = revision
        self.cursor = cursor
        self.moreComing = moreComing
        self.groups = groups
        self.removedGroups = removedGroups
        self.removedStickers = removedStickers
        self.order = order
    }
}
