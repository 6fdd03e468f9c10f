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
import TestSupport
import Testing

/// Scheduled visibility, on a test's own clock (no sleeps for the schedule itself): groups and stickers appear at
/// `publishAt` and leave at `unpublishAt` with no admin request, on every replica, in one revision; before their time
/// nothing of them reaches a client; the preview shows any moment; bad dates are 4xx problems.
@Suite struct ScheduleTests {
    static let group = "christmas"

    /// A listed group (or a draft) appearing and leaving at the given moments.
    static func createGroup(
        _ client: some TestClientProtocol, publishAt: Date?, unpublishAt: Date? = nil, published: Bool = true
    ) async throws {
        // Last, so that no published group moves (a new position for them is a visible change).
        var body: [String: Any] = ["id": group, "name": "Christmas", "published": published, "position": 1000]
        if let publishAt { body["publishAt"] = RFC3339.string(publishAt) }
        if let unpublishAt { body["unpublishAt"] = RFC3339.string(unpublishAt) }
        let created = try await client.execute(
            uri: "/v1/admin/groups", method: .post, headers: admin, body: Body.json(body))
        #expect(created.status == .created)
        if let publishAt { #expect(created.json["publishAt"] as? String == RFC3339.string(publishAt)) }
    }

    /// The ids of the groups `client`'s manifest shows, and its revision.
    static func shown(
        _ client: some TestClientProtocol, _ query: String = ""
    ) async throws -> (groups: [String], revision: Int64) {
        let manifest = try await ChangeFeedTests.manifest(client, query)
        return (manifest.groups.map(\.id), manifest.revision)
    }

    /// Polls `client`'s manifest (real time, up to `patience`) until `done` holds of what it shows.
    static func eventuallyShows(_ client: some TestClientProtocol, _ done: ([String]) -> Bool) async throws -> Bool {
        done(try await eventually({ try await shown(client).groups }, until: done))
    }

    /// The system's clock a day ahead (a replica whose clock is wrong), believed no more than it: counts its sleeps,
    /// one per schedule applied.
    final class DayAheadClock: ScheduleClock {
        private let sleeps = Mutex(0)
        var count: Int { sleeps.withLock { $0 } }
        func now() -> Date { Date().addingTimeInterval(86_400) }
        var maxLead: TimeInterval? { 2 }
        func sleep(until deadline: Date) async throws {
            sleeps.withLock { $0 += 1 }
            let seconds = deadline.timeIntervalSince(now())
            if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
        }
    }

    @Test("A replica whose clock runs a day ahead applies schedules about once a second, not back to back")
    func aClockAheadDoesNotSpin() async throws {
        let clock = DayAheadClock()
        try await withApp(options: { $0.database.scheduleClock = clock }) { client, _ in
            // Setup: a group due in an hour by the database's clock: past already by this replica's.
            try await Self.createGroup(client, publishAt: Date().addingTimeInterval(3600))
            try await Task.sleep(for: .seconds(1))
            // Action: two seconds of the scheduler.
            let before = clock.count
            try await Task.sleep(for: .seconds(2))
            // Check: a few rounds, where it applied the schedule thousands of times; the group stays unpublished.
            #expect(clock.count - before <= 6, "\(clock.count - before) schedules applied in 2 s")
            #expect(try await !Self.shown(client).groups.contains(Self.group))
        }
    }

    @Test func aBoundarySeenByTwoReplicasRaisesOneRevisionAndShowsOnBoth() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        let unpublishAt = publishAt.addingTimeInterval(86_400)
        try await withReplicas(options: { $0.database.scheduleClock = clock }) { a, b in
            // Setup: a group scheduled an hour ahead, with a sticker, made on replica A.
            let before = try await Self.shown(a).revision
            try await Self.createGroup(a, publishAt: publishAt, unpublishAt: unpublishAt)
            _ = try await DraftPrivacyTests.upload(a, into: Self.group, name: "Bauble")
            #expect(try await Self.shown(a).revision == before, "scheduled work raises no revision")
            #expect(try await !Self.shown(b).groups.contains(Self.group))
            // Action: the moment comes, with no admin request.
            clock.advance(to: publishAt)
            // Check: both replicas show it, at one revision more.
            #expect(try await Self.eventuallyShows(a) { $0.contains(Self.group) })
            #expect(try await Self.eventuallyShows(b) { $0.contains(Self.group) })
            try await Task.sleep(for: .seconds(1))  // both schedulers have asked by now
            #expect(try await Self.shown(a).revision == before + 1)
            #expect(try await Self.shown(b).revision == before + 1)
            // Action: it leaves. Check: both drop it, one revision more.
            clock.advance(to: unpublishAt)
            #expect(try await Self.eventuallyShows(a) { !$0.contains(Self.group) })
            #expect(try await Self.eventuallyShows(b) { !$0.contains(Self.group) })
            try await Task.sleep(for: .seconds(1))
            #expect(try await Self.shown(b).revision == before + 2)
        }
    }

