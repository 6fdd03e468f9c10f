import CatalogCore

/// What search looks words up in: every term of one catalog snapshot (names, descriptions and keywords in every
/// locale, folded), each with the stickers it appears in and where; emoji apart; a deletion index for typos.
/// A plain value, shared by every request. A new revision patches it (`patched(to:)`): the groups whose texts and
/// stickers are unchanged keep their postings, the others are taken out and indexed again, so a one-sticker change to
/// a 100,000-sticker catalog costs one group's work and a pass over the catalog's order, not a rebuild.
/// Stickers are numbered by slot, stable while the index is patched; `order` and `slots` map slots to manifest order.
package struct SearchIndex: Sendable {
    /// Where a term appears in a sticker: decides its rank (`SearchIndex.rank`).
    package enum Field: UInt8, Sendable {
        case keyword, nameStart, name, groupName, description
    }

    /// One appearance of a term: the sticker's slot, the field and the text's locale.
    package struct Posting: Sendable {
        package let slot: UInt32
        package let field: Field
        /// `SearchIndex.defaultLocale` for default texts, `neutralLocale` for names and keywords, else a catalog
        /// locale.
        package let locale: UInt8
    }

    /// A sticker by its group's place in the snapshot and its own place in the group; a slot no longer used has none.
    package struct Member: Sendable {
        package static let unused = Member(group: -1, sticker: -1)
        package let group: Int32
        package let sticker: Int32
    }

    /// What one group put in the index, so a later revision can keep it or take it out.
    package struct GroupEntry: Sendable {
        package let name: String
        package let localizedNames: [String: String]
        /// The group's stickers' version as stored (`CatalogSnapshot.contentVersions`); nil is never taken as
        /// unchanged.
        package let version: Int64?
        package let slots: Range<UInt32>
        package let terms: [Int32]
        package let emoji: [String]
    }

    package static let defaultLocale: UInt8 = 0
    package static let neutralLocale: UInt8 = 255
    /// Words this long and longer may be misspelt by one edit (the terms they can match are one shorter).
    package static let typoMinimum = 5
    package static let typoMaximum = 32
    /// The terms one word's prefix may match: with `SearchRequest.maxTerms` words, a query visits at most eight times
    /// this many terms (and their postings).
    package static let maxPrefixTerms = 2_000

    package var snapshot: CatalogSnapshot
    package var groups: [String: GroupEntry] = [:]
    /// By slot: the sticker, its place in manifest order (`.max` when unused), its flags and its group's as bits (when
    /// the catalog has at most 63 flags).
    package var members: [Member] = []
    package var order: [UInt32] = []
    package var flagMasks: [UInt64]?
    package var flagBits: [String: Int] = [:]
    /// Every visible sticker's slot, in manifest order.
    package var slots: [UInt32] = []
    /// Folded terms by id, each id's postings, and the ids in byte order (for prefixes).
    package var terms: [[UInt8]] = []
    package var termIds: [[UInt8]: Int32] = [:]
    package var postings: [[Posting]] = []
    package var sortedTerms: [Int32] = []
    /// Normalised emoji and the slots of the stickers tagged with each.
    package var emoji: [String: [UInt32]] = [:]
    /// Hashes of each term of `typoMinimum - 1` letters or more and of each of its one-letter deletions, sorted, beside
    /// the term each came from: two words one edit apart share one (Garbe's symmetric deletion).
    package var typoKeys: [UInt64] = []
    package var typoTerms: [Int32] = []
    /// Catalog locales by id (1-254), never renumbered while the index is patched.
    package var localeIds: [String: UInt8] = [:]

    /// The locale id whose texts rank first for a query in `locale` (resolved against the catalog).
    package func localeId(_ locale: String?) -> UInt8 {
        locale.flatMap { localeIds[$0] } ?? Self.defaultLocale
    }

    /// The sticker in `slot` and its group.
    package func member(_ slot: UInt32) -> (group: StickerGroup, sticker: Sticker) {
        let member = members[Int(slot)]
        let group = snapshot.groups[Int(member.group)]
        return (group, snapshot.stickers[group.id]![Int(member.sticker)])
    }

    /// Whether the sticker in `slot` carries every flag in `required` (its own or its group's).
    /// The numbers of the restricted groups `view` (normalised) is not admitted to: what search leaves out for it.
    package func hiddenGroups(from view: ManifestQuery) -> [Int32] {
        guard !snapshot.restricted.isEmpty else { return [] }
        return snapshot.groups.indices.compactMap { index in
            view.shows(snapshot.groups[index]) ? nil : Int32(index)
        }
    }

    package func isSelected(_ slot: UInt32, required: Set<String>, mask: UInt64?) -> Bool {
        if let mask, let flagMasks { return flagMasks[Int(slot)] & mask == mask }
        let (group, sticker) = member(slot)
        return CatalogCore.isSelected(requiredFlags: required, groupFlags: group.flags, stickerFlags: sticker.flags)
    }

    /// The mask of `required`, nil when some flag has no bit (then `isSelected` reads the stickers themselves) and
    /// `.max` when a flag is on no sticker at all.
    package func mask(of required: Set<String>) -> UInt64? {
        guard flagMasks != nil else { return nil }
        var mask: UInt64 = 0
        for flag in required {
            guard let bit = flagBits[flag] else { return .max }
            mask |= 1 << UInt64(bit)
        }
        return mask
    }

    /// An estimate of the memory the index holds (arrays' elements and headers), for the metric and the benchmark.
    package var bytes: Int {
        let header = 32
        let termBytes = terms.reduce(terms.count * 8) { $0 + 2 * $1.count + 2 * header + 8 }
        let postingBytes = postings.reduce(postings.count * 8) { $0 + $1.count * MemoryLayout<Posting>.stride + header }
        let emojiBytes = emoji.reduce(0) { $0 + $1.key.utf8.count + $1.value.count * 4 + 2 * header }
        return termBytes + postingBytes + emojiBytes + typoKeys.count * 12 + members.count * 20 + sortedTerms.count * 4
            + groups.count * 160
    }
}
