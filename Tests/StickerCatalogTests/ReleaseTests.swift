import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import TestSupport
import Testing

/// Release history on a real database: every visible change is a release with its author and summary; any kept
/// release can be previewed and restored as one new revision whose manifest is the old one byte for byte (revision and
/// cursor apart) and whose change feed carries exactly the difference; a restore can be undone; purchases stay; gc
/// keeps what a kept release shows.
@Suite struct ReleaseTests {
    /// The raw manifest body with its revision and cursor taken out, for byte comparisons.
    static func manifestBytes(
        _ client: some TestClientProtocol, _ query: String = ""
    ) async throws -> (text: String, revision: Int64) {
        let response = try await client.execute(uri: "/v1/manifest" + query, method: .get)
        #expect(response.status == .ok)
        let text = String(buffer: response.body)
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(text.utf8))
        let stripped = text.replacingOccurrences(of: "\"revision\":\(manifest.revision)", with: "")
            .replacingOccurrences(of: "\"cursor\":\"\(manifest.cursor)\"", with: "")
        return (stripped, manifest.revision)
    }

    static func restore(_ client: some TestClientProtocol, _ revision: Int64) async throws -> [String: Any] {
        let response = try await client.execute(
            uri: "/v1/admin/releases/\(revision)/restore", method: .post, headers: admin)
        #expect(response.status == .ok)
        return response.json
    }

    static func releases(_ client: some TestClientProtocol, _ query: String = "") async throws -> [String: Any] {
        let response = try await client.execute(uri: "/v1/admin/releases" + query, method: .get, headers: admin)
        #expect(response.status == .ok)
        return response.json
    }

    /// Visible changes of every kind: a rename, an upload, a deletion, a group moved, a sticker order, a filter.
    static func changeEverything(_ client: some TestClientProtocol) async throws {
        try await ChangeFeedTests.patch(client, "groups/chewy", ["name": "Chewy!", "flags": ["soft", "new"]])
        _ = try await DraftPrivacyTests.upload(client, into: "crunchy", name: "Newcomer")
        let crunchy = try await ChangeFeedTests.manifest(client).groups.first { $0.id == "crunchy" }
        let gone = try #require(crunchy?.stickers.first?.id)
        #expect(
            try await client.execute(uri: "/v1/admin/stickers/\(gone)", method: .delete, headers: admin).status
                == .noContent)
        try await ChangeFeedTests.patch(client, "groups/chocolate", ["position": 0])
        let filter = try await client.execute(
            uri: "/v1/admin/filters/chocoholic", method: .put, headers: admin,
            body: Body.json(["title": "Only chocolate", "flags": ["chocolate", "dark"]]))
        #expect(filter.status == .ok)
    }

    @Test func aRestoredReleaseServesItsManifestByteForByteAndTheFeedCarriesExactlyTheDifference() async throws {
        try await withApp(demo: true) { client, _ in
            // Setup: the manifest of a release, then changes of every kind, and a purchase granted meanwhile.
            let old = try await Self.manifestBytes(client, "?locale=fr&size=small")
            try await Self.changeEverything(client)
            let grant = try await client.execute(
                uri: "/v1/admin/users/ada/entitlements", method: .post, headers: admin,
                body: Body.json(["productId": "com.example.chocolate"]))
            #expect(grant.status == .created || grant.status == .ok)
            let changed = try await ChangeFeedTests.manifest(client, "?locale=fr&size=small")
            #expect(try await Self.manifestBytes(client, "?locale=fr&size=small").text != old.text)
            // Action
            let restored = try await Self.restore(client, old.revision)
            // Check: one new revision, the old manifest byte for byte, the purchase still there.
            #expect(restored["changed"] as? Bool == true)
            #expect((restored["revision"] as? Int).map(Int64.init) == changed.revision + 1)
            let now = try await Self.manifestBytes(client, "?locale=fr&size=small")
            #expect(now.revision == changed.revision + 1)
            #expect(now.text == old.text)
            let held = try await client.execute(uri: "/v1/admin/users/ada/entitlements", method: .get, headers: admin)
            #expect(String(buffer: held.body).contains("com.example.chocolate"))
            // Check: the feed from before the restore brings a client to the same groups, sending only those that
            // differ.
            var groups = changed.groups
            let feed = try await ChangeFeedTests.changes(client, since: changed.cursor, "locale=fr&size=small")
            let page = try JSONDecoder().decode(ManifestChanges.self, from: Data(buffer: feed.body))
            _ = try await ChangeFeedTests.catchUp(client, &groups, from: changed.cursor, "locale=fr&size=small")
            let after = try await ChangeFeedTests.manifest(client, "?locale=fr&size=small")
            #expect(groups == after.groups)
            let differing = Set(
                after.groups.filter { group in changed.groups.first { $0.id == group.id } != group }.map(\.id))
            #expect(Set(page.groups.map(\.id)) == differing)
            #expect(!differing.isEmpty)
            // Check: the release says what it was.
            let newest = try #require((try await Self.releases(client, "?limit=1"))["releases"] as? [[String: Any]])
                .first
            #expect(newest?["restoredFrom"] as? Int == Int(old.revision))
            #expect(newest?["author"] as? String == "bootstrap")
        }
    }

    @Test func aRestoreIsItselfAReleaseAndCanBeUndone() async throws {
        try await withApp(demo: true) { client, _ in
            // Setup: two states, A then B.
            let a = try await Self.manifestBytes(client)
            try await Self.changeEverything(client)
            let b = try await Self.manifestBytes(client)
            // Action: back to A, then undo that (back to B).
            _ = try await Self.restore(client, a.revision)
            #expect(try await Self.manifestBytes(client).text == a.text)
            let undone = try await Self.restore(client, b.revision)
            // Check
            #expect(undone["changed"] as? Bool == true)
            let now = try await Self.manifestBytes(client)
            #expect(now.text == b.text)
            #expect(now.revision == b.revision + 2)
            // Check: restoring what is already there changes nothing and raises nothing.
            let again = try await Self.restore(client, b.revision)
            #expect(again["changed"] as? Bool == false)
            #expect(try await Self.manifestBytes(client).revision == now.revision)
        }
    }

    /// A group deleted with its stickers (a cascade, before the group's own trigger raises the revision) and a move
    /// (rows shifted before the statement that changes the visible order) used to be recorded partly in the release
    /// before them: restoring it brought the group back empty, or failed on duplicate positions.
    @Test func theReleaseJustBeforeADeletionOrAMoveRestoresExactly() async throws {
        try await withApp(demo: true) { client, _ in
            // Setup: each change right after the manifest of the release before it.
            let beforeDeletion = try await Self.manifestBytes(client)
            #expect(
                try await client.execute(uri: "/v1/admin/groups/crunchy", method: .delete, headers: admin).status
                    == .noContent)
            // Action, check: back to before the deletion.
            _ = try await Self.restore(client, beforeDeletion.revision)
            #expect(try await Self.manifestBytes(client).text == beforeDeletion.text)
            // Setup: the last group moved first (the others shift before it moves).
            let beforeMove = try await Self.manifestBytes(client)
            try await ChangeFeedTests.patch(client, "groups/chocolate", ["position": 0])
            #expect(try await Self.manifestBytes(client).text != beforeMove.text)
            // Action, check: back to before the move.
            _ = try await Self.restore(client, beforeMove.revision)
            #expect(try await Self.manifestBytes(client).text == beforeMove.text)
        }
    }

    @Test func releasesPageNewestFirstWithAuthorAndSummary() async throws {
        try await withApp(demo: true) { client, _ in
            // Setup: three releases.
            try await ChangeFeedTests.patch(client, "groups/chewy", ["name": "Chewy!"])
            _ = try await DraftPrivacyTests.upload(client, into: "crunchy", name: "Newcomer")
            try await ChangeFeedTests.patch(client, "groups/chocolate", ["position": 0])
            let current = try await ChangeFeedTests.manifest(client).revision
            // Action
            let first = try await Self.releases(client, "?limit=2")
            let releases = try #require(first["releases"] as? [[String: Any]])
            let next = try #require(first["nextBefore"] as? Int)
            let second = try #require(
                (try await Self.releases(client, "?limit=2&before=\(next)"))["releases"] as? [[String: Any]])
            // Check: newest first, each with its author and what it changed.
            #expect(releases.compactMap { $0["revision"] as? Int } == [Int(current), Int(current) - 1])
            #expect(second.first?["revision"] as? Int == Int(current) - 2)
            #expect(releases.allSatisfy { $0["author"] as? String == "bootstrap" && $0["releasedAt"] is String })
            let moved = try #require(releases[0]["summary"] as? [String: Any])
            #expect((moved["groups"] as? [String: Any])?["reordered"] as? Bool == true)
            let uploaded = try #require(releases[1]["summary"] as? [String: Any])
            #expect((uploaded["stickers"] as? [String: Any])?["added"] as? Int == 1)
            let renamed = try #require(second[0]["summary"] as? [String: Any])
            #expect((renamed["groups"] as? [String: Any])?["changed"] as? [String] == ["chewy"])
            // Check: the manifest of that release shows the name before the rename only there.
            let before = try await client.execute(
                uri: "/v1/admin/releases/\(current - 3)/manifest", method: .get, headers: admin)
            #expect(before.status == .ok)
            #expect(
                String(buffer: before.body).contains("\"Chewy\"") && !String(buffer: before.body).contains("Chewy!"))
        }
    }

    @Test func unknownReleasesAndBadParametersAreProblems() async throws {
        try await withApp(demo: true) { client, db in
            let stored = try await DraftPrivacyTests.revision(db)
            for path in [
                "releases/999999/manifest", "releases/abc/manifest", "releases/0/manifest", "releases/-1/manifest",
                "releases/99999999999999999999/manifest",
            ] {
                let response = try await client.execute(uri: "/v1/admin/" + path, method: .get, headers: admin)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            #expect(
                try await client.execute(uri: "/v1/admin/releases/1/restore", method: .post, headers: admin).status
                    == .notFound)
            for query in ["?before=abc", "?before=0", "?limit=0", "?limit=201"] {
                let response = try await client.execute(uri: "/v1/admin/releases" + query, method: .get, headers: admin)
                #expect(response.status == .badRequest, "\(query)")
            }
            #expect(try await client.execute(uri: "/v1/admin/releases", method: .get).status == .unauthorized)
            #expect(try await DraftPrivacyTests.revision(db) == stored)
        }
    }

    @Test func gcKeepsImagesAKeptReleaseShowsAndCollectsThemOnceItIsForgotten() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: a sticker with an image of its own, shown by one release, then deleted.
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            let early = try await ChangeFeedTests.manifest(client).cursor
            let id = try await DraftPrivacyTests.upload(client, into: "crunchy", name: "Fleeting")
            let shown = try await ChangeFeedTests.manifest(client).revision
            let sha = try #require(try await db.strings("SELECT asset_sha256 FROM stickers WHERE id = '\(id)'").first)
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .delete, headers: admin).status
                    == .noContent)
            try await db.execute(
                "UPDATE assets SET unreferenced_since = now() - interval '2 hours' WHERE unreferenced_since IS NOT NULL"
            )
            // Action: gc past the grace period. Check: the image and its renditions stay, and the restore shows them.
            _ = try await PostgresMaintenance(store: catalog.store).collectGarbage(
                unusedFor: .seconds(3600), limit: 1000)
            #expect(try await db.count("SELECT count(*) FROM assets WHERE sha256 = '\(sha)'") == 1)
            _ = try await Self.restore(client, shown)
            let back = try await ChangeFeedTests.manifest(client).groups.first { $0.id == "crunchy" }?.stickers.first {
                $0.id == id
            }
            let url = try #require(back?.asset.url)
            #expect(try await client.execute(uri: url, method: .get).status == .ok)
            // Action: deleted again, and its releases forgotten. Check: gc collects it; its release is gone.
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .delete, headers: admin).status
                    == .noContent)
            #expect(try await PostgresReleases(store: catalog.store).pruneReleases(olderThan: .zero) > 0)
            try await db.execute(
                "UPDATE assets SET unreferenced_since = now() - interval '2 hours' WHERE unreferenced_since IS NOT NULL"
            )
            _ = try await PostgresMaintenance(store: catalog.store).collectGarbage(
                unusedFor: .seconds(3600), limit: 1000)
            #expect(try await db.count("SELECT count(*) FROM assets WHERE sha256 = '\(sha)'") == 0)
            let forgotten = try await client.execute(
                uri: "/v1/admin/releases/\(shown)/manifest", method: .get, headers: admin)
            #expect(forgotten.status == .notFound)
            #expect(try await ChangeFeedTests.manifest(client).groups.count == 3)
            // A cursor from before the versions kept expires: what it saw can no longer be told (issue 46).
            let stale = try await ChangeFeedTests.changes(client, since: early)
            #expect(stale.status == .gone && stale.problemCode == "cursor_expired")
        }
    }

    @Test("A restore brings back what the release showed, not work after it that raised no revision")
    func aRestoreShowsWhatItsReleaseShowed() async throws {
        let clock = ManualClock()
        let boundary = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, _ in
            // Setup: release R as it is; then, raising no revision, a group scheduled for `boundary` (with a sticker)
            // and the visible Chewy set to leave then; then the boundary passes (a release of its own).
            let release = try await Self.manifestBytes(client).revision
            try await ScheduleTests.createGroup(client, publishAt: boundary)
            _ = try await DraftPrivacyTests.upload(client, into: ScheduleTests.group, name: "Bauble")
            try await ChangeFeedTests.patch(client, "groups/chewy", ["unpublishAt": RFC3339.string(boundary)])
            #expect(try await Self.manifestBytes(client).revision == release)
            clock.advance(to: boundary)
            #expect(
                try await ScheduleTests.eventuallyShows(client) {
                    $0.contains(ScheduleTests.group) && !$0.contains("chewy")
                })
            // Action
            _ = try await Self.restore(client, release)
            // Check: the live manifest is the release's own, revision and cursor apart.
            let shown = try await client.execute(
                uri: "/v1/admin/releases/\(release)/manifest", method: .get, headers: admin)
            let text = String(buffer: shown.body)
            let old = try JSONDecoder().decode(Manifest.self, from: Data(text.utf8))
            // An admin answer signs every image URL; a client's names free ones plainly.
            let stripped = text.replacingOccurrences(of: "\"revision\":\(old.revision)", with: "")
                .replacingOccurrences(of: "\"cursor\":\"\(old.cursor)\"", with: "")
                .replacingOccurrences(of: #"\?exp=[0-9]+&sig=[A-Za-z0-9_-]+"#, with: "", options: .regularExpression)
            let live = try await Self.manifestBytes(client)
            #expect(live.revision > release && live.text == stripped)
            #expect(try await Self.eventuallyEqual(client, stripped))
        }
    }

    /// Whether the live manifest becomes `stripped` within a few seconds (a restore reaches the snapshot by NOTIFY).
    static func eventuallyEqual(_ client: some TestClientProtocol, _ stripped: String) async throws -> Bool {
        for _ in 0..<50 {
            if try await manifestBytes(client).text == stripped { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func aBoundaryIsTheScheduleReleaseAndADraftEditIsNone() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, db in
            // Setup: a scheduled group with a sticker, and a draft with one: no release.
            let before = try await db.count("SELECT count(*) FROM catalog_releases")
            try await ScheduleTests.createGroup(client, publishAt: publishAt)
            _ = try await DraftPrivacyTests.upload(client, into: ScheduleTests.group, name: "Bauble")
            try await DraftPrivacyTests.createDraft(client)
            _ = try await DraftPrivacyTests.upload(
                client, into: DraftPrivacyTests.draft, name: "Teaser", image: Samples.otherSticker)
            #expect(try await db.count("SELECT count(*) FROM catalog_releases") == before)
            // Action: the boundary passes.
            clock.advance(to: publishAt)
            #expect(try await ScheduleTests.eventuallyShows(client) { $0.contains(ScheduleTests.group) })
            // Check: one release, the schedule's, showing the group added.
            let newest = try #require((try await Self.releases(client, "?limit=1"))["releases"] as? [[String: Any]])
                .first
            #expect(newest?["author"] as? String == "schedule")
            #expect(
                ((newest?["summary"] as? [String: Any])?["groups"] as? [String: Any])?["added"] as? [String] == [
                    ScheduleTests.group
                ])
            #expect(try await db.count("SELECT count(*) FROM catalog_releases") == before + 1)
        }
    }
}
