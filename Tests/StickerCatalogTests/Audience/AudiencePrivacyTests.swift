import CatalogCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A group outside a caller's audience reaches it by no route: manifest, group route, change feed, search,
/// suggestions, trending, images and bundles. Inside it, each route shows the group, its images signed.
@Suite struct AudiencePrivacyTests {
    static let inside = Audiences.caller(country: "US")
    static let outside = Audiences.caller(country: "FR")

    @Test func noRouteShowsAGroupOutsideItsAudience() async throws {
        try await withApp(demo: true) { options in
            Audiences.options(&options)
            Usage.quick(&options)
        } _: { client, db in
            let caramel = try #require(try await Usage.ids(client)["Caramel"])
            let before = try await ChangeFeedTests.manifest(client, headers: Self.outside)
            try await TrendingTests.stored(db, caramel, 50, hoursAgo: 1)
            try await Audiences.set(client, "chewy", ["countries": ["US"]])
            // Manifest and group route.
            let shown = try await ChangeFeedTests.manifest(client, headers: Self.inside)
            let hidden = try await client.execute(uri: "/v1/manifest", method: .get, headers: Self.outside)
            #expect(shown.groups.contains { $0.id == "chewy" })
            #expect(!String(buffer: hidden.body).contains("chewy") && !String(buffer: hidden.body).contains(caramel))
            let route = try await client.execute(uri: "/v1/groups/chewy", method: .get, headers: Self.outside)
            let unknown = try await client.execute(uri: "/v1/groups/no-such-group", method: .get, headers: Self.outside)
            #expect(route.status == .notFound && route.problemCode == unknown.problemCode)
            #expect(try await client.execute(uri: "/v1/groups/chewy", method: .get, headers: Self.inside).status == .ok)
            // Change feed: the outsider saw chewy when it was public, so it is told to remove it, and nothing more.
            let page = try await ChangeFeedTests.changes(client, since: before.cursor, headers: Self.outside)
            #expect(page.json["removedGroups"] as? [String] == ["chewy"])
            #expect((page.json["groups"] as? [Any])?.isEmpty == true && !String(buffer: page.body).contains(caramel))
            let gained = try await ChangeFeedTests.changes(client, since: before.cursor, headers: Self.inside)
            #expect(String(buffer: gained.body).contains("\"id\":\"chewy\""))
            // Search, its total and suggestions.
            let search = try await SearchTests.search(client, "caramel", headers: Self.outside)
            #expect(search.json["total"] as? Int == 0 && !String(buffer: search.body).contains(caramel))
            #expect(try await SearchTests.search(client, "caramel", headers: Self.inside).json["total"] as? Int == 1)
            let suggestions = try await client.execute(
                uri: "/v1/search/suggestions?q=cara", method: .get, headers: Self.inside)
            #expect(!String(buffer: suggestions.body).lowercased().contains("caramel"))
            // Trending.
            #expect(try await Usage.trending(client, "window=day", headers: Self.outside).isEmpty)
            #expect(try await Usage.trending(client, "window=day", headers: Self.inside) == [caramel])
            // Images: unsigned, as a hidden group's are; the manifest inside signs them.
            let sticker = try #require(shown.groups.first { $0.id == "chewy" }?.stickers.first { $0.id == caramel })
            let signed = try #require(URLComponents(string: sticker.asset.url))
            #expect(signed.query?.contains("sig=") == true)
            let plain = try await client.execute(uri: signed.path, method: .get)
            #expect(plain.status == .notFound)
            let fetched = try await client.execute(uri: signed.path + "?" + (signed.query ?? ""), method: .get)
            #expect(fetched.status == .ok)
            let bundle = try await AssetBundleTests.post(client, [["sha256": sticker.asset.sha256]])
            let frames = try #require(AssetBundleTests.frames(bundle.body))
            #expect(frames.count == 1 && frames.first?.bytes.isEmpty == true)
        }
    }

    @Test func callersWhoSeeTheSameGroupsShareOneCachedManifest() async throws {
        try await withApp(demo: true, options: Audiences.options) { client, _ in
            try await Audiences.set(client, "chewy", ["countries": ["US", "CA"]])
            try await Audiences.set(client, "chocolate", ["platforms": ["ios"]])
            let misses = { try await Self.manifestMisses(client) }
            let start = try await misses()
            // Action: six callers in two countries, on two platforms: two distinct views.
            var (tags, bytes): ([String: Set<String>], Int) = ([:], 0)
            for country in ["US", "CA", "FR", "DE"] {
                for platform in ["android", "web"] {
                    let answer = try await client.execute(
                        uri: "/v1/manifest", method: .get,
                        headers: Audiences.caller(country: country, platform: platform))
                    let seen = try JSONDecoder().decode(Manifest.self, from: Data(buffer: answer.body)).groups.map(\.id)
                    let tag = answer.headers[.eTag] ?? ""
                    if tags[seen.joined(separator: ","), default: []].insert(tag).inserted {
                        bytes += answer.body.readableBytes
                    }
                }
            }
            // Check: one body per set of groups seen (its ETag), built once each.
            #expect(tags.count == 2 && tags.values.allSatisfy { $0.count == 1 }, "\(tags)")
            #expect(try await misses() - start == 2)
            // The two bodies share their groups' fragments: together they cost less than one copy of both.
            let cached = try #require(
                ObservabilityTests.value(try await ObservabilityTests.metrics(client), "manifest_cache_bytes"))
            #expect(cached > 0 && Int(cached) < bytes / 2, "\(cached) bytes cached for \(bytes) bytes of bodies")
        }
    }

    /// `cache_requests_total{cache="manifest",result="miss"}`.
    static func manifestMisses(_ client: some TestClientProtocol) async throws -> Int {
        let text = try await ObservabilityTests.metrics(client)
        let line = text.split(separator: "\n").first {
            $0.hasPrefix("cache_requests_total") && $0.contains("cache=\"manifest\"") && $0.contains("miss")
        }
        return Int(Double(line?.split(separator: " ").last ?? "0") ?? 0)
    }
}
