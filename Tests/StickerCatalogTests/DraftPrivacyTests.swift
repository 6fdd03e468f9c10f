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

/// Nothing about a draft reaches a client: not its id (manifest, change feed, group route), not the stickers deleted
/// in it, not the timing of work in it (the revision, which wakes every cache and event stream). Publishing it is one
/// visible change; unpublishing it a removal.
@Suite struct DraftPrivacyTests {
    static let draft = "secret-collab-2027"

    static func revision(_ db: DatabasePool) async throws -> Int {
        try await db.count("SELECT revision::int FROM catalog_revision")
    }

    static func createDraft(_ client: some TestClientProtocol) async throws {
        let created = try await client.execute(
            uri: "/v1/admin/groups", method: .post, headers: admin,
            body: Body.json(["id": draft, "name": "Secret collab", "published": false]))
        #expect(created.status == .created)
    }

    /// Uploads `image` (by default one the demo does not have, so its renditions are made in this commit).
    static func upload(
        _ client: some TestClientProtocol, into group: String, name: String,
        image: [UInt8] = Samples.opaqueSticker
    ) async throws -> String {
        let response = try await client.execute(
            uri: "/v1/admin/groups/\(group)/stickers", method: .post, headers: Body.formHeaders,
            body: Body.form(
                [("name", name), ("description", "Not out yet")],
                files: [("file", image)]))
        #expect(response.status == .created)
        return try #require(response.json["id"] as? String)
    }

    @Test func workInADraftRaisesNoRevisionAndLogsNothingAClientCanRead() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: a client's manifest, then a draft.
            let first = try await ChangeFeedTests.manifest(client)
            try await Self.createDraft(client)
            let before = try await Self.revision(db)
            // Action: uploads (with their renditions), an edit and a deletion, all inside the draft.
            let kept = try await Self.upload(client, into: Self.draft, name: "Teaser")
            let deleted = try await Self.upload(client, into: Self.draft, name: "Scrapped", image: Samples.otherSticker)
            try await ChangeFeedTests.patch(client, "stickers/\(kept)", ["description": "Still secret"])
            try await ChangeFeedTests.patch(client, "groups/\(Self.draft)", ["name": "Secret collab 2027"])
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(deleted)", method: .delete, headers: admin).status
                    == .noContent)
            // Check: no revision rose, nothing names the draft or its stickers, the feed has nothing new.
            #expect(try await Self.revision(db) == before)
            #expect(
                try await db.count(
                    "SELECT count(*)::int FROM catalog_changes WHERE id IN ('\(Self.draft)', '\(kept)', '\(deleted)')")
                    == 0)
            let changes = try await ChangeFeedTests.changes(client, since: first.cursor)
            #expect(changes.status == .notModified)
            #expect(!String(buffer: changes.body).contains(Self.draft))
            let route = try await client.execute(uri: "/v1/groups/\(Self.draft)", method: .get)
            let unknown = try await client.execute(uri: "/v1/groups/no-such-group", method: .get)
            #expect(route.status == .notFound && unknown.status == .notFound)
            #expect(route.json["code"] as? String == unknown.json["code"] as? String)
            #expect(
                !String(buffer: try await client.execute(uri: "/v1/manifest", method: .get).body).contains(Self.draft))
        }
    }

    @Test func publishingADraftIsOneChangeAndUnpublishingItARemoval() async throws {
        try await withApp(demo: true) { client, db in
            // Setup
            try await Self.createDraft(client)
            _ = try await Self.upload(client, into: Self.draft, name: "Teaser")
            let first = try await ChangeFeedTests.manifest(client)
            let before = try await Self.revision(db)
            // Action: publish.
            try await ChangeFeedTests.patch(client, "groups/\(Self.draft)", ["published": true])
            // Check: one revision, and the feed brings the whole group.
            #expect(try await Self.revision(db) == before + 1)
            var groups = first.groups
            let published = try await ChangeFeedTests.catchUp(client, &groups, from: first.cursor)
            #expect(groups.first { $0.id == Self.draft }?.stickers.map(\.name) == ["Teaser"])
            // Action: unpublish.
            try await ChangeFeedTests.patch(client, "groups/\(Self.draft)", ["published": false])
            let page = try JSONDecoder().decode(
                ManifestChanges.self,
                from: Data(buffer: try await ChangeFeedTests.changes(client, since: published.cursor).body))
            // Check: a removal.
            #expect(page.removedGroups == [Self.draft] && page.groups.isEmpty)
        }
    }

    @Test func aStickerMovedFromAPublishedGroupIntoADraftIsAVisibleChange() async throws {
        try await withApp(demo: true) { client, db in
            // Setup
            try await Self.createDraft(client)
            let first = try await ChangeFeedTests.manifest(client)
            let sticker = try #require(first.groups.first { $0.id == "chewy" }?.stickers.last)
            let before = try await Self.revision(db)
            // Action: no route moves a sticker today; a restore of an older release will, so the trigger must see it.
            try await db.execute(
                "UPDATE stickers SET group_id = '\(Self.draft)', position = 0 WHERE id = '\(sticker.id)'")
            // Check: the revision rose and the feed sends chewy without it, and never the draft.
            #expect(try await Self.revision(db) > before)
            // The change reaches this replica by NOTIFY, not by the request that made it: until then the feed has
            // nothing new (304), which once raced this check on a busy machine.
            let answer = try await eventually {
                try await ChangeFeedTests.changes(client, since: first.cursor)
            } until: {
                $0.status != .notModified
            }
            #expect(answer.status == .ok)
            let page = try JSONDecoder().decode(ManifestChanges.self, from: Data(buffer: answer.body))
            #expect(page.groups.map(\.id) == ["chewy"] && page.removedGroups.isEmpty)
            #expect(page.groups.first?.stickers.contains { $0.id == sticker.id } == false)
        }
    }
}
