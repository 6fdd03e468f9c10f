import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Search over the demo catalog (and its French and German names) through the API: each matching rule, the ranking,
/// the manifest's view rules, locked premium results, a second replica, bad input.
@Suite struct SearchTests {
    /// The names of the stickers `q` finds (its first page), in order.
    static func names(
        _ client: some TestClientProtocol, _ q: String, _ query: String = "", headers: HTTPFields = [:]
    ) async throws -> [String] {
        let response = try await search(client, q, query, headers: headers)
        #expect(response.status == .ok, "\(q): \(String(buffer: response.body))")
        return (response.json["results"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    static func search(
        _ client: some TestClientProtocol, _ q: String, _ query: String = "", headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
        return try await client.execute(uri: "/v1/search?q=\(encoded)\(query)", method: .get, headers: headers)
    }

    /// The demo sticker called `name`'s id.
    static func id(_ client: some TestClientProtocol, _ name: String) async throws -> String {
        let manifest = try await ChangeFeedTests.manifest(client)
        return try #require(manifest.groups.flatMap(\.stickers).first { $0.name == name }?.id)
    }

    @Test func wordsPrefixesTyposAndEveryLocale() async throws {
        try await withApp(demo: true) { client, _ async throws in
            let chocolates = ["ChocolateBar", "ChocolateChip", "DarkChocolate"]
            #expect(try await Self.names(client, "choc") == chocolates)  // a prefix
            #expect(try await Self.names(client, "chocolate") == chocolates)  // a whole word
            #expect(try await Self.names(client, "choclate") == chocolates)  // a letter dropped
            #expect(try await Self.names(client, "chocolat") == chocolates)  // French, and a prefix
            #expect(try await Self.names(client, "lemno") == ["SourCandy"])  // two letters swapped
            #expect(try await Self.names(client, "lemmon") == ["SourCandy"])  // a letter added
            #expect(try await Self.names(client, "lmon").isEmpty)  // four letters: no typo allowed
            #expect(try await Self.names(client, "lemonade").isEmpty)  // three edits
            #expect(try await Self.names(client, "Schokolade") == chocolates)  // the German group name
            // the French one
            #expect(try await Self.names(client, "moelleux") == ["Caramel", "GummiBear", "SourCandy"])
            #expect(try await Self.names(client, "KNUSPRIG") == ["CandyCane", "JawBreaker", "Lollipop"])  // any case
            #expect(try await Self.names(client, "caramel square") == ["Caramel"])  // every word required
            #expect(try await Self.names(client, "caramel lollipop").isEmpty)
            #expect(try await Self.names(client, "🍫") == ["ChocolateBar", "DarkChocolate"])
            #expect(try await Self.names(client, "dark 🍫") == ["DarkChocolate"])
            #expect(try await Self.names(client, "wrapper") == ["Caramel", "ChocolateBar"])  // descriptions
            // A name as suggestions offer it, or typed as one word.
            // (`ChocolateBar` asks for chocolate and bar, which DarkChocolate's description has too; `chocolateb` is
            // also one edit from chocolate.)
            #expect(try await Self.names(client, "ChocolateBar") == ["ChocolateBar", "DarkChocolate"])
            #expect(try await Self.names(client, "chocolatebar") == ["ChocolateBar"])
            #expect(try await Self.names(client, "chocolateb").first == "ChocolateBar")
            #expect(try await Self.names(client, "xylophone").isEmpty)
        }
    }

    @Test func accentsWidthNormalisationAndEmojiModifiers() async throws {
        try await withApp(demo: true) { client, _ async throws in
            let caramel = try await Self.id(client, "Caramel")
            let lollipop = try await Self.id(client, "Lollipop")
            try await ChangeFeedTests.patch(
                client, "stickers/\(caramel)", ["description": "Crème brûlée in a \"square\" \\ box", "emoji": ["👍"]])
            try await ChangeFeedTests.patch(client, "stickers/\(lollipop)", ["emoji": ["❤️"]])
            for q in ["creme", "CRÈME", "Cre\u{300}me", "ｃｒｅｍｅ", "brulee", "BRÛLÉE"] {
                #expect(try await Self.names(client, q) == ["Caramel"], "\(q)")
            }
            // The text comes back as stored, quotes and backslash escaped in the JSON.
            let found = try await Self.search(client, "creme").json["results"] as? [[String: Any]]
            #expect(found?.first?["description"] as? String == "Crème brûlée in a \"square\" \\ box")
            #expect(try await Self.names(client, "👍🏽") == ["Caramel"])  // a skin tone
            #expect(try await Self.names(client, "👍🏿") == ["Caramel"])
            #expect(try await Self.names(client, "❤") == ["Lollipop"])  // no variation selector
            #expect(try await Self.names(client, "I ❤️").isEmpty)  // the word is required too
        }
    }

    @Test func rankingThenManifestOrder() async throws {
        try await withApp(demo: true) { client, _ async throws in
            // A name's start before a later word of a name, though the manifest shows SourCandy (Chewy) first.
            #expect(try await Self.names(client, "candy") == ["CandyCane", "SourCandy"])
            // An exact keyword before a description.
            #expect(try await Self.names(client, "bar") == ["ChocolateBar", "DarkChocolate"])
            #expect(try await Self.names(client, "cocoa") == ["DarkChocolate"])
            // The asked locale first: the same word in a French and in a German description.
            let (caramel, lollipop) = (try await Self.id(client, "Caramel"), try await Self.id(client, "Lollipop"))
            try await ChangeFeedTests.patch(
                client, "stickers/\(caramel)", ["localizedDescriptions": ["fr": "Une praline dorée"]])
            try await ChangeFeedTests.patch(
                client, "stickers/\(lollipop)", ["localizedDescriptions": ["de": "Eine Praline am Stiel"]])
            #expect(try await Self.names(client, "praline", "&locale=de") == ["Lollipop", "Caramel"])
            #expect(try await Self.names(client, "praline", "&locale=fr-CA") == ["Caramel", "Lollipop"])
            #expect(try await Self.names(client, "praline") == ["Caramel", "Lollipop"])
            // Texts in the asked locale, with the manifest's fallback.
            let french = try await Self.search(client, "praline", "&locale=fr-CA").json
            #expect(french["locale"] as? String == "fr")
            let first = try #require((french["results"] as? [[String: Any]])?.first)
            #expect(first["description"] as? String == "Une praline dorée")
            #expect((first["group"] as? [String: Any])?["name"] as? String == "Moelleux")
        }
    }

    @Test func drafsAndFilteredStickersNeverAppear() async throws {
        try await withApp(demo: true) { client, _ async throws in
            try await DraftPrivacyTests.createDraft(client)
            _ = try await DraftPrivacyTests.upload(client, into: DraftPrivacyTests.draft, name: "TruffleTeaser")
            #expect(try await Self.names(client, "truffle").isEmpty)
            #expect(try await Self.names(client, "secret").isEmpty)  // the draft's group name
            let suggestions = try await client.execute(uri: "/v1/search/suggestions?q=t", method: .get)
            #expect(!(suggestions.json["suggestions"] as? [String] ?? []).contains("TruffleTeaser"))
            // The view's filter and flags, as in the manifest.
            #expect(
                try await Self.names(client, "a", "&filter=chocoholic&limit=100").allSatisfy {
                    $0.contains("Chocolate")
                })
            #expect(try await Self.names(client, "candy", "&flags=chocolate").isEmpty)
            #expect(try await Self.search(client, "candy", "&filter=nonesuch").status == .notFound)
            // Published, it is found: the group's name too.
            try await ChangeFeedTests.patch(client, "groups/\(DraftPrivacyTests.draft)", ["published": true])
            #expect(try await Self.names(client, "truffle") == ["TruffleTeaser"])
            #expect(try await Self.names(client, "secret") == ["TruffleTeaser"])
        }
    }

    @Test func lockedPremiumResultsCarryTheProductAndNoPicture() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ async throws in
            try await PremiumManifestTests.premiumChewy(client)
            let anonymous = try await Self.search(client, "caramel")
            let locked = try #require((anonymous.json["results"] as? [[String: Any]])?.first)
            #expect(locked["locked"] as? Bool == true && locked["productId"] as? String == Purchasing.product)
            #expect(locked["asset"] == nil && locked["thumbnail"] == nil && locked["name"] as? String == "Caramel")
            #expect(
                anonymous.headers[.cacheControl] == "max-age=5"
                    && anonymous.headers[.vary]?.contains("Authorization") == true)
            _ = try await PremiumManifestTests.grant(client, "hana")
            let hana = try await Purchasing.user("hana")
            let owned = try await Self.search(client, "caramel", headers: hana)
            let unlocked = try #require((owned.json["results"] as? [[String: Any]])?.first)
            #expect(unlocked["locked"] as? Bool == false)
            #expect(((unlocked["asset"] as? [String: Any])?["url"] as? String)?.contains("sig=") == true)
            #expect(
                owned.headers[.cacheControl] == "private, max-age=5"
                    && owned.headers[.vary]?.contains("Authorization") == true)
            // Results' JSON is kept across queries, never an unlocked one: anonymous asking anew after hana gets no
            // picture.
            let again = try await Self.search(client, "caramel", "&limit=7")
            let stillLocked = try #require((again.json["results"] as? [[String: Any]])?.first)
            #expect(stillLocked["locked"] as? Bool == true && stillLocked["asset"] == nil)
            #expect(String(buffer: again.body).contains("Caramel") && !String(buffer: again.body).contains("sig="))
        }
    }

    @Test func pagesETagsAndAnswersFromMemory() async throws {
        try await withApp(demo: true) { client, _ async throws in
            var names: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let response = try await Self.search(client, "a", "&limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(response.status == .ok)
                names += (response.json["results"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                #expect(response.json["total"] as? Int == 9)
                cursor = response.json["next"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 5 && names.count == 9 && Set(names).count == 9)
            let first = try await Self.search(client, "choc")
            let etag = try #require(first.headers[.eTag])
            var headers = HTTPFields()
            headers[.ifNoneMatch] = etag
            #expect(
                try await client.execute(uri: "/v1/search?q=choc", method: .get, headers: headers).status
                    == .notModified)
            // A change gives a new answer and a new ETag.
            try await ChangeFeedTests.patch(
                client, "stickers/\(try await Self.id(client, "ChocolateChip"))", ["name": "Biscuit"])
            let changed = try await Self.search(client, "choc")
            #expect(changed.headers[.eTag] != etag)
            // a group name ties with a later word of a name
            #expect(try await Self.names(client, "choc") == ["ChocolateBar", "Biscuit", "DarkChocolate"])
        }
    }

    @Test func suggestionsCompleteKeywordsAndNamesInTheAskedLocaleFirst() async throws {
        try await withApp(demo: true) { client, _ async throws in
            let german = try await client.execute(uri: "/v1/search/suggestions?q=Sch&locale=de", method: .get)
            #expect(german.json["suggestions"] as? [String] == ["Schokolade"])
            let c = try await client.execute(uri: "/v1/search/suggestions?q=c&locale=fr", method: .get)
            let list = c.json["suggestions"] as? [String] ?? []
            #expect(list.count == 10 && list.contains("Chocolat") && !list.contains("Chewy"))
            #expect(
                try await client.execute(uri: "/v1/search/suggestions?q=zz", method: .get).json["suggestions"]
                    as? [String] == [])
        }
    }

    @Test func aChangeIsFoundOnAnotherReplica() async throws {
        try await withReplicas { first, second async throws in
            #expect(try await Self.names(second, "marzipan").isEmpty)  // the second replica's index is built
            let id = try await Self.id(first, "Lollipop")
            let patch = try await first.execute(
                uri: "/v1/admin/stickers/\(id)", method: .patch, headers: admin,
                body: Body.json(["keywords": ["marzipan"]]))
            #expect(patch.status == .ok)
            // (How soon is measured by scripts/bench-search.sh; a busy suite can take seconds.)
            let found = try await eventually {
                try await Self.names(second, "marzipan")
            } until: {
                !$0.isEmpty
            }
            #expect(found == ["Lollipop"])
        }
    }

    @Test func badInputIsAProblemNeverASlowAnswer() async throws {
        try await withApp(demo: true) { client, _ async throws in
            let bad = [
                "", "q=", "q=%20%20", "q=+", "q=+%20+", "q=%09", "q=a%00b", "q=a%1Bb",
                "q=" + String(repeating: "a", count: 101),
                "q=a&limit=0", "q=a&limit=101", "q=a&limit=x", "q=a&cursor=zzz",
                "q=a&cursor=" + String(SearchCursor.encode(offset: 2).dropLast()),
                "q=a&cursor=" + SearchCursor.encode(offset: 0), "q=a&scale=9", "q=a&locale=x",
            ]
            for query in bad {
                let response = try await client.execute(uri: "/v1/search?" + query, method: .get)
                #expect(response.status == .badRequest && response.problemCode == "invalid_parameter", "\(query)")
            }
            for query in ["", "q=%20", "q=a&locale=x", "q=a%7Fb"] {
                let response = try await client.execute(uri: "/v1/search/suggestions?" + query, method: .get)
                #expect(response.status == .badRequest && response.problemCode == "invalid_parameter", "\(query)")
            }
            // Blank (an em space), or folding to nothing (punctuation, a zero-width space, a lone combining mark):
            // nothing to look up, refused before any work (a lone mark as a prefix matched every term).
            for query in ["%E2%80%83", "%E2%80%8B", "!!!", "%CC%81", "%CC%81%20%CC%81"] {
                let response = try await client.execute(uri: "/v1/search?q=" + query, method: .get)
                #expect(response.status == .badRequest && response.problemCode == "invalid_parameter", "\(query)")
            }
            // Words past the eighth are not searched.
            #expect(
                try await Self.names(client, "a golden caramel square in its twisted wrapper xylophone") == ["Caramel"])
            // A hundred characters is allowed; a page past the end is empty.
            #expect(try await Self.search(client, String(repeating: "é", count: 100)).status == .ok)
            let past = try await client.execute(
                uri: "/v1/search?q=a&cursor=" + SearchCursor.encode(offset: 500), method: .get)
            #expect(
                past.status == .ok && (past.json["results"] as? [Any])?.isEmpty == true && past.json["next"] is NSNull)
        }
    }
}

