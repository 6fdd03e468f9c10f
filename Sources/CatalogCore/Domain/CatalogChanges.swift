/// What the change log says changed between two revisions: groups (their own fields or their stickers), stickers
/// deleted, filters redefined; and what a client at the first revision could have seen of them, so that a page names
/// nothing to a caller who never saw it (audiences).
package struct CatalogChanges: Sendable, Equatable {
    package var groups: Set<String> = []
    /// Each sticker deleted since, with the group it was shown in at the first revision; a sticker no client could
    /// have had then (not yet made, or hidden) is not here.
    package var deletedStickers: [String: String] = [:]
    package var filters: Set<String> = []
    /// Of `groups` and the deleted stickers' groups, those published to everyone (no audience) at the first revision.
    /// One missing was unpublished, not yet made or restricted then: only a cursor that admitted it saw it.
    package var openBefore: Set<String> = []

    package init() {}

    /// Whether a caller at the first revision, admitted then to the restricted groups `admitted`, could see group
    /// `id`: it was open to everyone then, or restricted and admitting that caller. A group the log did not name is
    /// as it was then, so `now` (its state in the current snapshot, nil when it is not published) answers for it.
    package func sawGroup(_ id: String, admitted: [String], now: StickerGroup?) -> Bool {
        if admitted.contains(id) { return true }
        return groups.contains(id) ? openBefore.contains(id) : now.map { $0.audience == nil } ?? false
    }

    /// Whether a change to group `id` concerns a caller viewing `query` now, whose cursor admitted it to `admitted`:
    /// it shows the group now, or could see it at the cursor. Anything else is never named to it.
    package func concerns(
        _ id: String, _ query: ManifestQuery, admitted: [String], in snapshot: CatalogSnapshot
    ) -> Bool {
        let now = snapshot.group(id: id)
        return now.map(query.shows) == true || sawGroup(id, admitted: admitted, now: now)
    }
}
