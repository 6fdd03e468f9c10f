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
            let groupWords = groupNames.map { (SearchText.words($0.0, camelCase: true), $0.1) }
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
                for (words, locale) in groupWords {
                    for word in words { builder.add(word, Posting(ordinal: ordinal, field: .groupName, locale: locale)) }
                }
                let descriptions = [(sticker.description, Self.defaultLocale)]
                    + sticker.localizedDescriptions.map { ($1, localeIds[$0] ?? Self.defaultLocale) }
                for (text, locale) in descriptions {
                    for word in builder.words(of: text) { builder.add(word, Posting(ordinal: ordinal, field: .description, locale: locale)) }
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
        let sorted = builder.postings.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        terms = sorted.map { Array($0.utf8) }
        postings = sorted.map { builder.postings[$0]! }
        emoji = builder.emoji.mapValues { Array(Set($0)).sorted() }
        (typoKeys, typoTerms) = Self.typoIndex(terms)
        (flagBits, flagMasks) = Self.flagMasks(snapshot, members)
        self.suggestions = suggestions.build()
    }

    /// Postings by term while the index is built; descriptions' words remembered by text, as many stickers share one.
    private struct Builder {
        var postings: [String: [Posting]] = [:]
        var emoji: [String: [UInt32]] = [:]
        private var wordsOfText: [String: [String]] = [:]

        mutating func add(_ term: String, _ posting: Posting) {
            postings[term, default: []].appendUnlessRepeated(posting)
        }

        mutating func words(of text: String) -> [String] {
            if let words = wordsOfText[text] { return words }
            let words = SearchText.words(text)
            if wordsOfText.count < 100_000 { wordsOfText[text] = words }
            return words
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
