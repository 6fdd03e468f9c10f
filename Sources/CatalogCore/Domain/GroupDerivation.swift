/// What one group adds to its snapshot's locales, with what its share of the free images depends on: the snapshot keeps
/// this, not the digests (a million at 100,000 stickers), which it derives again from the previous snapshot's stickers
/// for the groups that changed.
struct GroupDerivation: Sendable {
    let contentVersion: Int64?
    let productId: String?
    let restricted: Bool
    let coverStickerId: String?
    /// The languages its stickers' descriptions are translated to.
    let locales: Set<String>

    init(_ group: StickerGroup, _ members: [Sticker], contentVersion: Int64?) {
        (self.contentVersion, productId, restricted) = (contentVersion, group.productId, group.audience != nil)
        coverStickerId = group.coverStickerId?.apiString
        var locales = Set<String>()
        for sticker in members { locales.formUnion(sticker.localizedDescriptions.keys) }
        self.locales = locales
    }

    /// The group's images anyone may fetch without a signed URL: all of a free group's open to everyone, a premium
    /// group's cover only, none of a restricted group's (served with a signed URL, as a premium group's are).
    static func free(_ group: StickerGroup, _ members: [Sticker]) -> [AssetDigest] {
        guard group.audience == nil else { return [] }
        var free: [AssetDigest] = []
        let cover = group.cover(among: members)?.id
        for sticker in members where group.productId == nil || sticker.id == cover {
            for sha256 in [sticker.asset.sha256] + sticker.renditions.map(\.asset.sha256) {
                if let digest = AssetDigest(hex: Substring(sha256)) { free.append(digest) }
            }
        }
        return free
    }

    /// Whether this derivation holds for `group` as it is now, its stickers unchanged (the same content version).
    func covers(_ group: StickerGroup) -> Bool {
        productId == group.productId && restricted == (group.audience != nil)
            && coverStickerId == group.coverStickerId?.apiString
    }
}
