/// One page of search results as clients get them, best first.
struct SearchPage: Encodable, Sendable {
    var revision: Int64
    /// The query as asked, trimmed.
    var query: String
    /// The catalog locale the request resolved to, as in the manifest.
    var locale: String?
    /// Results on every page.
    var total: Int
    var results: [SearchResult]
    /// The cursor of the next page; null on the last.
    var next: String?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(revision, forKey: .revision)
        try c.encode(query, forKey: .query)
        try c.encode(locale, forKey: .locale)
        try c.encode(total, forKey: .total)
        try c.encode(results, forKey: .results)
        try c.encode(next, forKey: .next)
    }

    private enum CodingKeys: CodingKey { case revision, query, locale, total, results, next }
}

/// A sticker found, in the asked locale, with its group; its pictures exactly as the manifest gives them, or none when
/// it is locked (a premium group the caller does not hold: `productId` says what to buy).
struct SearchResult: Encodable, Sendable {
    struct Group: Encodable, Sendable {
        var id: String
        var name: String
    }

    var id: String
    var name: String
    var description: String
    var keywords: [String]
    var emoji: [String]
    var flags: [String]
    var group: Group
    var locked: Bool
    var productId: String?
    var animated: Bool
    var asset: AssetLink?
    var thumbnail: AssetLink?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encode(keywords, forKey: .keywords)
        try c.encode(emoji, forKey: .emoji)
        try c.encode(flags, forKey: .flags)
        try c.encode(group, forKey: .group)
        try c.encode(locked, forKey: .locked)
        try c.encode(productId, forKey: .productId)
        try c.encode(animated, forKey: .animated)
        try c.encodeIfPresent(asset, forKey: .asset)
        try c.encodeIfPresent(thumbnail, forKey: .thumbnail)
    }

    private enum CodingKeys: CodingKey { case id, name, description, keywords, emoji, flags, group, locked, productId, animated, asset, thumbnail }
}

extension SearchPage {
    /// The page `request` asks for from `index`; its view normalised for the index's snapshot (locale resolved, products
    /// cut to those that unlock something). Throws `unknownFilter` as the manifest does.
    static func build(_ request: SearchRequest, index: SearchIndex, linker: AssetLinker) throws(CatalogError) -> SearchPage {
        let view = request.view
        let required = try Manifest.requiredFlags(index.snapshot, view)
        let matches = index.matches(request.terms, required: required, locale: view.locale)
        let page = matches.dropFirst(request.offset).prefix(request.limit)
        let results = page.map { ordinal in
            let (group, sticker) = index.member(ordinal)
            let locked = group.productId.map { !view.unlocked.contains($0) } ?? false
            let shown = ManifestSticker(sticker, edge: view.edge(for: group), query: view, linker: linker,
                                        signedUntil: group.productId == nil ? nil : view.signedUntil)
            return SearchResult(
                id: shown.id, name: shown.name, description: shown.description, keywords: shown.keywords, emoji: shown.emoji,
                flags: shown.flags, group: .init(id: group.id, name: localized(group.localizedNames, locale: view.locale, fallback: group.name)),
                locked: locked, productId: group.productId, animated: shown.animated,
                asset: locked ? nil : shown.asset, thumbnail: locked ? nil : shown.thumbnail)
        }
        let end = request.offset + results.count
        return SearchPage(revision: index.snapshot.revision, query: request.text, locale: view.locale, total: matches.count, results: results,
                          next: end < matches.count && !results.isEmpty ? SearchCursor.encode(offset: end) : nil)
    }
}
