import CatalogCore
import CatalogSearch
import Foundation
import StickerImage
import Testing

/// The search index on its own, over a hand-made snapshot like the demo catalog: no database, no HTTP. Expected orders
/// follow `SearchIndex.rank` (lower is better, summed over a query's words, ties in manifest order).
@Suite struct SearchIndexTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static func group(
        _ id: String, _ name: String, _ position: Int, flags: [String] = [], fr: String,
        de: String
    ) -> StickerGroup {
        StickerGroup(
            id: id, name: name, localizedNames: ["fr": fr, "de": de], sizeClass: .medium, flags: flags,
            position: position, published: true, createdAt: date, updatedAt: date)
    }

    static func sticker(
        _ group: String, _ position: Int, _ name: String, _ description: String, _ keywords: [String],
        _ emoji: [String], flags: [String] = [], localized: [String: String] = [:]
    ) -> Sticker {
        // Search never reads the asset; the snapshot only parses its digest (64 lowercase hex digits).
        let asset = Asset(
            sha256: String(repeating: "ab", count: 32), width: 408, height: 408, bytes: 1_000,
            animated: false, frames: 1, durationMs: 0, loops: 0)
        return Sticker(
            id: UUID(), groupId: group, name: name, description: description,
            localizedDescriptions: localized, flags: flags, keywords: keywords, emoji: emoji,
            position: position, asset: asset, createdAt: date, updatedAt: date)
    }

    static let groups = [
        group("chewy", "Chewy", 0, fr: "Moelleux", de: "Weich"),
        group("chocolate", "Chocolate", 1, flags: ["chocolate"], fr: "Chocolat", de: "Schokolade"),
        group("crunchy", "Crunchy", 2, fr: "Croquant", de: "Knusprig"),
    ]
    // The demo's texts, but GummiBear's description names a later sticker (a description match against a name's
    // start), Caramel and Lollipop carry the demo tests' French and German texts, CandyCane a flag of its own.
    static let chewy = [
        sticker(
            "chewy", 0, "Caramel", "A golden caramel square in its twisted wrapper", ["caramel", "toffee"],
            ["🍮", "👍"], localized: ["fr": "Une praline dorée"]),
        sticker("chewy", 1, "GummiBear", "A red gummi bear as sweet as a lollipop", ["gummy", "bear"], ["🧸"]),
        sticker(
            "chewy", 2, "SourCandy", "A round green sour candy dusted with sugar", ["sour", "lime", "lemon"],
            ["🍋"]),
    ]
    static let chocolate = [
        sticker(
            "chocolate", 0, "ChocolateBar", "A milk chocolate bar half out of its red wrapper", ["bar", "milk"],
            ["🍫"]),
        sticker("chocolate", 1, "ChocolateChip", "A cookie studded with chocolate chips", ["cookie", "chip"], ["🍪"]),
        sticker("chocolate", 2, "DarkChocolate", "A bar of dark chocolate", ["dark", "cocoa"], ["🍫"]),
    ]
    static let candyCane = sticker(
        "crunchy", 0, "CandyCane", "A red and white striped candy cane",
        ["cane", "peppermint"], ["🍬"], flags: ["sugarfree"])
    static let jawBreaker = sticker(
        "crunchy", 1, "JawBreaker", "A jawbreaker cut open to show its colourful layers",
        ["jawbreaker", "gobstopper"], ["🍬"])
    static let lollipop = sticker(
        "crunchy", 2, "Lollipop", "A pink and yellow swirl lollipop", ["lollipop", "swirl"],
        ["🍭", "\u{2764}\u{FE0F}"], localized: ["de": "Eine Praline am Stiel"])
    static let truffle = sticker(
        "crunchy", 3, "TruffleSurprise", "A truffle with a surprise inside", ["truffle"],
        ["🎁"], localized: ["it": "Un tartufo a sorpresa"])

    /// The catalog with Crunchy's `crunchy` stickers at `version`; the other groups' versions never change, so a
    /// patched index keeps them (`patched(to:)` keeps a group only when its stored version is known and equal).
    static func snapshot(crunchy: [Sticker], version: Int64) -> CatalogSnapshot {
        CatalogSnapshot(
            revision: version, groups: groups,
            stickers: ["chewy": chewy, "chocolate": chocolate, "crunchy": crunchy], filters: [:],
            contentVersions: ["chewy": 1, "chocolate": 1, "crunchy": version])
    }

    static let catalog = snapshot(crunchy: [candyCane, jawBreaker, lollipop], version: 1)
    static let removed = snapshot(crunchy: [candyCane, lollipop], version: 2)
    static let index = SearchIndex.empty.patched(to: catalog)

    /// The names of the stickers `text` finds, best first.
    static func names(
        _ text: String, in index: SearchIndex = SearchIndexTests.index, required: Set<String> = [],
        locale: String? = nil
    ) -> [String] {
        index.matches(SearchTerms(text), required: required, locale: locale).best.map { index.member($0).sticker.name }
    }

    /// What `index` answers for `text` in several locales: each total, then the names found.
    static func answers(_ index: SearchIndex, _ text: String) -> [String] {
        [nil, "de", "fr", "it"].flatMap { (locale: String?) -> [String] in
            let found = index.matches(SearchTerms(text), required: [], locale: locale)
            return ["\(found.total)"] + found.best.map { index.member($0).sticker.name }
        }
    }

    /// Every word and emoji of `snapshot`, a prefix of each word and a misspelling (its first letter dropped).
    static func queries(_ snapshot: CatalogSnapshot) -> Set<String> {
        var words = Set<String>()
        for group in snapshot.groups {
            let groupNames = [group.name] + Array(group.localizedNames.values)
            words.formUnion(groupNames.flatMap { SearchText.words($0, camelCase: true) })
            for sticker in snapshot.stickers[group.id] ?? [] {
                var texts = [sticker.name, sticker.description] + sticker.keywords
                texts += Array(sticker.localizedDescriptions.values)
                words.formUnion(texts.flatMap { SearchText.words($0, camelCase: true) })
                words.formUnion(sticker.emoji)
            }
        }
        return Set(words.flatMap { [$0, String($0.prefix(3)), String($0.dropFirst())] })
    }

    /// A patched index must answer every query as one built afresh, and hold no posting a change took out.
    static func expectSameAnswers(_ patched: SearchIndex, _ fresh: SearchIndex, _ queries: Set<String>) {
        #expect(!queries.isEmpty)
        let differing = queries.sorted().filter { answers(patched, $0) != answers(fresh, $0) }
        #expect(differing.isEmpty, "answered differently: \(differing.prefix(5))")
        let kept = patched.postings.reduce(0) { $0 + $1.count }
        let made = fresh.postings.reduce(0) { $0 + $1.count }
        #expect(kept == made && patched.slots.count == fresh.slots.count)
        #expect(patched.emoji.mapValues(\.count) == fresh.emoji.mapValues(\.count))
    }

    @Test("A word of a name, a whole name typed as one word, and every word of a query is required")
    func wordsOfNames() {
        #expect(Self.names("breaker") == ["JawBreaker"])  // the second word of a camel-case name
        #expect(Self.names("chocolatebar") == ["ChocolateBar"])  // the name's compound
        #expect(Self.names("caramel square") == ["Caramel"])
        #expect(Self.index.matches(SearchTerms("caramel lollipop"), required: [], locale: nil).total == 0)
        #expect(Self.names("xylophone").isEmpty)
    }

    @Test("A name's start, then an exact keyword or later word of a name, then prefixes, then descriptions")
    func ranking() {
        // CandyCane's name starts with candy (tier 0); SourCandy, earlier in the manifest, has it second (tier 1).
        #expect(Self.names("candy") == ["CandyCane", "SourCandy"])
        // A prefix of Lollipop's name start (tier 2) before GummiBear's description (tier 4), though Chewy comes first.
        #expect(Self.names("lolli") == ["Lollipop", "GummiBear"])
        // ChocolateBar's exact keyword (tier 1) before DarkChocolate's description (tier 4).
        #expect(Self.names("bar") == ["ChocolateBar", "DarkChocolate"])
        // A prefix of two names' start (tier 2) before DarkChocolate's second word and group name (tier 3).
        #expect(Self.names("choc") == ["ChocolateBar", "ChocolateChip", "DarkChocolate"])
    }

    @Test(
        "A one-letter word is a prefix only as the last word; a suggestion prefix that folds to nothing finds nothing")
    func boundedWork() {
        // `c` before another word is itself only (no such word), not every term with a c; last, it is typed on.
        #expect(Self.names("c candy").isEmpty)
        #expect(Self.names("candy c") == ["CandyCane", "SourCandy"])
        #expect(Self.names("c").count > 2)
        let suggestions = SearchSuggestions(snapshot: Self.catalog)
        #expect(suggestions.complete("\u{301}", locale: nil).isEmpty)
        #expect(!suggestions.complete("c", locale: nil).isEmpty)
    }

    @Test("A sticker named what was asked comes before one that only carries the word as a keyword")
    func nameBeforeKeyword() {
        // Setup: a sticker named Lemon after SourCandy (keyword lemon) in manifest order.
        let lemon = Self.sticker("crunchy", 4, "Lemon", "A yellow drop", ["drop"], ["🍬"])
        let index = SearchIndex.empty.patched(
            to: Self.snapshot(crunchy: [Self.candyCane, Self.jawBreaker, Self.lollipop, lemon], version: 3))
        // Action, check
        #expect(Self.names("lemon", in: index) == ["Lemon", "SourCandy"])
    }

    @Test("A word of five letters or more is found one edit away; a shorter one is not")
    func typos() {
        #expect(Self.names("choclate") == ["ChocolateBar", "ChocolateChip", "DarkChocolate"])  // a letter dropped
        #expect(Self.names("lemno") == ["SourCandy"])  // two letters swapped
        #expect(Self.names("lemmon") == ["SourCandy"])  // a letter added
        #expect(Self.names("lmon").isEmpty)  // four letters: `typoMinimum` is five
        #expect(Self.names("lemonade").isEmpty)  // three edits
    }

    @Test("Emoji are found without skin tones or variation selectors, with words, and `first` keeps the total")
    func emoji() {
        #expect(Self.names("🍫") == ["ChocolateBar", "DarkChocolate"])
        #expect(Self.names("dark 🍫") == ["DarkChocolate"])
        #expect(Self.names("\u{1F44D}\u{1F3FD}") == ["Caramel"])  // 👍 with a skin tone
        #expect(Self.names("\u{2764}") == ["Lollipop"])  // ❤ without its variation selector
        let one = Self.index.matches(SearchTerms("🍬"), required: [], locale: nil, first: 1)
        #expect(one.total == 2 && one.best.map { Self.index.member($0).sticker.name } == ["CandyCane"])
    }

    @Test("Required flags keep the stickers carrying each, their own or their group's")
    func requiredFlags() {
        #expect(Self.names("wrapper") == ["Caramel", "ChocolateBar"])
        #expect(Self.names("wrapper", required: ["chocolate"]) == ["ChocolateBar"])  // the group's flag
        #expect(Self.names("candy", required: ["chocolate"]).isEmpty)
        #expect(Self.names("candy", required: ["sugarfree"]) == ["CandyCane"])  // the sticker's own flag
        #expect(Self.names("candy", required: ["chocolate", "sugarfree"]).isEmpty)
        #expect(Self.index.matches(SearchTerms("candy"), required: ["nonesuch"], locale: nil).total == 0)
    }

    @Test("Texts in every locale are found, those in the asked locale first, folded like every text")
    func locales() {
        #expect(Self.names("praline", locale: "de") == ["Lollipop", "Caramel"])
        #expect(Self.names("praline", locale: "fr") == ["Caramel", "Lollipop"])
        #expect(Self.names("praline") == ["Caramel", "Lollipop"])  // both in another locale: manifest order
        #expect(Self.names("moelleux") == ["Caramel", "GummiBear", "SourCandy"])  // Chewy's French name
        #expect(Self.names("Schokolade", locale: "de") == ["ChocolateBar", "ChocolateChip", "DarkChocolate"])
        for query in ["doree", "DORÉE", "Dore\u{301}e"] {
            #expect(Self.names(query, locale: "fr") == ["Caramel"], "\(query)")
        }
    }

    @Test("Queries are folded and cut as the index's texts are: case, accents, camel case, repeats")
    func folding() {
        #expect(SearchText.folded("Dorée") == "doree" && SearchText.folded("CHEWY") == "chewy")
        #expect(SearchText.words("Une praline DORÉE") == ["une", "praline", "doree"])
        let terms = SearchTerms("ChocolateBar chocolate 🍫🍫")
        #expect(terms.words == ["chocolate", "bar"] && terms.emoji == ["🍫"] && terms.count == 3)
        #expect(Self.names("ChocolateBar") == ["ChocolateBar", "DarkChocolate"])  // both words, in any field
    }

    @Test("patched(to:) a snapshot without a sticker: it is no longer found, and answers match a fresh index")
    func patchedRemoval() {
        #expect(Self.index.patched(to: Self.catalog).members.count == 9)  // nothing changed: nothing indexed again
        let patched = Self.index.patched(to: Self.removed)
        #expect(Self.names("breaker", in: patched).isEmpty && Self.names("gobstopper", in: patched).isEmpty)
        #expect(Self.names("🍬", in: patched) == ["CandyCane"])
        // Only Crunchy was indexed again, in two new slots; its three old ones stay unused.
        #expect(patched.members.count == 11 && patched.slots.count == 8)
        Self.expectSameAnswers(patched, SearchIndex.empty.patched(to: Self.removed), Self.queries(Self.catalog))
    }

    @Test("patched(to:) a snapshot with a new sticker and locale: it is found, and answers match a fresh index")
    func patchedAddition() {
        let added = Self.snapshot(crunchy: [Self.candyCane, Self.lollipop, Self.truffle], version: 3)
        let patched = Self.index.patched(to: Self.removed).patched(to: added)
        #expect(Self.names("truffle", in: patched) == ["TruffleSurprise"])
        #expect(Self.names("surprise 🎁", in: patched) == ["TruffleSurprise"])
        #expect(Self.names("tartufo", in: patched, locale: "it") == ["TruffleSurprise"])
        #expect(patched.members.count == 14 && patched.slots.count == 9)
        Self.expectSameAnswers(
            patched, SearchIndex.empty.patched(to: added),
            Self.queries(Self.catalog).union(Self.queries(added)))
    }

    @Test("patched(to:) a snapshot whose group's version repeats with fewer stickers (a rewind): no trap, no ghost")
    func patchedRepeatedVersion() {
        // After a rewind Crunchy's content_version 1 names two stickers where the index holds three.
        let rewound = Self.snapshot(crunchy: [Self.candyCane, Self.lollipop], version: 1)
        let patched = Self.index.patched(to: rewound)
        #expect(Self.names("gobstopper", in: patched).isEmpty)
        Self.expectSameAnswers(patched, SearchIndex.empty.patched(to: rewound), Self.queries(Self.catalog))
    }

    @Test("A prefix that begins more terms than maxPrefixTerms visits that many, and its exact term stays found")
    func prefixWorkIsBounded() {
        let count = SearchIndex.maxPrefixTerms + 500
        let many = (1...count).map { number in
            Self.sticker("crunchy", number, "Item\(number)", "Numbered", [String(format: "zq%05d", number)], [])
        }
        let index = SearchIndex.empty.patched(to: Self.snapshot(crunchy: many, version: 9))
        #expect(index.matches(SearchTerms("zq"), required: [], locale: nil).total == SearchIndex.maxPrefixTerms)
        #expect(Self.names(String(format: "zq%05d", count), in: index).first == "Item\(count)")  // then typos
    }
}
