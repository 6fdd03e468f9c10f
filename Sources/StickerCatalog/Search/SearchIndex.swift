/// What search looks words up in: every term of one catalog snapshot (names, descriptions and keywords in every
/// locale, folded), each with the stickers it appears in and where; emoji apart; a deletion index for typos; and the
/// phrases suggestions complete. Built once per revision from the snapshot (`SearchIndex.init(snapshot:)`), then only
/// read: a plain value, shared by every request.
struct SearchIndex: Sendable {
    /// Where a term appears in a sticker: decides its rank (`SearchIndex.rank`).
    enum Field: UInt8, Sendable {
        case keyword, nameStart, name, groupName, description
    }

    /// One appearance of a term: the sticker (its place in manifest order), the field and the text's locale.
    struct Posting: Sendable {
        let ordinal: UInt32
        let field: Field
        /// `SearchIndex.defaultLocale` for default texts, `neutralLocale` for names and keywords, else a catalog locale.
        let locale: UInt8
    }

    /// A sticker by its group's place in the snapshot and its own place in the group.
    struct Member: Sendable {
        let group: Int32
        let sticker: Int32
    }

    static let defaultLocale: UInt8 = 0
    static let neutralLocale: UInt8 = 255
    /// Words this long and longer may be misspelt by one edit (the terms they can match are one shorter).
    static let typoMinimum = 5
    static let typoMaximum = 32

    let snapshot: CatalogSnapshot
    /// Every visible sticker in manifest order: an ordinal indexes this.
    let members: [Member]
    /// Folded terms in byte order (for prefixes), and each one's postings in ordinal order.
    let terms: [[UInt8]]
    let postings: [[Posting]]
    /// Normalised emoji and the stickers tagged with each, in ordinal order.
    let emoji: [String: [UInt32]]
    /// Hashes of each term of `typoMinimum - 1` letters or more and of each of its one-letter deletions, sorted, beside
    /// the term each came from: two words one edit apart share one (Garbe's symmetric deletion).
    let typoKeys: [UInt64]
    let typoTerms: [UInt32]
    /// Catalog locales by id (1-254).
    let localeIds: [String: UInt8]
    /// Each sticker's flags and its group's, as bits of `flagBits`, when the catalog has at most 64 flags.
    let flagBits: [String: Int]
    let flagMasks: [UInt64]?
    let suggestions: SearchSuggestions

    /// The locale id whose texts rank first for a query in `locale` (resolved against the catalog).
    func localeId(_ locale: String?) -> UInt8 {
        locale.flatMap { localeIds[$0] } ?? Self.defaultLocale
    }

    /// The sticker at `ordinal` and its group.
    func member(_ ordinal: UInt32) -> (group: StickerGroup, sticker: Sticker) {
        let member = members[Int(ordinal)]
        let group = snapshot.groups[Int(member.group)]
        return (group, snapshot.stickers[group.id]![Int(member.sticker)])
    }

    /// Whether the sticker at `ordinal` carries every flag in `required` (its own or its group's).
    func isSelected(_ ordinal: UInt32, required: Set<String>, mask: UInt64?) -> Bool {
        if let mask, let flagMasks { return flagMasks[Int(ordinal)] & mask == mask }
        let (group, sticker) = member(ordinal)
        return StickerCatalog.isSelected(requiredFlags: required, groupFlags: group.flags, stickerFlags: sticker.flags)
    }

    /// The mask of `required`, nil when some flag has no bit (then `isSelected` reads the stickers themselves) and
    /// `.max` when a flag is on no sticker at all.
    func mask(of required: Set<String>) -> UInt64? {
        guard flagMasks != nil else { return nil }
        var mask: UInt64 = 0
        for flag in required {
            guard let bit = flagBits[flag] else { return .max }
            mask |= 1 << UInt64(bit)
        }
        return mask
    }

    /// An estimate of the memory the index holds (arrays' elements and headers), for the metric and the benchmark.
    var bytes: Int {
        let header = 32
        let termBytes = terms.reduce(terms.count * 8) { $0 + $1.count + header }
        let postingBytes = postings.reduce(postings.count * 8) { $0 + $1.count * MemoryLayout<Posting>.stride + header }
        let emojiBytes = emoji.reduce(0) { $0 + $1.key.utf8.count + $1.value.count * 4 + 2 * header }
        return termBytes + postingBytes + emojiBytes + typoKeys.count * 12 + members.count * 8 + (flagMasks?.count ?? 0) * 8
            + suggestions.bytes
    }
}