/// The pure parts: folding and one-edit matching.
@Suite struct SearchTextTests {
    @Test func folding() {
        #expect(SearchText.folded("Crème") == "creme")
        #expect(SearchText.folded("ＣＲＥＭＥ") == "creme")
        #expect(SearchText.folded("Cre\u{300}me") == "creme")
        #expect(SearchText.words("ChocolateBar 12 pièces", camelCase: true) == ["chocolate", "bar", "12", "pieces"])
        #expect(SearchText.words("ChocolateBar") == ["chocolatebar"])
        #expect(SearchText.emoji("I ❤️ 👍🏽!") == ["❤", "👍"])
        #expect(SearchText.emoji("abc 123 #*").isEmpty)
        // A lone combining mark folds to nothing: no empty word, which would prefix every term.
        #expect(!SearchText.words("\u{345} a\u{345}").contains(""))
        #expect(SearchText.compounds("ChocolateBar 12 Caramel") == ["chocolatebar"])
    }

    @Test func selectionMatchesASort() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 7, 100, 5_000] {
            let keys = Array(Set((0..<count).map { _ in UInt64.random(in: 0..<1_000_000, using: &generator) }))
            for wanted in [1, 2, 10, keys.count / 2, max(1, keys.count - 1)] where wanted < keys.count {
                var selected = keys
                SearchIndex.selectSmallest(&selected, wanted)
                #expect(selected.prefix(wanted).sorted() == Array(keys.sorted().prefix(wanted)), "\(count) \(wanted)")
            }
        }
    }

    @Test func oneEdit() {
        func scalars(_ s: String) -> [Unicode.Scalar] { Array(s.unicodeScalars) }
        for (a, b) in [
            ("choclate", "chocolate"), ("lemno", "lemon"), ("lemon", "lemmon"), ("lemon", "lemun"), ("ab", "ba"),
        ] {
            #expect(TypoKeys.isOneEditApart(scalars(a), scalars(b)), "\(a) \(b)")
            #expect(TypoKeys.isOneEditApart(scalars(b), scalars(a)), "\(b) \(a)")
            #expect(!Set(TypoKeys.keys(scalars(a))).isDisjoint(with: TypoKeys.keys(scalars(b))))
        }
        for (a, b) in [("lemon", "lemon"), ("lemon", "melon"), ("lemon", "lemonade"), ("abc", "cab"), ("xab", "aby")] {
            #expect(!TypoKeys.isOneEditApart(scalars(a), scalars(b)), "\(a) \(b)")
        }
    }
}
