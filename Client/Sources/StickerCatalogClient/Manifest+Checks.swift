import StickerCatalogAPI

// What the client believes of a manifest or a change page, checked before anything is kept: a service (or what sits
// in front of it) that lies about ids could otherwise make 100,000 groups out of a 400 KB page, a catalog.json of
// 100 MB decoded at every launch, and lists a SwiftUI view cannot tell apart.

extension ManifestChanges {
    /// The most groups, or removed groups, one page lists: the feed's largest `limit` (`openapi.yaml` states both).
    static let largestPage = 200

    /// Refuses a page that lists more than a page may, names a group twice (in its order, its groups, its removed
    /// groups, or a group already sent on an earlier page of this catch-up: `sent`, to which this page's are added),
    /// or lists a sticker twice in a group.
    func check(sent: inout Set<String>) throws {
        guard groups.count <= Self.largestPage, removedGroups.count <= Self.largestPage else {
            throw StickerClientError.invalidAnswer(
                "a change page of \(groups.count) groups and \(removedGroups.count) removed, past \(Self.largestPage)")
        }
        try Manifest.unique(order, "a group in a change page's order")
        for id in groups.map(\.id) + removedGroups {
            guard sent.insert(id).inserted else {
                throw StickerClientError.invalidAnswer("a group sent twice in the change feed: \(id.prefix(64))")
            }
        }
        for group in groups {
            try Manifest.unique(group.stickers.map(\.id), "a sticker in group \(group.id.prefix(64))")
        }
    }
}

extension Manifest {
    /// Refuses a manifest that names a group twice, or a sticker twice (a sticker belongs to one group).
    func check() throws {
        try Self.unique(groups.map(\.id), "a group in a manifest")
        try Self.unique(groups.flatMap { $0.stickers.map(\.id) }, "a sticker in a manifest")
    }

    /// Throws `invalidAnswer` naming `what` when `ids` holds one twice.
    static func unique(_ ids: [String], _ what: String) throws {
        var seen = Set<String>(minimumCapacity: ids.count)
        for id in ids where !seen.insert(id).inserted {
            throw StickerClientError.invalidAnswer("\(what) twice: \(id.prefix(64))")
        }
    }
}
