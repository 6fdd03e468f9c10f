import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The change feed on a real database: a client that applies every page after its manifest's cursor holds what a fresh
/// manifest shows; nothing new is a 304; expired, foreign and malformed cursors are refused.
@Suite struct ChangeFeedTests {
    static func manifest(
        _ client: some TestClientProtocol, _ query: String = "", headers: HTTPFields = [:]
    ) async throws -> Manifest {
        let response = try await client.execute(uri: "/v1/manifest" + query, method: .get, headers: headers)
        #expect(response.status == .ok)
        return try JSONDecoder().decode(Manifest.self, from: Data(buffer: response.body))
    }

    static func changes(
        _ client: some TestClientProtocol, since cursor: String, _ query: String = "", limit: Int? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        let extra = (query.isEmpty ? "" : "&" + query) + (limit.map { "&limit=\($0)" } ?? "")
        return try await client.execute(
            uri: "/v1/manifest/changes?since=\(cursor)" + extra, method: .get, headers: headers)
    }

    /// Applies every page from `cursor` to `groups`, as a client does; the final cursor and the stickers removed.
    static func catchUp(
        _ client: some TestClientProtocol, _ groups: inout [ManifestGroup], from cursor: String, _ query: String = "",
        limit: Int? = nil, headers: HTTPFields = [:]
    ) async throws -> (cursor: String, pages: Int, removed: [String]) {
        var (cursor, pages, removed) = (cursor, 0, [String]())
        while true {
            let response = try await changes(client, since: cursor, query, limit: limit, headers: headers)
            if response.status == .notModified { return (cursor, pages, removed) }
            try #require(response.status == .ok)
            let page = try JSONDecoder().decode(ManifestChanges.self, from: Data(buffer: response.body))
            var byId = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0) })
            for group in page.groups { byId[group.id] = group }
            for id in page.removedGroups { byId[id] = nil }
            groups = page.order.compactMap { byId[$0] }
            (cursor, pages, removed) = (page.cursor, pages + 1, removed + page.removedStickers)
            if !page.moreComing { return (cursor, pages, removed) }
        }
    }

    static func patch(_ client: some TestClientProtocol, _ path: String, _ body: [String: Any]) async throws {
        let response = try await client.execute(
            uri: "/v1/admin/" + path, method: .patch, headers: admin, body: Body.json(body))
        #expect(response.status == .ok, "\(path)")
    }

    @Test func applyingEveryPageAfterAManifestGivesWhatAFreshManifestShows() async throws {
        try await withApp(demo: true) { client, _ in
            // Setup
            let first = try await Self.manifest(client, "?locale=fr&size=small&scale=2")
            #expect(
                try await Self.changes(client, since: first.cursor, "locale=fr&size=small&scale=2").status
                    == .notModified)
            let chewy = try #require(first.groups.first { $0.id == "chewy" }?.stickers)
            let crunchy = try #require(first.groups.first { $0.id == "crunchy" }?.stickers)
            // Action: a description changed, a sticker deleted, groups reordered, one unpublished.
            try await Self.patch(client, "stickers/\(chewy[0].id)", ["description": "Changed for the feed"])
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(crunchy[0].id)", method: .delete, headers: admin)
                    .status == .noContent)
            try await Self.patch(client, "groups/chewy", ["position": 0])
            try await Self.patch(client, "groups/chocolate", ["published": false])
            var groups = first.groups
            let caughtUp = try await Self.catchUp(
                client, &groups, from: first.cursor, "locale=fr&size=small&scale=2", limit: 1)
            // Check: one page per changed group; the result is the fresh manifest; nothing newer after it.
            let fresh = try await Self.manifest(client, "?locale=fr&size=small&scale=2")
            #expect(caughtUp.pages == 3)
            #expect(groups == fresh.groups)
            #expect(groups.first?.stickers.first?.description == "Changed for the feed")
            #expect(caughtUp.removed == [crunchy[0].id])
            #expect(caughtUp.cursor == fresh.cursor)
            #expect(
                try await Self.changes(client, since: caughtUp.cursor, "locale=fr&size=small&scale=2").status
                    == .notModified)
        }
    }

    @Test func oneChangedStickerSendsOnlyItsGroup() async throws {
        try await withApp(demo: true) { client, _ in
            // Setup
            let first = try await Self.manifest(client)
            let sticker = try #require(first.groups.first { $0.id == "chocolate" }?.stickers.first)
            // Action
            try await Self.patch(client, "stickers/\(sticker.id)", ["keywords": ["cocoa"]])
            let response = try await Self.changes(client, since: first.cursor)
            // Check
            let page = try JSONDecoder().decode(ManifestChanges.self, from: Data(buffer: response.body))
            #expect(page.groups.map(\.id) == ["chocolate"] && page.removedGroups.isEmpty && !page.moreComing)
            #expect(page.groups[0].stickers.first?.keywords == ["cocoa"])
            #expect(page.order == first.groups.map(\.id))
            #expect(response.headers[.cacheControl] == "private, no-cache")
        }
    }

    @Test func aUserGainingAProductSeesItsGroupUnlockAndARevocationLocksItAgain() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            // Setup: chocolate becomes premium; ola signs in.
            let product = AppStore.Transaction.defaultProduct
            try await Self.patch(client, "groups/chocolate", ["productId": product])
            let ola = try await Purchasing.user("ola")
            let first = try await Self.manifest(client, headers: ola)
            #expect(first.groups.first { $0.id == "chocolate" }?.locked == true)
            // Action: an admin grants the product, then revokes it.
            let granted = try await client.execute(
                uri: "/v1/admin/users/ola/entitlements", method: .post, headers: admin,
                body: Body.json(["productId": product]))
            #expect(granted.status == .created)
            var groups = first.groups
            let unlocked = try await Self.catchUp(client, &groups, from: first.cursor, headers: ola)
            // Check: the group unlocked, its stickers listed with signed URLs.
            let chocolate = try #require(groups.first { $0.id == "chocolate" })
            #expect(!chocolate.locked && !chocolate.stickers.isEmpty)
            #expect(chocolate.stickers.allSatisfy { $0.asset.url.contains("exp=") && $0.asset.url.contains("sig=") })
            #expect(groups == (try await Self.manifest(client, headers: ola)).groups)
            // Action
            let revoked = try await client.execute(
                uri: "/v1/admin/users/ola/entitlements/\(product)", method: .delete, headers: admin)
            #expect(revoked.status == .ok)
            _ = try await Self.catchUp(client, &groups, from: unlocked.cursor, headers: ola)
            // Check
            #expect(groups.first { $0.id == "chocolate" }.map { $0.locked && $0.stickers.isEmpty } == true)
        }
    }

    @Test func expiredForeignAndMalformedCursorsAreRefused() async throws {
        try await withApp(demo: true) { client, db in
            // Setup
            let first = try await Self.manifest(client)
            let sticker = try #require(first.groups.first?.stickers.first)
            try await Self.patch(client, "stickers/\(sticker.id)", ["description": "Moved on"])
            // Action: another view; then the history pruned (as `stickerd gc` does).
            let foreign = try await Self.changes(client, since: first.cursor, "size=large")
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            let pruned = try await PostgresChanges(store: catalog.store).pruneChanges(olderThan: .zero)
            let expired = try await Self.changes(client, since: first.cursor)
            // Check
            #expect(foreign.status == .gone && foreign.problemCode == "cursor_expired")
            #expect(pruned > 0)
            #expect(expired.status == .gone && expired.problemCode == "cursor_expired")
            for bad in ["", "not+a/cursor", String(repeating: "A", count: 3000)] {
                let refused = try await Self.changes(client, since: bad)
                #expect(
                    refused.status == .badRequest && refused.problemCode == "invalid_parameter", "\(bad.prefix(20))")
            }
            // a cursor's characters, but none this service made: start over
            for unreadable in ["not-a-cursor", "eyJ9"] {
                let refused = try await Self.changes(client, since: unreadable)
                #expect(refused.status == .gone && refused.problemCode == "cursor_expired", "\(unreadable)")
            }
            // A malformed view is a 400 whatever the cursor, even one that would be expired.
            let malformed = try await Self.changes(client, since: "not-a-cursor", "format=gif")
            #expect(malformed.status == .badRequest && malformed.problemCode == "invalid_parameter")
            let noSince = try await client.execute(uri: "/v1/manifest/changes", method: .get)
            #expect(noSince.status == .badRequest)
            let badLimit = try await Self.changes(client, since: (try await Self.manifest(client)).cursor, limit: 0)
            #expect(badLimit.status == .badRequest)
        }
    }
}
