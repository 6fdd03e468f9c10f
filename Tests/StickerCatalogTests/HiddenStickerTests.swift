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

/// A hidden sticker (scheduled, or in a draft) among a published group's visible ones: placing, moving or deleting it
/// shifts their stored positions, but not their order, which is all a manifest shows of positions. So nothing of that
/// work reaches a client: no revision (which wakes every cache and stream), nothing logged for the feed.
@Suite struct HiddenStickerTests {
    /// The visible stickers' ids of `group` in the public manifest, in order.
    static func order(_ client: some TestClientProtocol, _ group: String) async throws -> [String] {
        try await ChangeFeedTests.manifest(client).groups.first { $0.id == group }?.stickers.map(\.id) ?? []
    }

    @Test func aScheduledStickerPlacedMovedAndDeletedAmongVisibleOnesIsNoVisibleChange() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: a client's manifest; what the feed holds.
            let first = try await ChangeFeedTests.manifest(client)
            let visible = try await Self.order(client, "chewy")
            try #require(visible.count >= 3)
            let (before, logged) = (
                try await DraftPrivacyTests.revision(db),
                try await db.count("SELECT count(*)::int FROM catalog_changes")
            )
            // Action: a sticker scheduled a day ahead, placed first (every visible one's stored position moves down),
            // moved into the middle, then deleted (the ones after it move up).
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(
                    [
                        ("name", "Soon"), ("description", "Tomorrow"), ("position", "0"),
                        ("publishAt", RFC3339.string(Date().addingTimeInterval(86_400))),
                    ], files: [("file", Samples.opaqueSticker)]))
            #expect(response.status == .created && response.json["position"] as? Int == 0)
            let id = try #require(response.json["id"] as? String)
            try await ChangeFeedTests.patch(client, "stickers/\(id)", ["position": 2])
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .delete, headers: admin).status
                    == .noContent)
            // Check: no revision, nothing logged, the feed has nothing new, the order is as it was.
            #expect(try await DraftPrivacyTests.revision(db) == before)
            #expect(try await db.count("SELECT count(*)::int FROM catalog_changes") == logged)
            #expect(try await ChangeFeedTests.changes(client, since: first.cursor).status == .notModified)
            #expect(try await Self.order(client, "chewy") == visible)
        }
    }

    @Test func movingAVisibleStickerPastAHiddenOneIsStillAChange() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: a hidden sticker first in chewy.
            let visible = try await Self.order(client, "chewy")
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(
                    [
                        ("name", "Soon"), ("description", "Tomorrow"), ("position", "0"),
                        ("publishAt", RFC3339.string(Date().addingTimeInterval(86_400))),
                    ], files: [("file", Samples.opaqueSticker)]))
            #expect(response.status == .created)
            let first = try await ChangeFeedTests.manifest(client)
            let before = try await DraftPrivacyTests.revision(db)
            // Action: the last visible sticker moves to the top, above the hidden one.
            try await ChangeFeedTests.patch(client, "stickers/\(try #require(visible.last))", ["position": 0])
            // Check: one revision up, the feed sends chewy, in the new order.
            #expect(try await DraftPrivacyTests.revision(db) == before + 1)
            let changes = try await ChangeFeedTests.changes(client, since: first.cursor)
            #expect(changes.status == .ok && String(buffer: changes.body).contains("\"chewy\""))
            #expect(try await Self.order(client, "chewy") == [visible.last!] + visible.dropLast())
        }
    }
}
