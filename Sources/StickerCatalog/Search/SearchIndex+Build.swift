extension SearchIndex {
    /// The index of everything `snapshot` shows: published groups and their stickers, in manifest order.
    init(snapshot: CatalogSnapshot) {
        let locales = snapshot.locales.sorted().prefix(254)
        let localeIds = Dictionary(uniqueKeysWithValues: locales.enumerated().map { ($1, UInt8($0 + 1)) })
        var builder = Builder()
        var members: [Member] = []
        var suggestions = SearchSuggestions.Builder()
        for (groupIndex, group) in snapshot.groups.enumerated() {
            let stickers = snapshot.stickers[group.id] ?? []
            let groupNames = [(group.name, Self.defaultLocale)]
                + group.localizedNames.sorted { $0.key < $1.key }.map { ($1, localeIds[$0] ?? Self.defaultLocale) }
            let groupTerms = groupNames.map { (SearchText.words($0.0, camelCase: true).map { builder.id($0) }, $0.1) }
            for (name, locale) in groupNames { suggestions.add(name, locale: locale, weight: stickers.count) }
            for (stickerIndex, sticker) in stickers.enumerated() {
                let ordinal = UInt32(members.count)
                members.append(Member(group: Int32(groupIndex), sticker: Int32(stickerIndex)))
                let nameWords = SearchText.words(sticker.name, camelCase: true)
                for (index, word) in nameWords.enumerated() {
                    builder.add(word, Posting(ordinal: ordinal, field: index == 0 ? .nameStart : .name, locale: Self.neutralLocale))
                }
                for keyword in sticker.keywords {
                    for word in SearchText.words(keyword) { builder.add(word, Posting(ordinal: ordinal, field: .keyword, locale: Self.neutralLocale)) }
                    suggestions.add(keyword, locale: Self.neutralLocale, weight: 1)
                }
                suggestions.add(sticker.name, locale: Self.neutralLocale, weight: 1)
                for (terms, locale) in groupTerms {
                    for term in terms { builder.add(term, Posting(ordinal: ordinal, field: .groupName, locale: locale)) }
                }
                let descriptions = [(sticker.description, Self.defaultLocale)]
                    + sticker.localizedDescriptions.map { ($1, localeIds[$0] ?? Self.defaultLocale) }
                for (text, locale) in descriptions {
                    for term in builder.terms(of: text) { builder.add(term, Posting(ordinal: ordinal, field: .description, locale: locale)) }
                }
                for emoji in sticker.emoji {
                    for character in emoji where SearchText.isEmoji(character) {
                        builder.emoji[SearchText.normalizedEmoji(character), default: []].append(ordinal)
                    }
                }
            }
        }
        self.snapshot = snapshot
        self.members = members
        self.localeIds = localeIds
        let order = builder.terms.indices.sorted { builder.terms[$0].lexicographicallyPrecedes(builder.terms[$1]) }
        terms = order.map { builder.terms[$0] }
        postings = order.map { builder.postings[$0] }
        emoji = builder.emoji.mapValues { Array(Set($0)).sorted() }
        (typoKeys, typoTerms) = Self.typoIndex(terms)
        (flagBits, flagMasks) = Self.flagMasks(snapshot, members)
        self.suggestions = suggestions.build()
    }

    /// Terms by id and their postings while the index is built; each word looked up once per text, and descriptions'
    /// term ids remembered by text, as many stickers share one.
    private struct Builder {
        var terms: [[UInt8]] = []
        var postings: [[Posting]] = []
        var emoji: [String: [UInt32]] = [:]
        private var ids: [String: Int] = [:]
        private var termsOfText: [String: [Int]] = [:]

        mutating func add(_ term: String, _ posting: Posting) {
            add(id(term), posting)
        }

        mutating func add(_ id: Int, _ posting: Posting) {
            postings[id].appendUnlessRepeated(posting)
        }

        mutating func id(_ term: String) -> Int {
            if let id = ids[term] { return id }
            ids[term] = terms.count
            terms.append(Array(term.utf8))
            postings.append([])
            return terms.count - 1
        }

        /// The term ids of `text`'s words.
        mutating func terms(of text: String) -> [Int] {
            if let known = termsOfText[text] { return known }
            let found = SearchText.words(text).map { id($0) }
            if termsOfText.count < 100_000 { termsOfText[text] = found }
            return found
        }
    }

    private static func typoIndex(_ terms: [[UInt8]]) -> ([UInt64], [UInt32]) {
        var pairs: [(UInt64, UInt32)] = []
        for (id, term) in terms.enumerated() {
            let scalars = Array(String(decoding: term, as: UTF8.self).unicodeScalars)
            guard (typoMinimum - 1...typoMaximum).contains(scalars.count), scalars.contains(where: { $0.properties.isAlphabetic }) else { continue }
            for key in TypoKeys.keys(scalars) { pairs.append((key, UInt32(id))) }
        }
        pairs.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        return (pairs.map(\.0), pairs.map(\.1))
    }

    private static func flagMasks(_ snapshot: CatalogSnapshot, _ members: [Member]) -> ([String: Int], [UInt64]?) {
        let flags = Set(snapshot.groups.flatMap(\.flags) + snapshot.stickers.values.flatMap { $0.flatMap(\.flags) }).sorted()
        guard flags.count <= 64 else { return ([:], nil) }
        let bits = Dictionary(uniqueKeysWithValues: flags.enumerated().map { ($1, $0) })
        func mask(_ list: [String]) -> UInt64 { list.reduce(0) { $0 | 1 << UInt64(bits[$1]!) } }
        let masks = members.map { member -> UInt64 in
            let group = snapshot.groups[Int(member.group)]
            return mask(group.flags) | mask(snapshot.stickers[group.id]![Int(member.sticker)].flags)
        }
        return (bits, masks)
    }
}

extension Array where Element == SearchIndex.Posting {
    /// Appends `posting` unless the last one says the same (a word twice in one text).
    fileprivate mutating func appendUnlessRepeated(_ posting: Element) {
        if let last, last.ordinal == posting.ordinal, last.field == posting.field, last.locale == posting.locale { return }
        append(posting)
    }
}
