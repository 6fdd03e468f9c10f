import CatalogCore

/// Completions for a search box: keywords, sticker names and group names (in every locale) that begin with what was
/// typed, folded like every search text.
package struct SearchSuggestions: Sendable {
    package struct Phrase: Sendable {
        package let key: [UInt8]
        package let text: String
        package let locale: UInt8
        /// Stickers it names: the more, the higher it ranks.
        package let weight: Int
    }

    package static let limit = 10
    /// Phrases by folded key, in byte order.
    package let phrases: [Phrase]
    /// Catalog locales by id, as phrases number them.
    package let localeIds: [String: UInt8]

    /// The phrases of everything `snapshot` shows everyone: its keywords, sticker names, and group names in every
    /// locale. A restricted group's are left out: suggestions are shared by every caller, and would name it to those
    /// outside its audience.
    package init(snapshot: CatalogSnapshot) {
        let localeIds = Dictionary(
            uniqueKeysWithValues: snapshot.locales.sorted().prefix(254).enumerated().map { ($1, UInt8($0 + 1)) })
        var builder = Builder()
        for group in snapshot.groups where group.audience == nil {
            let stickers = snapshot.stickers[group.id] ?? []
            builder.add(group.name, locale: SearchIndex.defaultLocale, weight: stickers.count)
            for (tag, name) in group.localizedNames {
                builder.add(name, locale: localeIds[tag] ?? SearchIndex.defaultLocale, weight: stickers.count)
            }
            for sticker in stickers {
                builder.add(sticker.name, locale: SearchIndex.neutralLocale, weight: 1)
                for keyword in sticker.keywords { builder.add(keyword, locale: SearchIndex.neutralLocale, weight: 1) }
            }
        }
        phrases = builder.build()
        self.localeIds = localeIds
    }

    /// Up to `limit` phrases beginning with `prefix` (folded): those in `locale` (resolved against the catalog; or in
    /// none) first, then the most used, then alphabetically; one per folded text.
    package func complete(_ prefix: String, locale: String?) -> [String] {
        let asked = locale.flatMap { localeIds[$0] } ?? SearchIndex.defaultLocale
        let bytes = Array(SearchText.folded(prefix).utf8)
        // A prefix that folds to nothing (a lone combining mark) would walk every phrase: nothing begins with it.
        guard !bytes.isEmpty else { return [] }
        let low = phrases.insertionPoint { $0.key.lexicographicallyPrecedes(bytes) }
        func otherLocale(_ phrase: Phrase) -> Bool {
            phrase.locale != SearchIndex.neutralLocale && phrase.locale != asked
        }
        func precedes(_ a: Phrase, _ b: Phrase) -> Bool {
            if otherLocale(a) != otherLocale(b) { return !otherLocale(a) }
            if a.weight != b.weight { return a.weight > b.weight }
            return a.key.lexicographicallyPrecedes(b.key)
        }
        // The best `limit` kept as the range is read, so a one-letter prefix costs a pass, not a sort.
        var best: [Phrase] = []
        var index = low
        while index < phrases.count, phrases[index].key.starts(with: bytes) {
            let phrase = phrases[index]
            index += 1
            if let same = best.firstIndex(where: { $0.key == phrase.key }) {
                guard precedes(phrase, best[same]) else { continue }
                best.remove(at: same)
            } else if best.count == Self.limit {
                guard precedes(phrase, best[Self.limit - 1]) else { continue }
                best.removeLast()
            }
            best.insert(phrase, at: best.firstIndex { precedes(phrase, $0) } ?? best.count)
        }
        return best.map(\.text)
    }

    package var bytes: Int { phrases.reduce(0) { $0 + $1.key.count + $1.text.utf8.count + 96 } }

    /// Phrases gathered from a snapshot, counted by folded text and locale.
    private struct Builder {
        private var phrases: [PhraseKey: (text: String, weight: Int)] = [:]

        private struct PhraseKey: Hashable {
            package let key: String
            package let locale: UInt8
        }

        package mutating func add(_ text: String, locale: UInt8, weight: Int) {
            guard weight > 0, !text.isEmpty else { return }
            phrases[PhraseKey(key: SearchText.folded(text), locale: locale), default: (text, 0)].weight += weight
        }

        package func build() -> [Phrase] {
            let list = phrases.map {
                Phrase(key: Array($0.key.key.utf8), text: $0.value.text, locale: $0.key.locale, weight: $0.value.weight)
            }
            return list.sorted { a, b in a.key == b.key ? a.locale < b.locale : a.key.lexicographicallyPrecedes(b.key) }
        }
    }
}
