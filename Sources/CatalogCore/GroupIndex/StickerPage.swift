/// Which stickers of a group `GET /v1/groups/{id}` answers: `limit` of them from the cursor on (from the first when
/// there is none), so that a 10,000-sticker group costs what a page costs.
package struct StickerPage: Sendable, Hashable {
    package var limit: Int
    package var cursor: GroupCursor?

    package static let defaultLimit = 500
    package static let maxLimit = 500
    /// The page a request without `limit` or `cursor` gets: all of a group of up to 500 stickers, byte for byte the
    /// group as the manifest lists it.
    package static let first = StickerPage(limit: defaultLimit)

    package init(limit: Int = StickerPage.defaultLimit, cursor: GroupCursor? = nil) {
        (self.limit, self.cursor) = (limit, cursor)
    }

    /// Parses `limit` and `cursor` (`invalidParameter`, `cursorExpired` for a cursor that does not verify).
    package init(parameters: [String: String], key: CursorKey) throws(CatalogError) {
        self.init()
        let page = try GroupCursor.page(parameters, kind: GroupCursor.stickers, maxLimit: Self.maxLimit, key: key)
        (limit, cursor) = (page.limit ?? limit, page.cursor)
    }

    /// What the page adds to its group's `GroupVersion`: nothing for the first page.
    package var versionPart: String? {
        self == .first ? nil : "\(limit)/\(cursor.map { "\($0.revision)/\($0.index)/\($0.after)" } ?? "")"
    }

    /// The places of `stickers` this page shows, and the cursor of the next page when more follow. The cursor is made
    /// only of what the group's version digests (its content version, a place, the sticker there), so that a page's
    /// bytes never change while its version stays. Within a group changed since the cursor was made, the page starts
    /// after the sticker the cursor names, or at its place when that sticker is gone.
    package func range(
        of stickers: [Sticker], contentVersion: Int64?
    ) -> (range: Range<Int>, next: GroupCursor?) {
        var start = 0
        if let cursor {
            let after = cursor.after
            if stickers.indices.contains(cursor.index), stickers[cursor.index].id.apiString == after {
                start = cursor.index + 1
            } else {
                start =
                    stickers.firstIndex { $0.id.apiString == after }.map { $0 + 1 }
                    ?? min(cursor.index + 1, stickers.count)
            }
        }
        let end = min(start + limit, stickers.count)
        guard end < stickers.count, end > start else { return (start..<end, nil) }
        let next = GroupCursor(
            kind: GroupCursor.stickers, revision: contentVersion ?? 0, stamp: 0, index: end - 1,
            after: stickers[end - 1].id.apiString)
        return (start..<end, next)
    }
}

/// A page of a group as `GET /v1/groups/{id}` answers it: the group in the manifest's shape and, when more stickers
/// follow, the cursor of the next page (absent otherwise, so a group of up to 500 stickers is byte for byte the group
/// the manifest lists).
package struct ManifestGroupPage: Encodable, Sendable {
    package let group: ManifestGroup
    package let next: String?

    private enum CodingKeys: String, CodingKey { case next }

    package init(group: ManifestGroup, next: String?) {
        (self.group, self.next) = (group, next)
    }

    package func encode(to encoder: any Encoder) throws {
        try group.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(next, forKey: .next)
    }
}
