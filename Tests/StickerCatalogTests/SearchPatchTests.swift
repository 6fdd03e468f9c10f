import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The search index is patched from one revision to the next (only changed groups indexed again): after each kind of
/// change, it must answer every query exactly as an index built afresh from the same snapshot.
@Suite struct SearchPatchTests {
    /// What `index` answers for `text` (default view, and in French): sticker names in order.
    static func answers(_ index: SearchIndex, _ text: String) -> [String] {
        [nil, "fr"].flatMap { locale in
            index.matches(SearchTerms(text), required: [], locale: locale).best.map { index.member($0).sticker.name }
                + ["|"]
        }
    }

    /// Every word, a prefix of each, a misspelling of each and every emoji of the snapshot, as queries.
    static func queries(_ snapshot: CatalogSnapshot) -> [String] {
        var words = Set<String>()
        for group in snapshot.groups {
            words.formUnion(
                SearchText.words(group.name + " " + group.localizedNames.values.joined(separator: " "), camelCase: true)
            )
            for sticker in snapshot.stickers[group.id] ?? [] {
                let texts =
                    [sticker.name, sticker.description] + sticker.keywords + Array(sticker.localizedDescriptions.values)
                words.formUnion(texts.flatMap { SearchText.words($0, camelCase: true) })
                words.formUnion(sticker.emoji)
            }
        }
        return words.sorted().flatMap { word in [word, String(word.prefix(3)), String(word.dropFirst())] }
    }

    @Test func aPatchedIndexAnswersAsAFreshOne() async throws {
        try await withApp(demo: true) { client, db async throws in
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            var snapshot = try await catalog.snapshot(reusing: nil)
            var patched = SearchIndex.empty.patched(to: snapshot)
            let manifest = try await ChangeFeedTests.manifest(client)
            let ids = Dictionary(uniqueKeysWithValues: manifest.groups.flatMap(\.stickers).map { ($0.name, $0.id) })
            let changes: [(String, () async throws -> Void)] = [
                (
                    "a description",
                    {
                        try await ChangeFeedTests.patch(
                            client, "stickers/\(ids["Caramel"]!)", ["description": "Crème brûlée"])
                    }
                ),
                (
                    "a new French text",
                    {
                        try await ChangeFeedTests.patch(
                            client, "stickers/\(ids["Lollipop"]!)", ["localizedDescriptions": ["fr": "Une sucette"]])
                    }
                ),
                (
                    "a new locale",
                    {
                        try await ChangeFeedTests.patch(
                            client, "stickers/\(ids["GummiBear"]!)",
                            ["localizedDescriptions": ["it": "Orsetto gommoso"]])
                    }
                ),
                (
                    "keywords and emoji",
                    {
                        try await ChangeFeedTests.patch(
                            client, "stickers/\(ids["CandyCane"]!)", ["keywords": ["marzipan"], "emoji": ["👍🏽"]])
                    }
                ),
                (
                    "a group's name",
                    {
                        try await ChangeFeedTests.patch(
                            client, "groups/chewy", ["name": "Gummies", "localizedNames": ["de": "Gummis"]])
                    }
                ),
                (
                    "an upload",
                    { _ = try await DraftPrivacyTests.upload(client, into: "crunchy", name: "TruffleSurprise") }
                ),
                (
                    "a deletion",
                    {
                        let deleted = try await client.execute(
                            uri: "/v1/admin/stickers/\(ids["JawBreaker"]!)", method: .delete, headers: admin)
                        #expect(deleted.status == .noContent)
                    }
                ),
                ("groups reordered", { try await ChangeFeedTests.patch(client, "groups/crunchy", ["position": 0]) }),
                (
                    "a group unpublished",
                    { try await ChangeFeedTests.patch(client, "groups/chocolate", ["published": false]) }
                ),
                (
                    "and published again",
                    { try await ChangeFeedTests.patch(client, "groups/chocolate", ["published": true]) }
                ),
            ]
            var growth: [Int] = []
            var queries = Set(Self.queries(snapshot))  // words no longer in the catalog are asked too
            for (change, make) in changes {
                let before = patched.members.count
                try await make()
                snapshot = try await catalog.snapshot(reusing: snapshot)
                patched = patched.patched(to: snapshot)
                let fresh = SearchIndex.empty.patched(to: snapshot)
                queries.formUnion(Self.queries(snapshot))
                let differing = queries.sorted().filter { Self.answers(patched, $0) != Self.answers(fresh, $0) }
                #expect(differing.isEmpty, "after \(change): \(differing.prefix(5)) answered differently")
                #expect(patched.slots.count == fresh.slots.count && !queries.isEmpty)
                // What a change took out is gone, not merely unreachable.
                let (kept, made): (Int, Int) = (
                    patched.postings.reduce(0) { $0 + $1.count }, fresh.postings.reduce(0) { $0 + $1.count }
                )
                #expect(kept == made, "after \(change)")
                #expect(patched.emoji.mapValues(\.count) == fresh.emoji.mapValues(\.count), "after \(change)")
                growth.append(patched.members.count - before)
            }
            // Only the changed group was indexed again each time (three stickers, four after the upload), never all
            // nine; a reorder and an unpublish index nothing.
            #expect(growth == [3, 3, 3, 3, 3, 4, 3, 0, 0, 3], "\(growth)")
        }
    }

    @Test func pagesFromKeptResultsAreThoseMadeAfresh() async throws {
        try await withApp(demo: true) { client, db async throws in
            // Setup: the demo with Chewy premium, its index, and a cache of results' JSON as SearchService keeps them.
            try await PremiumManifestTests.premiumChewy(client)
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            let snapshot = try await catalog.snapshot(reusing: nil)
            let index = SearchIndex.empty.patched(to: snapshot)
            let linker = AssetLinker(
                publicBaseURL: nil, signer: AssetSigner(key: Array(repeating: 7, count: 32), lifetime: 3600))
            let kept = Mutex<[SearchFragmentKey: [UInt8]]>([:])
            let cache: SearchFragments = { key, make in
                if let hit = kept.withLock({ $0[key] }) { return hit }
                let made = make()
                kept.withLock { $0[key] = made }
                return made
            }
            // Action and check: every query in several views, twice through the cache (made, then kept), as fresh.
            let views: [[String: String]] = [
                [:], ["locale": "fr"], ["locale": "de", "size": "small", "scale": "2"], ["format": "png"],
            ]
            for parameters in views {
                for text in Self.queries(snapshot) {
                    // A word's tail may be empty: not a query.
                    guard let request = try? SearchRequest(parameters: parameters.merging(["q": text]) { $1 }) else {
                        continue
                    }
                    let fresh = try SearchPage.build(request, index: index, linker: linker).json
                    for _ in 0..<2 {
                        #expect(
                            try SearchPage.build(request, index: index, linker: linker, fragments: cache).json == fresh,
                            "\(text) \(parameters)")
                    }
                }
            }
            #expect(kept.withLock { $0.count } > 9)
        }
    }
}
