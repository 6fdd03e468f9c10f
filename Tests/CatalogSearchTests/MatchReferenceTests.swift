import CatalogCore
import CatalogSearch
import Foundation
import Testing

/// `SearchIndex.matches` is written for speed (raw buffers, no branches on which slot comes next); here it is held to
/// the plain reading of its contract, written the slow way with dictionaries, over a seeded random catalog: every word,
/// prefix, typo, pair and emoji, in several locales, with and without flags, whole and windowed.
@Suite struct MatchReferenceTests {
    static let words = [
        "apple", "apricot", "banana", "bandana", "caramel", "carame", "cherry", "chewy", "lemon", "lemonade", "melon",
        "mellow", "sugar", "sugary", "toffee", "truffle", "waffle", "walnut",
    ]
    static let emoji = ["🍎", "🍌", "🍒", "🍋", "🍬"]

    /// A catalog of 12 groups of 25 stickers with texts drawn from `words`, the same for every run.
    static let index: SearchIndex = {
        var random = SeededRandom(seed: 35)
        var groups: [StickerGroup] = []
        var stickers: [String: [Sticker]] = [:]
        for number in 0..<12 {
            let id = "group-\(number)"
            let name = words[random.below(words.count)].capitalized
            groups.append(
                SearchIndexTests.group(
                    id, name, number, flags: number % 4 == 0 ? ["premium"] : [], fr: words[random.below(words.count)],
                    de: words[random.below(words.count)]))
            stickers[id] = (0..<25).map { position in
                let pick = { words[random.below(words.count)] }
                return SearchIndexTests.sticker(
                    id, position, pick().capitalized + pick().capitalized, "A \(pick()) with \(pick()) and \(pick())",
                    [pick(), pick()], [emoji[random.below(emoji.count)]],
                    flags: random.below(3) == 0 ? ["sour"] : [],
                    localized: random.below(2) == 0 ? ["fr": "Un \(pick()) au \(pick())"] : ["de": "Ein \(pick())"])
            }
        }
        let snapshot = CatalogSnapshot(
            revision: 1, groups: groups, stickers: stickers, filters: [:],
            contentVersions: Dictionary(uniqueKeysWithValues: groups.map { ($0.id, Int64(1)) }))
        return SearchIndex.empty.patched(to: snapshot)
    }()

    /// The contract, the slow way: each term's best rank per sticker, summed over the terms every one matched; those
    /// carrying the flags; by total, then manifest order.
    static func reference(
        _ terms: SearchTerms, required: Set<String>, locale: String?, first wanted: Int
    ) -> (total: Int, best: [UInt32]) {
        let asked = index.localeId(locale)
        var totals: [UInt32: Int]?
        for (number, word) in terms.words.enumerated() {
            var best: [UInt32: UInt8] = [:]
            let prefix = number == terms.words.count - 1 || word.unicodeScalars.count > 1
            for (term, exact, typo) in index.matchedTerms(word, prefix: prefix) {
                for posting in index.postings[Int(term)] {
                    let rank = SearchIndex.rank(posting, exact: exact, typo: typo, asked: asked)
                    best[posting.slot] = min(best[posting.slot] ?? .max, rank)
                }
            }
            totals = merge(totals, best)
        }
        for emoji in terms.emoji {
            totals = merge(totals, Dictionary(uniqueKeysWithValues: (index.emoji[emoji] ?? []).map { ($0, UInt8(4)) }))
        }
        let mask = index.mask(of: required)
        let found = (totals ?? [:]).filter { slot, _ in
            mask != .max && index.isSelected(slot, required: required, mask: mask)
        }.sorted { ($0.value, index.order[Int($0.key)]) < ($1.value, index.order[Int($1.key)]) }
        return (found.count, found.prefix(wanted).map(\.key))
    }

    static func merge(_ totals: [UInt32: Int]?, _ ranks: [UInt32: UInt8]) -> [UInt32: Int] {
        guard let totals else { return ranks.mapValues(Int.init) }
        return Dictionary(
            uniqueKeysWithValues: totals.compactMap { slot, total in ranks[slot].map { (slot, total + Int($0)) } })
    }

    @Test("matches answers every query as the plain reading of its contract does")
    func matchesTheReference() {
        var queries = SearchIndexTests.queries(Self.index.snapshot).sorted()
        queries += ["apple 🍎", "🍬 🍒", "sugar toffee", "c", "ca waffle", "lemon lemonade", "zzz apple", "truffel"]
        var compared = 0
        var differing = Set<String>()
        for query in queries {
            for locale in [nil, "fr", "de"] {
                for required: Set<String> in [[], ["sour"], ["premium", "sour"]] {
                    for wanted in [3, 50, Int.max] {
                        let terms = SearchTerms(query)
                        let fast = Self.index.matches(terms, required: required, locale: locale, first: wanted)
                        let slow = Self.reference(terms, required: required, locale: locale, first: wanted)
                        compared += fast.total > 0 ? 1 : 0
                        if fast.total != slow.total || fast.best != slow.best { differing.insert(query) }
                    }
                }
            }
        }
        #expect(compared > 1_000, "too few queries matched anything to compare: \(compared)")
        #expect(differing.isEmpty, "answered otherwise than the reference: \(differing.sorted().prefix(5))")
    }
}

/// A deterministic generator (SplitMix64), so the catalog is the same every run.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((mixed ^ (mixed >> 31)) % UInt64(bound))
    }
}
