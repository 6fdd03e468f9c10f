import CatalogApp
import CatalogCore
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/usage` through the API: counting, across replicas, what is ignored, bad batches.
@Suite struct UsageRecordingTests {
    @Test func twoReplicasCountingTheSameStickerLoseNothing() async throws {
        try await withReplicas(options: Usage.quick) { first, second in
            let caramel = try #require(try await Usage.ids(first)["Caramel"])
            // Action: both replicas take sends of one sticker at once, flushing every 100 ms into the same buckets.
            async let a: Void = Usage.send(first, caramel, times: 300)
            async let b: Void = Usage.send(second, caramel, times: 200)
            _ = try await (a, b)
            // Check: the store holds every one of them (read through a third pool: the stats route).
            let total = try await eventually {
                try await Self.statsTotal(first, sticker: caramel)
            } until: {
                $0 >= 500
            }
            #expect(total == 500)
        }
    }

    /// The sticker's sends today, as the admin's stats give them.
    static func statsTotal(_ client: some TestClientProtocol, sticker: String) async throws -> Int {
        let response = try await client.execute(
            uri: "/v1/admin/stats/stickers?sticker=\(sticker)", method: .get, headers: admin)
        let rows = response.json["rows"] as? [[String: Any]] ?? []
        return rows.first?["total"] as? Int ?? 0
    }

    @Test func hiddenUnknownDeletedAndStaleEventsAreIgnoredAndAnsweredTheSame() async throws {
        try await withApp(demo: true, options: Usage.quick) { client, db in
            let ids = try await Usage.ids(client)
            let (caramel, lollipop) = (try #require(ids["Caramel"]), try #require(ids["Lollipop"]))
            try await DraftPrivacyTests.createDraft(client)
            let draft = try await DraftPrivacyTests.upload(client, into: DraftPrivacyTests.draft, name: "Teaser")
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(lollipop)", method: .delete, headers: admin).status
                    == .noContent)
            // Action: a batch naming a visible sticker, a draft's, a deleted one, one that never existed, and the
            // visible one at moments too old and too far ahead.
            let visible = try await Usage.post(client, [Usage.event(caramel)])
            let hidden = try await Usage.post(
                client,
                [
                    Usage.event(draft), Usage.event(lollipop), Usage.event(UUID().uuidString),
                    Usage.event(caramel, at: Date().addingTimeInterval(-49 * 3600)),
                    Usage.event(caramel, at: Date().addingTimeInterval(3600)),
                ])
            // Check: the same answer for both (no oracle), and only the visible, timely send is stored.
            #expect(visible.status == .accepted && hidden.status == .accepted)
            #expect(hidden.json["received"] as? Int == 5)
            #expect(PremiumManifestTests.fields(visible) == PremiumManifestTests.fields(hidden))
            _ = try await eventually {
                try await Usage.stored(db, caramel)
            } until: {
                $0 == 1
            }
            try await Task.sleep(for: .milliseconds(300))  // three more flushes: nothing else comes
            #expect(try await db.count("SELECT count(*)::bigint FROM sticker_usage") == 1)
            #expect(try await Usage.stored(db, caramel) == 1)
            // Nor does trending show anything but it.
            let shown = try await eventually {
                try await Usage.trending(client)
            } until: {
                !$0.isEmpty
            }
            #expect(shown == [caramel])
        }
    }

    @Test func badBatchesAreRefusedNamingTheFieldAndCountNothing() async throws {
        try await withApp(demo: true, options: Usage.quick) { client, db in
            let caramel = try #require(try await Usage.ids(client)["Caramel"])
            func post(_ body: ByteBuffer) async throws -> TestResponse {
                try await client.execute(uri: "/v1/usage", method: .post, body: body)
            }
            let notJSON = try await post(ByteBuffer(string: "sent it"))
            #expect(notJSON.status == .badRequest && notJSON.problemCode == "invalid_body")
            let noEvents = try await post(Body.json(["events": [] as [Any]]))
            #expect(noEvents.status == .unprocessableContent && Self.fields(noEvents) == ["events"])
            let tooMany = try await post(Body.json(["events": Array(repeating: Usage.event(caramel), count: 101)]))
            #expect(tooMany.status == .unprocessableContent && Self.fields(tooMany) == ["events"])
            var wrong = Usage.event(caramel)
            (wrong["action"], wrong["at"]) = ("liked", "yesterday")
            let fields = try await post(
                Body.json([
                    "events": [
                        Usage.event(caramel), wrong, ["sticker": 7, "action": "sent", "at": 1] as [String: Any],
                    ]
                ]))
            #expect(fields.status == .unprocessableContent && fields.problemCode == "validation_failed")
            #expect(Self.fields(fields) == ["events[1].action", "events[1].at", "events[2].sticker", "events[2].at"])
            let huge = try await post(
                ByteBuffer(string: "{\"events\":[" + String(repeating: " ", count: 40_000) + "]}"))
            #expect(huge.status == .contentTooLarge && huge.problemCode == "too_large")
            // Nothing of any of them was counted, not even the good event in a refused batch.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await db.count("SELECT count(*)::bigint FROM sticker_usage") == 0)
        }
    }

    /// The fields a problem names, in order.
    static func fields(_ response: TestResponse) -> [String] {
        (response.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }
}
