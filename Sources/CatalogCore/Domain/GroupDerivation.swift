/// What one group adds to its snapshot's free images and locales (`CatalogSnapshot`), with what it was derived from.
struct GroupDerivation: Sendable {
    let contentVersion: Int64?
    let productId: String?
    let restricted: Bool
    let coverStickerId: String?
    /// The group's images anyone may fetch without a signed URL: all of a free group's open to everyone, a premium
    /// group's cover only, none of a restricted group's (served with a signed URL, as a premium group's are).
    let free: [AssetDigest]
    /// The languages its stickers' descriptions are translated to.
    let locales: Set<String>

    init(_ group: StickerGroup, _ members: [Sticker], contentVersion: Int64?) {
        (self.contentVersion, productId, restricted) = (contentVersion, group.productId, group.audience != nil)
        coverStickerId = group.coverStickerId?.apiString
        var locales = Set<String>()
        var free: [AssetDigest] = []
        let cover = group.cover(among: members)?.id
        for sticker in members {
            locales.formUnion(sticker.localizedDescriptions.keys)
            guard !restricted, group.productId == nil || sticker.id == cover else { continue }
            for sha256 in [sticker.asset.sha256] + sticker.renditions.map(\.asset.sha256) {
                if let digest = AssetDigest(hex: Substring(sha256)) { free.append(digest) }
            }
        }
        (self.free, self.locales) = (free, locales)
    }

    /// Whether this derivation holds for `group` as it is now, its stickers unchanged (the same content version).
    func covers(_ group: StickerGroup) -> Bool {
        productId == group.productId && restricted == (group.audience != nil)
            && coverStickerId == group.coverStickerId?.apiString
    }
}
