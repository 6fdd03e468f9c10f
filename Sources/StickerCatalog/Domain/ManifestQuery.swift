import StickerImage

/// The client's view of the catalog: a filter, extra flags, display size and language, all validated.
public struct ManifestQuery: Sendable, Hashable {
    public var filter: String?
    /// Extra required flags, sorted and without repeats.
    public var flags: [String]
    public var size: SizeClass?
    public var scale: Int?
    /// A canonical language tag (`pt-BR`).
    public var locale: String?

    public init(filter: String? = nil, flags: [String] = [], size: SizeClass? = nil, scale: Int? = nil, locale: String? = nil) {
        self.filter = filter
        self.flags = Array(Set(flags)).sorted()
        self.size = size
        self.scale = scale
        self.locale = locale.flatMap(LocaleTag.canonical)
    }

    /// Parses query parameters, refusing any malformed value with `invalidParameter`.
    public init(parameters: [String: String]) throws(CatalogError) {
        var query = ManifestQuery()
        if let filter = parameters["filter"] {
            guard Validate.isSlug(filter) else { throw .invalidParameter(name: "filter", rule: "must be a filter name such as chocoholic") }
            query.filter = filter
        }
        if let flags = parameters["flags"], !flags.isEmpty {
            let list = flags.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard list.count <= Validate.maxListItems, list.allSatisfy(Validate.isFlag) else {
                throw .invalidParameter(name: "flags", rule: "must be a comma-separated list of at most \(Validate.maxListItems) lowercase flags")
            }
            query.flags = Array(Set(list)).sorted()
        }
        if let size = parameters["size"] {
            guard let value = SizeClass(rawValue: size) else { throw .invalidParameter(name: "size", rule: "must be small, medium or large") }
            query.size = value
        }
        if let scale = parameters["scale"] {
            guard let value = Int(scale), (1...3).contains(value) else { throw .invalidParameter(name: "scale", rule: "must be 1, 2 or 3") }
            query.scale = value
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
    public func normalized(for snapshot: CatalogSnapshot) -> ManifestQuery {
        guard locale != nil else { return self }
        var query = self
        query.locale = resolvedLocale(locale, catalogLocales: snapshot.locales)
        return query
    }
}