    @Test func replicasApplyingTheSameBoundaryAtOnceRaiseTheRevisionOnce() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, db in
            // Setup: a scheduled group and a scheduled sticker in a published group, flipping at the same moment.
            try await Self.createGroup(client, publishAt: publishAt)
            let sticker = try await DraftPrivacyTests.upload(client, into: "chewy", name: "Gift")
            try await ChangeFeedTests.patch(client, "stickers/\(sticker)", ["publishAt": RFC3339.string(publishAt)])
            let before = try await DraftPrivacyTests.revision(db)
            // Action: four "replicas" apply the boundary at once, straight in SQL.
            let moment = RFC3339.string(publishAt)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for _ in 0..<4 { tasks.addTask { try await db.execute("SELECT apply_schedule('\(moment)')") } }
                try await tasks.waitForAll()
            }
            // Check: one revision for the group and the sticker together; both visible.
            #expect(try await DraftPrivacyTests.revision(db) == before + 1)
            #expect(
                try await db.count("SELECT count(*)::int FROM sticker_groups WHERE id = '\(Self.group)' AND published")
                    == 1)
            #expect(try await db.count("SELECT count(*)::int FROM stickers WHERE id = '\(sticker)' AND visible") == 1)
        }
    }

    @Test func aScheduledStickerIsInvisibleUntilItsMomentByEveryRoute() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, db in
            // Setup: a client's manifest.
            let first = try await ChangeFeedTests.manifest(client)
            let before = try await DraftPrivacyTests.revision(db)
            // Action: a sticker uploaded into a published group, scheduled.
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(
                    [
                        ("name", "Snowman"), ("description", "Coming soon"), ("keywords", "snowman"),
                        ("publishAt", RFC3339.string(publishAt)),
                    ], files: [("file", Samples.opaqueSticker)]))
            #expect(response.status == .created)
            let id = try #require(response.json["id"] as? String)
            #expect(response.json["publishAt"] as? String == RFC3339.string(publishAt))
            // Check: no revision, nothing in the manifest, the group route, the feed or search.
            #expect(try await DraftPrivacyTests.revision(db) == before)
            #expect(!String(buffer: try await client.execute(uri: "/v1/manifest", method: .get).body).contains(id))
            #expect(!String(buffer: try await client.execute(uri: "/v1/groups/chewy", method: .get).body).contains(id))
            #expect(try await ChangeFeedTests.changes(client, since: first.cursor).status == .notModified)
            #expect(try await db.count("SELECT count(*)::int FROM catalog_changes WHERE revision > \(before)") == 0)
            #expect(try await SearchTests.search(client, "snowman").json["total"] as? Int == 0)
            // Action: its moment.
            clock.advance(to: publishAt)
            // Check: in the feed with its group, and found.
            var groups = first.groups
            _ = try await eventually {
                try await ChangeFeedTests.changes(client, since: first.cursor).status
            } until: {
                $0 != .notModified
            }
            _ = try await ChangeFeedTests.catchUp(client, &groups, from: first.cursor)
            #expect(groups.first { $0.id == "chewy" }?.stickers.contains { $0.id == id } == true)
            #expect(try await SearchTests.search(client, "snowman").json["total"] as? Int == 1)
            // Action: it is set to leave an hour later, and that moment comes.
            let shown = try await ChangeFeedTests.manifest(client)
            try await ChangeFeedTests.patch(
                client, "stickers/\(id)", ["unpublishAt": RFC3339.string(publishAt.addingTimeInterval(3600))])
            clock.advance(to: publishAt.addingTimeInterval(3600))
            // Check: the feed sends chewy without it.
            _ = try await eventually {
                try await ChangeFeedTests.changes(client, since: shown.cursor).status
            } until: {
                $0 != .notModified
            }
            var after = shown.groups
            _ = try await ChangeFeedTests.catchUp(client, &after, from: shown.cursor)
            #expect(after.first { $0.id == "chewy" }?.stickers.contains { $0.id == id } == false)
            #expect(
                after.first { $0.id == "chewy" }?.stickers.count == groups.first { $0.id == "chewy" }!.stickers.count
                    - 1)
        }
    }

    @Test func writesOfThePreviousReleaseStillMeanTheAdminsChoice() async throws {
        try await withApp(demo: true) { _, db in
            // Action: what a replica of the previous release writes during a rolling update: `published` alone.
            try await db.execute(
                "INSERT INTO sticker_groups (id, name, position, published) VALUES ('old-draft', 'Old draft', 3, false)"
            )
            try await db.execute("UPDATE sticker_groups SET published = false WHERE id = 'chewy'")
            // Check: a draft stays a draft, and an unpublished group is unlisted, not published again by the trigger.
            #expect(
                try await db.count(
                    "SELECT count(*)::int FROM sticker_groups WHERE id = 'old-draft' AND NOT listed AND NOT published")
                    == 1)
            #expect(
                try await db.count(
                    "SELECT count(*)::int FROM sticker_groups WHERE id = 'chewy' AND NOT listed AND NOT published") == 1
            )
            try await db.execute("UPDATE sticker_groups SET published = true WHERE id = 'chewy'")
            #expect(
                try await db.count(
                    "SELECT count(*)::int FROM sticker_groups WHERE id = 'chewy' AND listed AND published") == 1)
        }
    }

    @Test func aReplicaWhoseClockRunsFastPublishesNothingEarly() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, db in
            // Setup
            try await Self.createGroup(client, publishAt: publishAt)
            // Action: a replica a day ahead applies its moment, believed at most 2 s ahead as the system clock is.
            let tomorrow = RFC3339.string(clock.now().addingTimeInterval(86_400))
            try await db.execute("SELECT apply_schedule('\(tomorrow)', interval '2 seconds')")
            // Check: nothing published, and the moment applied is no later than the database's clock allows.
            #expect(
                try await db.count("SELECT count(*)::int FROM sticker_groups WHERE id = '\(Self.group)' AND published")
                    == 0)
            #expect(
                try await db.count(
                    "SELECT count(*)::int FROM catalog_schedule WHERE applied_at > now() + interval '1 minute'") == 0)
        }
    }

    @Test func aScheduledDraftStaysInvisibleAtItsMoment() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, db in
            // Setup
            try await Self.createGroup(client, publishAt: publishAt, published: false)
            let before = try await DraftPrivacyTests.revision(db)
            // Action: its moment passes, and the schedule is applied.
            clock.advance(to: publishAt.addingTimeInterval(1))
            try await db.execute("SELECT apply_schedule('\(RFC3339.string(publishAt.addingTimeInterval(1)))')")
            // Check: still a draft: not shown, not previewed, no revision.
            #expect(try await !Self.shown(client).groups.contains(Self.group))
            let preview = try await client.execute(
                uri: "/v1/admin/manifest?at=\(RFC3339.string(publishAt.addingTimeInterval(60)))",
                method: .get, headers: admin)
            #expect(preview.status == .ok && !String(buffer: preview.body).contains(Self.group))
            #expect(try await DraftPrivacyTests.revision(db) == before)
        }
    }

    @Test func thePreviewShowsAnyMomentWithWhatIsScheduledNow() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        let unpublishAt = publishAt.addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, _ in
            // Setup
            try await Self.createGroup(client, publishAt: publishAt, unpublishAt: unpublishAt)
            _ = try await DraftPrivacyTests.upload(client, into: Self.group, name: "Bauble")
            func preview(_ at: Date?, _ query: String = "") async throws -> [String: Any] {
                let uri = "/v1/admin/manifest?" + (at.map { "at=\(RFC3339.string($0))&" } ?? "") + query
                let response = try await client.execute(uri: uri, method: .get, headers: admin)
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                return response.json
            }
            func ids(_ manifest: [String: Any]) -> [String] {
                (manifest["groups"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            // Action and check: before, during, at the end (exclusive), now.
            #expect(!ids(try await preview(publishAt.addingTimeInterval(-1))).contains(Self.group))
            let during = try await preview(publishAt, "locale=fr&filter=chocoholic")
            #expect(during["locale"] as? String == "fr")
            #expect(ids(try await preview(publishAt)).contains(Self.group))
            #expect(ids(try await preview(unpublishAt.addingTimeInterval(-0.001))).contains(Self.group))
            #expect(!ids(try await preview(unpublishAt)).contains(Self.group))
            #expect(!ids(try await preview(nil)).contains(Self.group))
            // Its pictures load from the preview: signed, as they are not free to anyone yet.
            let shownThen = (try await preview(publishAt)["groups"] as? [[String: Any]] ?? []).first {
                $0["id"] as? String == Self.group
            }
            let url = try #require(
                ((shownThen?["stickers"] as? [[String: Any]])?.first?["asset"] as? [String: Any])?["url"] as? String)
            #expect(url.contains("sig="))
            #expect(try await client.execute(uri: url, method: .get).status == .ok)
            // The preview at a moment equals the manifest at that moment, apart from revision and cursor.
            let previewed = try await preview(publishAt)
            clock.advance(to: publishAt)
            #expect(try await Self.eventuallyShows(client) { $0.contains(Self.group) })
            let live = try await client.execute(uri: "/v1/manifest", method: .get).json
            #expect(ids(previewed) == ids(live))
            // Needs an admin.
            #expect(try await client.execute(uri: "/v1/admin/manifest", method: .get).status == .unauthorized)
        }
    }

    @Test func aSearchAnswerIsNeverCachedPastTheNextBoundary() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, _ in
            // Setup: a boundary an hour ahead; far away, answers keep their usual max-age.
            try await Self.createGroup(client, publishAt: publishAt)
            clock.advance(to: clock.now().addingTimeInterval(1))  // the scheduler learns of the boundary
            // Action: three seconds before it.
            clock.advance(to: publishAt.addingTimeInterval(-3))
            // Check: max-age at most 3 (the scheduler names the boundary within its next round).
            let cacheControl = try await eventually {
                try await SearchTests.search(client, "chocolate").headers[.cacheControl] ?? ""
            } until: {
                $0.contains("max-age=") && !$0.contains("max-age=5")
            }
            let maxAge = Int(cacheControl.split(separator: "max-age=").last?.prefix { $0.isNumber } ?? "")
            #expect(maxAge != nil && maxAge! <= 3, "\(cacheControl)")
        }
    }

    @Test func badSchedulesAreRefusedAndChangeNothing() async throws {
        try await withApp(demo: true) { client, db in
            // Setup
            let before = try await db.count("SELECT count(*)::int FROM sticker_groups")
            let sticker = try #require(try await ChangeFeedTests.manifest(client).groups.first?.stickers.first?.id)
            let bad: [[String: Any]] = [
                ["publishAt": "2026-12-24T00:00:00Z", "unpublishAt": "2026-12-23T00:00:00Z"],
                ["publishAt": "2026-12-24T00:00:00Z", "unpublishAt": "2026-12-24T00:00:00Z"],
                ["publishAt": "next Tuesday"], ["unpublishAt": "2026-13-01T00:00:00Z"],
                ["publishAt": "1970-01-01T00:00:00Z"],
                ["publishAt": "3000-01-01T00:00:00Z"], ["publishAt": String(repeating: "9", count: 5000)],
            ]
            for fields in bad {
                // Action: a new group, a group's patch, a sticker's patch.
                var body = fields
                body["id"] = "bad-schedule"
                body["name"] = "Bad"
                let created = try await client.execute(
                    uri: "/v1/admin/groups", method: .post, headers: admin, body: Body.json(body))
                let patched = try await client.execute(
                    uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(fields))
                let sticky = try await client.execute(
                    uri: "/v1/admin/stickers/\(sticker)", method: .patch, headers: admin, body: Body.json(fields))
                // Check: each refused as a malformed request, 400 invalid_schedule naming the field.
                for response in [created, patched, sticky] {
                    #expect(response.status == .badRequest, "\(fields)")
                    #expect(response.problemCode == "invalid_schedule")
                    #expect((response.json["errors"] as? [[String: Any]])?.isEmpty == false)
                }
            }
            // A number is not a date-time: the body does not decode (400 invalid_body).
            let number = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["publishAt": 1_766_534_400]))
            #expect(number.status == .badRequest && number.problemCode == "invalid_body")
            // A patch that sets only the end, before the stored start, is refused by the database's rule.
            try await ChangeFeedTests.patch(client, "groups/chewy", ["publishAt": "2026-12-24T00:00:00Z"])
            let early = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["unpublishAt": "2026-12-01T00:00:00Z"]))
            #expect(early.status == .badRequest && early.problemCode == "invalid_schedule")
            #expect((early.json["detail"] as? String ?? "").contains("unpublishAt must be later than publishAt"))
            let preview = try await client.execute(uri: "/v1/admin/manifest?at=yesterday", method: .get, headers: admin)
            #expect(preview.status == .badRequest && preview.problemCode == "invalid_parameter")
            // A user id counted as openapi.yaml's maxLength counts: 255 é, each an e and a combining accent, are 510
            // code points (255 graphemes): too long; 255 precomposed é are not.
            let decomposed = String(repeating: "e%CC%81", count: 255)
            let long = try await client.execute(
                uri: "/v1/admin/manifest?user=\(decomposed)", method: .get, headers: admin)
            #expect(long.status == .badRequest && long.problemCode == "invalid_parameter")
            let precomposed = String(repeating: "%C3%A9", count: 255)
            let fits = try await client.execute(
                uri: "/v1/admin/manifest?user=\(precomposed)", method: .get, headers: admin)
            #expect(fits.status == .ok)
            // A bad date beside another bad field: every bad field of the body is named, as validation_failed.
            let mixed = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["name": "", "publishAt": "tomorrow"]))
            #expect(mixed.status == .unprocessableContent && mixed.problemCode == "validation_failed")
            #expect((mixed.json["errors"] as? [[String: Any]])?.count == 2)
            // Check: nothing stored changed but the one good patch.
            #expect(try await db.count("SELECT count(*)::int FROM sticker_groups") == before)
            #expect(try await db.count("SELECT count(*)::int FROM sticker_groups WHERE unpublish_at IS NOT NULL") == 0)
            #expect(
                try await db.count(
                    "SELECT count(*)::int FROM stickers WHERE publish_at IS NOT NULL OR unpublish_at IS NOT NULL") == 0)
            // A null clears it.
            try await ChangeFeedTests.patch(client, "groups/chewy", ["publishAt": NSNull()])
            #expect(try await db.count("SELECT count(*)::int FROM sticker_groups WHERE publish_at IS NOT NULL") == 0)
        }
    }

    @Test func rfc3339DatesAreReadAsTheStandardSays() throws {
        let christmas = Date(timeIntervalSince1970: 1_766_534_400)  // 2025-12-24T00:00:00Z
        #expect(RFC3339.date("2025-12-24T00:00:00Z") == christmas)
        #expect(RFC3339.date("2025-12-24t00:00:00z") == christmas)
        #expect(RFC3339.date("2025-12-24T01:30:00+01:30") == christmas)
        #expect(RFC3339.date("2025-12-23T23:00:00-01:00") == christmas)
        #expect(RFC3339.date("2025-12-24T00:00:00.250Z") == christmas.addingTimeInterval(0.25))
        #expect(RFC3339.date("2024-02-29T00:00:00Z") != nil && RFC3339.date("2025-02-29T00:00:00Z") == nil)
        #expect(RFC3339.date("1900-02-29T00:00:00Z") == nil && RFC3339.date("2000-02-29T00:00:00Z") != nil)
        for bad in [
            "2025-12-24", "2025-12-24T00:00:00", "2025-13-01T00:00:00Z", "2025-04-31T00:00:00Z", "2025-12-24T24:00:00Z",
            "2025-12-24T00:00:00.Z", "2025-12-24T00:00:00+1:00", "2025-12-24T00:00:00Z ", "２０２５-12-24T00:00:00Z", "",
        ] {
            #expect(RFC3339.date(bad) == nil, "\(bad)")
        }
        // Every day of four years, against Foundation's reader.
        let foundation = ISO8601DateFormatter()
        for day in stride(from: 1_704_067_200.0, to: 1_830_297_600, by: 86_400 + 3_601) {
            let text = foundation.string(from: Date(timeIntervalSince1970: day))
            #expect(RFC3339.date(text) == foundation.date(from: text), "\(text)")
        }
    }

    @Test func aHiddenGroupCreatedMovedAndDeletedAmongPublishedOnesIsNoVisibleChange() async throws {
        try await withApp(demo: true) { client, db in
            // Setup
            let first = try await ChangeFeedTests.manifest(client)
            let before = try await DraftPrivacyTests.revision(db)
            // Action: a draft that sorts first (every published group's stored position moves), moved, deleted.
            let created = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json(["id": "aardvark", "name": "Aardvark", "published": false]))
            #expect(created.status == .created && created.json["position"] as? Int == 0)
            try await ChangeFeedTests.patch(client, "groups/aardvark", ["position": 2])
            #expect(
                try await client.execute(uri: "/v1/admin/groups/aardvark", method: .delete, headers: admin).status
                    == .noContent)
            // Check: no revision, nothing logged, the feed has nothing new.
            #expect(try await DraftPrivacyTests.revision(db) == before)
            #expect(try await db.count("SELECT count(*)::int FROM catalog_changes WHERE revision > \(before)") == 0)
            #expect(try await ChangeFeedTests.changes(client, since: first.cursor).status == .notModified)
        }
    }

    @Test func aGroupAppearingInTheMiddleMovesTheOnesAfterItThroughTheFeed() async throws {
        let clock = ManualClock()
        let publishAt = clock.now().addingTimeInterval(3600)
        try await withApp(demo: true, options: { $0.database.scheduleClock = clock }) { client, db in
            // Setup: a client's manifest; a group scheduled at the first place (it shifts every stored position).
            let first = try await ChangeFeedTests.manifest(client)
            let before = try await DraftPrivacyTests.revision(db)
            let created = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json([
                    "id": Self.group, "name": "Christmas", "position": 0,
                    "publishAt": RFC3339.string(publishAt),
                ]))
            #expect(created.status == .created)
            _ = try await DraftPrivacyTests.upload(client, into: Self.group, name: "Bauble")
            #expect(try await DraftPrivacyTests.revision(db) == before)
            // Action: its moment.
            clock.advance(to: publishAt)
            #expect(try await Self.eventuallyShows(client) { $0.first == Self.group })
            // Check: catching up through the feed gives the manifest's groups, places included.
            var groups = first.groups
            _ = try await ChangeFeedTests.catchUp(client, &groups, from: first.cursor)
            let now = try await ChangeFeedTests.manifest(client)
            #expect(groups.map(\.id) == now.groups.map(\.id))
            #expect(
                groups.map(\.position) == now.groups.map(\.position)
                    && now.groups.map(\.position) == Array(0..<now.groups.count))
            #expect(try await DraftPrivacyTests.revision(db) == before + 1)
        }
    }
}
