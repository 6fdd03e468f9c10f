/// Everything clients can see at one catalog revision: published groups in order, their stickers in order, filters.
package struct CatalogSnapshot: Sendable {
    package let revision: Int64
    /// The random stamp the database gave `revision` when it was raised: the same number raised again after a rewind
    /// is stamped anew, so (revision, stamp) names one point of one history (cursors carry it).
    package var stamp: Int64 = 0
    /// The reader's epoch (`CatalogRevision.epoch`) when this was read: snapshots of one epoch are of one history, and
    /// only those may be patched from one another.
    package var epoch = 0

    /// One point of one history: what caches of a snapshot's derivatives are keyed by.
    package struct Point: Hashable, Sendable {
        package let epoch: Int
        package let revision: Int64
        package let stamp: Int64

        /// Whether `self` is of a later history than `other`, or later in the same one.
        package func isAfter(_ other: Point) -> Bool {
            epoch != other.epoch ? epoch > other.epoch : revision > other.revision
        }
    }

    package var point: Point { Point(epoch: epoch, revision: revision, stamp: stamp) }
    /// Published groups by position, then name.
    package let groups: [StickerGroup]
    /// Stickers of each group by position.
    package let stickers: [String: [Sticker]]
    package let filters: [String: StickerFilter]
    /// Every language tag some group name or sticker description is translated to.
    package let locales: Set<String>
    /// Product ids that unlock some published group.
    package let premiumProducts: Set<String>
    /// Images anyone may fetch without a signed URL: those a published free group shows, and published premium groups'
    /// covers (everyone sees those). Every other image is premium until shown free, so a premium group unpublished or a
    /// premium sticker deleted (its bytes kept for gc) fails closed instead of becoming public and cacheable for a
    /// year. Kept as digests, not strings: an image request asks on every request, and four words hash faster than 64
    /// digits.
    package let freeAssets: DigestCounts
    /// Each group's stickers' version as stored: a snapshot read later reuses the stickers of groups whose version it
    /// finds unchanged.
    package let contentVersions: [String: Int64]
    /// Visible stickers in all.
    package let stickerCount: Int
    /// Each group's row as the store read it, in the store's own terms (PostgreSQL's `xmin`): a snapshot read later
    /// decodes again only the groups whose row changed. Empty when the store keeps none.
    package var rowVersions: [String: String] = [:]
    /// What each group adds to `locales` and what its share of `freeAssets` rests on, kept so that a snapshot read after
    /// a change derives both again for the changed groups only: at 100,000 stickers, parsing every image digest of
    /// every group again took 750 ms.
    private let derived: [String: GroupDerivation]
    /// Published groups with an audience, in order: only callers who fall in one see it (`admitted(_:)`).
    package let restricted: [StickerGroup]
    private let groupIndex: [String: Int]

    /// `previous`: a snapshot of the same history whose derivations are reused for each group whose content version
    /// (and lock, audience and cover) it finds unchanged; snapshots made without content versions reuse nothing.
    package init(
        revision: Int64, groups: [StickerGroup], stickers: [String: [Sticker]], filters: [String: StickerFilter],
        contentVersions: [String: Int64] = [:], reusing previous: CatalogSnapshot? = nil
    ) {
        self.revision = revision
        self.contentVersions = contentVersions
        self.groups = groups
        self.stickers = stickers
        self.filters = filters
        var derived: [String: GroupDerivation] = [:]
        derived.reserveCapacity(groups.count)
        var locales = Set(groups.flatMap { Array($0.localizedNames.keys) + $0.localizedDescriptions.keys })
        // From the previous snapshot's images: those of groups gone or derived again are taken out, new ones added.
        var free = previous?.freeAssets ?? DigestCounts()
        var count = 0
        for group in groups {
            let members = stickers[group.id] ?? []
            count += members.count
            let kept = previous?.derived[group.id].flatMap { kept in
                contentVersions[group.id].map { $0 == kept.contentVersion && kept.covers(group) } == true ? kept : nil
            }
            let derivation = kept ?? GroupDerivation(group, members, contentVersion: contentVersions[group.id])
            if kept == nil {
                if let previous, let replaced = previous.group(id: group.id) {
                    free.remove(GroupDerivation.free(replaced, previous.stickers[group.id] ?? []))
                }
                free.add(GroupDerivation.free(group, members))
            }
            derived[group.id] = derivation
            locales.formUnion(derivation.locales)
        }
        for gone in previous?.groups ?? [] where derived[gone.id] == nil {
            free.remove(GroupDerivation.free(gone, previous?.stickers[gone.id] ?? []))
        }
        stickerCount = count
        self.derived = derived
        self.locales = locales
        self.premiumProducts = Set(groups.compactMap(\.productId))
        self.freeAssets = free
        self.restricted = groups.filter { $0.audience != nil }
        self.groupIndex = Dictionary(groups.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The restricted groups a caller stating `facts` falls in, in order: the signature its answers are cached by.
    package func admitted(_ facts: AudienceFacts) -> [String] {
        guard !restricted.isEmpty else { return [] }
        return restricted.compactMap { group in
            group.audience?.includes(facts, salt: group.audienceSalt) == true ? group.id : nil
        }
    }

    /// The published group `id`, if there is one.
    package func group(id: String) -> StickerGroup? {
        groupIndex[id].map { groups[$0] }
    }
}

extension StickerGroup {
    /// The sticker that stands for the group: the chosen cover, else the first.
    package func cover(among stickers: [Sticker]) -> Sticker? {
        stickers.first { $0.id == coverStickerId } ?? stickers.first
    }
}
