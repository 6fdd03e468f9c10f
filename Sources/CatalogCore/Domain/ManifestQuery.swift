import StickerImage

/// The client's view of the catalog: a filter, extra flags, display size, scale, format and language, all validated.
package struct ManifestQuery: Sendable, Hashable {
    package var filter: String?
    /// Extra required flags, sorted and without repeats.
    package var flags: [String]
    /// The size class every group is shown at; nil shows each group at its own.
    package var size: SizeClass?
    /// Display scale, 1 to 3.
    package var scale: Int
    /// PNG (animated or still only) or WebP.
    package var format: PictureFormat
    /// True for `format=png`: still pictures only (an animation's still picture), for clients that cannot animate.
    package var still: Bool { format.still }
    /// A canonical language tag (`pt-BR`).
    package var locale: String?
    /// `sources=all`: each sticker lists its pictures at 1x to 3x in WebP and PNG (`PictureSource`), for web pages.
    package var sources = false
    /// Products the user holds whose groups are unlocked, sorted; empty for anonymous clients.
    package var unlocked: [String] = []
    /// When the signed URLs of unlocked or restricted images expire (Unix seconds); nil when nothing is unlocked and no
    /// restricted group admitted.
    package var signedUntil: Int64?
    /// What the caller stated of itself (`AudienceFacts`), until `normalized(for:)` turns it into `admitted`.
    package var facts: AudienceFacts?
    /// The restricted groups the caller falls in, in catalog order: all that its facts change in an answer, so callers
    /// who see the same groups share one cached body.
    package var admitted: [String] = []

    package static let defaultScale = 3

    package init(
        filter: String? = nil, flags: [String] = [], size: SizeClass? = nil, scale: Int = ManifestQuery.defaultScale,
        format: PictureFormat = .apng, locale: String? = nil
    ) {
        self.filter = filter
        self.flags = Array(Set(flags)).sorted()
        self.size = size
        self.scale = scale
        self.format = format
        self.locale = locale.flatMap(LocaleTag.canonical)
    }

    /// The box edge a group's stickers are fitted in, in pixels.
    package func edge(for group: StickerGroup) -> Int {
        (size ?? group.sizeClass).pixels(scale: scale)
    }

    /// Parses query parameters, refusing any malformed value with `invalidParameter`.
    package init(parameters: [String: String]) throws(CatalogError) {
        var query = ManifestQuery()
        if let filter = parameters["filter"] {
            guard Validate.isSlug(filter) else {
                throw .invalidParameter(name: "filter", rule: "must be a filter name such as chocoholic")
            }
            query.filter = filter
        }
        if let flags = parameters["flags"], !flags.isEmpty {
            let list = flags.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard list.count <= Validate.maxListItems, list.allSatisfy(Validate.isFlag) else {
                throw .invalidParameter(
                    name: "flags",
                    rule: "must be a comma-separated list of at most \(Validate.maxListItems) lowercase flags")
            }
            query.flags = Array(Set(list)).sorted()
        }
        if let size = parameters["size"] {
            guard let value = SizeClass(rawValue: size) else {
                throw .invalidParameter(name: "size", rule: "must be small, medium or large")
            }
            query.size = value
        }
        if let scale = parameters["scale"] {
            guard let value = Int(scale), (1...3).contains(value) else {
                throw .invalidParameter(name: "scale", rule: "must be 1, 2 or 3")
            }
            query.scale = value
        }
        if let format = parameters["format"] {
            guard let value = PictureFormat(rawValue: format) else {
                throw .invalidParameter(
                    name: "format", rule: "must be apng (the default), png (still pictures only) or webp")
            }
            query.format = value
        }
        if let sources = parameters["sources"] {
            guard sources == "all" else { throw .invalidParameter(name: "sources", rule: "must be all") }
            query.sources = true
        }
        if let locale = parameters["locale"] {
            guard let tag = LocaleTag.canonical(locale) else {
                throw .invalidParameter(name: "locale", rule: "must be a language tag such as fr or pt-BR")
            }
            query.locale = tag
        }
        self = query
    }

    /// The same query with its locale resolved against the catalog's locales: the form the manifest cache keys on.
    /// Products that unlock nothing in this catalog are left out, so users who hold none that matter share one body.
    /// Facts are replaced by the restricted groups they admit the caller to.
    package func normalized(for snapshot: CatalogSnapshot) -> ManifestQuery {
        guard locale != nil || !unlocked.isEmpty || facts != nil || signedUntil != nil else { return self }
        var query = self
        query.locale = locale.flatMap { resolvedLocale($0, catalogLocales: snapshot.locales) }
        query.unlocked = unlocked.filter(snapshot.premiumProducts.contains)
        if let facts { query.admitted = snapshot.admitted(facts) }
        query.admitted.removeAll { snapshot.group(id: $0)?.audience == nil }
        query.facts = nil
        if query.unlocked.isEmpty && query.admitted.isEmpty { query.signedUntil = nil }
        return query
    }

    /// The query for a user holding `products` (sorted) and stating `facts`, with image URLs signed until
    /// `signedUntil` (kept only if something is unlocked or admitted once normalised).
    package func unlocking(
        _ products: [String], signedUntil: Int64?, facts: AudienceFacts
    ) -> ManifestQuery {
        var query = self
        query.unlocked = products
        query.signedUntil = signedUntil
        query.facts = facts
        query.admitted = []
        return query
    }

    /// Whether this view shows `group`: any group without an audience, a restricted one only when admitted.
    package func shows(_ group: StickerGroup) -> Bool {
        group.audience == nil || admitted.contains(group.id)
    }

    /// `group`'s place among the groups this view shows in `snapshot`: its stored place when no group is restricted,
    /// else the number of shown groups before it, so that no gap tells an outsider a restricted group is there.
    package func position(of group: StickerGroup, in snapshot: CatalogSnapshot) -> Int {
        guard !snapshot.restricted.isEmpty else { return group.position }
        return snapshot.groups.lazy.prefix { $0.id != group.id }.filter(shows).count
    }

    /// The groups this view shows in `snapshot`, in order, each with its place among them (`position(of:in:)`).
    package func shownGroups(in snapshot: CatalogSnapshot) -> [(group: StickerGroup, position: Int)] {
        guard !snapshot.restricted.isEmpty else { return snapshot.groups.map { ($0, $0.position) } }
        return snapshot.groups.filter(shows).enumerated().map { ($1, $0) }
    }
}
