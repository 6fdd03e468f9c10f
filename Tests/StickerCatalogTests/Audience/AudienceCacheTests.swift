import CatalogCore
import CatalogStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What a shared cache may keep once groups have audiences, and what an audience must say.
@Suite struct AudienceCacheTests {
    @Test("Search results and trending reused without asking are private once a group has an audience")
    func reusedAnswersArePrivate() async throws {
        try await withApp(demo: true) { options in
            Audiences.options(&options)
            Usage.quick(&options)
        } _: { client, db in
            // Setup: Caramel (chewy) sent, so that trending lists it.
            let caramel = try #require(try await Usage.ids(client)["Caramel"])
            try await TrendingTests.stored(db, caramel, 50, hoursAgo: 1)
            func cacheControl(_ uri: String, _ headers: HTTPFields = [:]) async throws -> String {
                let answer = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(answer.status == .ok, "\(uri): \(String(buffer: answer.body))")
                return answer.headers[.cacheControl] ?? ""
            }
            let routes = ["/v1/search?q=caramel", "/v1/trending?window=day"]
            // Before any audience, every caller sees the same answers: shared caches may keep them.
            for uri in routes {
                let before = try await cacheControl(uri, AudiencePrivacyTests.outside)
                #expect(before.hasPrefix("max-age=") && !before.contains("private"), "\(uri): \(before)")
            }
            // Action
            try await Audiences.set(client, "chewy", ["countries": ["US"]])
            // Check: the answers in and out of the audience differ, and neither is for a shared cache.
            for uri in routes {
                for caller in [AudiencePrivacyTests.inside, AudiencePrivacyTests.outside, [:]] {
                    let after = try await cacheControl(uri, caller)
                    #expect(after.hasPrefix("private, max-age="), "\(uri) for \(caller): \(after)")
                }
            }
            // Suggestions never hold a restricted group's words: still everyone's.
            let suggestions = try await cacheControl("/v1/search/suggestions?q=ca", AudiencePrivacyTests.inside)
            #expect(!suggestions.contains("private"), "\(suggestions)")
        }
    }

    @Test("An audience naming no condition is refused, and one stored before reads as everyone")
    func emptyAudience() async throws {
        try await withApp(demo: true, options: Audiences.options) { client, _ in
            // Action
            let refused = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["audience": [String: Any]()]))
            // Check: 422 naming `audience`; the group unchanged, its images unsigned for a caller with no facts.
            #expect(refused.status == .unprocessableContent, "\(String(buffer: refused.body))")
            #expect(Audiences.fields(refused) == ["audience"])
            let manifest = try await ChangeFeedTests.manifest(client)
            let chewy = try #require(manifest.groups.first { $0.id == "chewy" })
            #expect(chewy.stickers.allSatisfy { !$0.asset.url.contains("sig=") })
        }
        // What a database may hold from before the refusal: `{}` is no audience, not a group for nobody.
        #expect(PostgresCatalog.audience("{}") == nil)
        #expect(PostgresCatalog.audience(#"{"countries":["US"]}"#)?.countries == ["US"])
        #expect(PostgresCatalog.audience("not json") == .nobody)
    }
}
