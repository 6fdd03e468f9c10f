import CatalogApp
import CatalogCore
import CatalogHTTP
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// `GET /v1/groups` over a snapshot in memory: pages and their cursors, validators and 304s, the audience, and the
/// parameters it refuses.
@Suite struct GroupIndexRouteTests {
    typealias Routes = ManifestRouteTests

    static func ids(_ response: TestResponse) -> [String] {
        (response.json["groups"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func aWalkThroughPagesListsWhatTheManifestLists() async throws {
        try await Offline.app(ports: Routes.ports, options: Routes.options).test(.router) { client in
            var uri = "/v1/groups?limit=1&scale=2"
            var walked: [String] = []
            while true {
                let page = try await client.execute(uri: uri, method: .get)
                #expect(page.status == .ok && page.headers[.contentType] == "application/json")
                walked += Self.ids(page)
                guard let next = page.json["next"] as? String else { break }
                uri = "/v1/groups?limit=1&scale=2&cursor=" + next
            }
            let manifest = try await client.execute(uri: "/v1/manifest?scale=2", method: .get)
            #expect(walked == (try Routes.groups(manifest).map(\.id)) && walked == ["g0", "g1", "g3"])
            let american = try await client.execute(
                uri: "/v1/groups", method: .get, headers: [Routes.countryHeader: "US"])
            #expect(Self.ids(american) == ["g0", "g1", "g2", "g3"])
        }
    }

    @Test func aPageAnswers304AndEachVersionIsItsGroupsETag() async throws {
        try await Offline.app(ports: Routes.ports, options: Routes.options).test(.router) { client in
            let headers: HTTPFields = [Routes.countryHeader: "US"]
            let page = try await client.execute(uri: "/v1/groups?size=small&locale=fr", method: .get, headers: headers)
            let etag = try #require(page.headers[.eTag])
            var again = headers
            again[.ifNoneMatch] = etag
            let revalidated = try await client.execute(
                uri: "/v1/groups?size=small&locale=fr", method: .get, headers: again)
            #expect(revalidated.status == .notModified)
            for group in page.json["groups"] as? [[String: Any]] ?? [] {
                let id = try #require(group["id"] as? String)
                let one = try await client.execute(
                    uri: "/v1/groups/\(id)?size=small&locale=fr", method: .get, headers: headers)
                #expect(one.headers[.eTag] == "\"\(group["version"] as? String ?? "")\"", "\(id)")
            }
        }
    }

    @Test func malformedParametersAreProblemsAndAForgedCursorIsGone() async throws {
        try await Offline.app(ports: Routes.ports, options: Routes.options).test(.router) { client in
            for query in ["limit=0", "limit=501", "cursor=%20", "q=" + String(repeating: "x", count: 101), "scale=9"] {
                let refused = try await client.execute(uri: "/v1/groups?" + query, method: .get)
                #expect(refused.status == .badRequest, "\(query)")
                #expect(refused.headers[.contentType] == "application/problem+json")
                #expect(refused.json["code"] as? String == "invalid_parameter", "\(query)")
            }
            let forged = try await client.execute(uri: "/v1/groups?cursor=eyJraW5kIjoiZ3JvdXBzIn0", method: .get)
            #expect(forged.status == .gone && forged.json["code"] as? String == "cursor_expired")
            for (uri, status) in [
                ("/v1/groups/g0?limit=0", HTTPResponse.Status.badRequest), ("/v1/groups/g0?limit=501", .badRequest),
                ("/v1/groups/g0?cursor=eyJraW5kIjoiZ3JvdXBzIn0", .gone),
            ] {
                let refused = try await client.execute(uri: uri, method: .get)
                #expect(refused.status == status && refused.headers[.contentType] == "application/problem+json")
            }
            let paged = try await client.execute(uri: "/v1/groups/g0?limit=1", method: .get)
            let next = try #require(paged.json["next"] as? String)
            let last = try await client.execute(uri: "/v1/groups/g0?limit=1&cursor=" + next, method: .get)
            #expect(last.status == .ok && last.json["next"] == nil)
            // A groups cursor is no stickers cursor.
            let index = try await client.execute(uri: "/v1/groups?limit=1", method: .get)
            let groupsCursor = try #require(index.json["next"] as? String)
            let crossed = try await client.execute(uri: "/v1/groups/g0?cursor=" + groupsCursor, method: .get)
            #expect(crossed.status == .gone)
            let unknown = try await client.execute(uri: "/v1/groups?filter=nope", method: .get)
            #expect(unknown.status == .notFound && unknown.json["code"] as? String == "unknown_filter")
        }
    }

    @Test func aManifestTooLargeForTheCacheIsA413PointingAtTheIndex() async throws {
        var options = Routes.options
        options.caches.manifestBytes = 8 << 10  // four stickers
        try await Offline.app(ports: Routes.ports, options: options).test(.router) { client in
            let refused = try await client.execute(uri: "/v1/manifest", method: .get)
            #expect(refused.status == .contentTooLarge && refused.json["code"] as? String == "manifest_too_large")
            #expect((refused.json["detail"] as? String)?.contains("GET /v1/groups") == true)
            let index = try await client.execute(uri: "/v1/groups", method: .get)
            #expect(index.status == .ok && Self.ids(index) == ["g0", "g1", "g3"])
        }
    }
}
