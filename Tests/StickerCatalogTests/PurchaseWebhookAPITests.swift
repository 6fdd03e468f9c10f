import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The generic signed webhook and RevenueCat's, through HTTP on a real database; quarantine and replay.
@Suite struct PurchaseWebhookAPITests {
    static func event(
        _ id: String, _ type: String, user: String = "dana", transaction: String = "g1", at: Date = Date()
    ) -> [String: Any] {
        [
            "id": id, "type": type, "userId": user, "productId": Purchasing.product, "transactionId": transaction,
            "occurredAt": at.timeIntervalSince1970.rounded(),
        ]
    }

    static func send(
        _ client: some TestClientProtocol, _ delivery: (ByteBuffer, HTTPFields), to path: String = "purchases"
    ) async throws -> TestResponse {
        try await client.execute(uri: "/v1/webhooks/\(path)", method: .post, headers: delivery.1, body: delivery.0)
    }

    @Test func theSignatureWindowHoldsAndAStaleDeliveryCanBeReplayed() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            let dana = try await Purchasing.user("dana")
            // A delivery signed 10 minutes ago (a backend's retry queue), and one from 10 minutes ahead.
            let old = try await Self.send(client, Purchasing.generic(Self.event("e1", "purchase"), at: Date() - 600))
            let ahead = try await Self.send(client, Purchasing.generic(Self.event("e2", "purchase"), at: Date() + 600))
            let otherSecret = try await Self.send(
                client, Purchasing.generic(Self.event("e3", "purchase"), secret: Array("someone-else".utf8)))
            #expect(old.status == .unauthorized && ahead.status == .unauthorized && otherSecret.status == .unauthorized)
            #expect(try await Purchasing.held(client, dana).isEmpty)
            // The operator replays the first: its signature still holds, its age no longer matters.
            let id = try await db.count(
                "SELECT id FROM webhook_events WHERE quarantined AND convert_from(body, 'UTF8') LIKE '%\"e1\"%' ORDER BY id LIMIT 1"
            )
            let replayed = try await client.execute(
                uri: "/v1/admin/webhook-events/\(id)/replay", method: .post, headers: admin)
            #expect(replayed.status == .ok && replayed.json["status"] as? String == "applied")
            #expect(try await Purchasing.held(client, dana) == [Purchasing.product])
            // A replay of the forged one is still refused.
            let forged = try await db.count(
                "SELECT id FROM webhook_events WHERE quarantined AND status = 'unauthorized' ORDER BY id DESC LIMIT 1")
            #expect(
                try await client.execute(
                    uri: "/v1/admin/webhook-events/\(forged)/replay", method: .post, headers: admin
                ).status == .unauthorized)
        }
    }

    @Test func genericRefundAndReversalAndMalformedBodies() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            let dana = try await Purchasing.user("dana")
            let start = Date() - 60
            #expect(
                try await Self.send(client, Purchasing.generic(Self.event("p", "purchase", at: start))).status == .ok)
            #expect(
                try await Self.send(client, Purchasing.generic(Self.event("r", "refund", at: start + 10))).status == .ok
            )
            #expect(try await Purchasing.held(client, dana).isEmpty)
            #expect(
                try await Self.send(client, Purchasing.generic(Self.event("rr", "refund_reversed", at: start + 20)))
                    .status == .ok)
            #expect(try await Purchasing.held(client, dana) == [Purchasing.product])
            let unknown = try await Self.send(client, Purchasing.generic(["id": "x", "type": "chargeback.created"]))
            #expect(unknown.status == .ok && unknown.json["status"] as? String == "ignored")
            let malformed = try await Self.send(
                client, Purchasing.generic(["id": "y", "type": "purchase", "userId": "dana"]))
            #expect(malformed.status == .badRequest && malformed.problemCode == "invalid_event")
            let notJSON = try await client.execute(
                uri: "/v1/webhooks/purchases", method: .post, headers: Purchasing.generic([:]).1,
                body: ByteBuffer(string: "not json"))
            #expect(notJSON.status == .unauthorized)
            let tooBig = try await client.execute(
                uri: "/v1/webhooks/purchases", method: .post, headers: Purchasing.generic([:]).1,
                body: ByteBuffer(repeating: 0x20, count: 65 * 1024))
            #expect(tooBig.status == .contentTooLarge)
            #expect(try await db.count("SELECT count(*) FROM webhook_events WHERE status = 'malformed'") == 1)
        }
    }

    /// A RevenueCat event `at` milliseconds after the start of the test.
    static func revenueCat(
        _ id: String, _ type: String, user: String, at offset: Int64 = 0, extra: [String: Any] = [:]
    ) -> [String: Any] {
        let now = start
        return [
            "id": id, "type": type, "app_user_id": user, "original_app_user_id": user, "aliases": [user],
            "product_id": Purchasing.product,
            "transaction_id": "rc1", "original_transaction_id": "rc1", "purchased_at_ms": now - 1000,
            "expiration_at_ms": now + 86_400_000, "event_timestamp_ms": start + offset, "environment": "PRODUCTION",
        ]
        .merging(extra) { $1 }
    }

    static let start = Int64(Date().timeIntervalSince1970 * 1000)

    @Test func revenueCatRefundsTransfersAndAuthorization() async throws {
        try await withApp(options: try await Purchasing.options()) { client, _ in
            let (erin, frank) = (try await Purchasing.user("erin"), try await Purchasing.user("frank"))
            var forged = Purchasing.revenueCat(Self.revenueCat("a", "INITIAL_PURCHASE", user: "erin"))
            forged.1[.authorization] = "Bearer guess"
            #expect(try await Self.send(client, forged, to: "revenuecat").status == .unauthorized)
            #expect(
                try await Self.send(
                    client, Purchasing.revenueCat(Self.revenueCat("b", "INITIAL_PURCHASE", user: "erin")),
                    to: "revenuecat"
                ).status == .ok)
            #expect(try await Purchasing.held(client, erin) == [Purchasing.product])
            // Erin logs in on another account: RevenueCat moves her purchases to frank.
            let transfer = Self.revenueCat(
                "c", "TRANSFER", user: "frank", extra: ["transferred_from": ["erin"], "transferred_to": ["frank"]])
            #expect(try await Self.send(client, Purchasing.revenueCat(transfer), to: "revenuecat").status == .ok)
            #expect(try await Purchasing.held(client, erin).isEmpty)
            #expect(try await Purchasing.held(client, frank) == [Purchasing.product])
            // An unsubscribe leaves the paid period; a refund by customer support ends it.
            let unsubscribe = Self.revenueCat(
                "d", "CANCELLATION", user: "frank", at: 100, extra: ["cancel_reason": "UNSUBSCRIBE"])
            #expect(try await Self.send(client, Purchasing.revenueCat(unsubscribe), to: "revenuecat").status == .ok)
            #expect(try await Purchasing.held(client, frank) == [Purchasing.product])
            let refund = Self.revenueCat(
                "e", "CANCELLATION", user: "frank", at: 200, extra: ["cancel_reason": "CUSTOMER_SUPPORT"])
            #expect(try await Self.send(client, Purchasing.revenueCat(refund), to: "revenuecat").status == .ok)
            #expect(try await Purchasing.held(client, frank).isEmpty)
            #expect(
                try await Self.send(
                    client, Purchasing.revenueCat(Self.revenueCat("f", "TEST", user: "x")), to: "revenuecat"
                ).json["status"] as? String == "ignored")
            // An event older than what is known (a retried INITIAL_PURCHASE) changes nothing.
            let retried = Self.revenueCat("g", "INITIAL_PURCHASE", user: "frank", at: -50)
            #expect(
                try await Self.send(client, Purchasing.revenueCat(retried), to: "revenuecat").json["status"] as? String
                    == "stale")
            #expect(try await Purchasing.audit(client, user: "frank") == ["transfer", "update", "revoke", "stale"])
        }
    }

    @Test func everyKindOfRefusalIsKeptOnlyUpToTheLimitOldestFirst() async throws {
        let purchases = try await Purchasing.options()
        try await withApp(options: {
            purchases(&$0)
            $0.limits.quarantinedDeliveries = 3
        }) { client, db in
            // Setup: an App Store delivery refused for another bundle, as during a misconfiguration (kept throughout).
            var genuine = AppStore.Transaction(
                transactionId: "g", originalTransactionId: "g", purchaseDate: millis(), signedDate: millis())
            genuine.bundleId = "com.example.misconfigured"
            let refused = try await client.execute(
                uri: "/v1/webhooks/apple/sandbox", method: .post,
                body: ByteBuffer(bytes: try await AppStore.notification("ONE_TIME_CHARGE", genuine)))
            #expect(refused.status == .unprocessableContent)
            // A signed delivery whose id is then reused by other bodies, five times: conflicts, signed, yet bounded.
            #expect(try await Self.send(client, Purchasing.generic(Self.event("c", "purchase"))).status == .ok)
            for n in 1...5 {
                #expect(
                    try await Self.send(client, Purchasing.generic(Self.event("c", "refund", transaction: "c\(n)")))
                        .status == .conflict)
            }
            // Action: five forgeries and a body that is not an App Store notification at all.
            for n in 1...5 {
                let forged = try await Self.send(
                    client, Purchasing.generic(Self.event("f\(n)", "purchase"), secret: Array("guess".utf8)))
                #expect(forged.status == .unauthorized)
            }
            let garbage = try await client.execute(
                uri: "/v1/webhooks/apple/sandbox", method: .post, body: ByteBuffer(string: "{}"))
            #expect(garbage.status == .badRequest)
            // Check: the newest three forgeries, the malformed body, the newest three conflicts; the App Store refusal
            // and the inbox untouched.
            let kept = try await db.strings(
                """
                SELECT coalesce(substring(convert_from(body, 'UTF8') from '"id":"(f[0-9])"'), status) FROM webhook_events WHERE status IN ('unauthorized', 'malformed') ORDER BY id
                """)
            #expect(kept == ["f3", "f4", "f5", "malformed"])
            #expect(
                try await db.strings(
                    """
                    SELECT substring(convert_from(body, 'UTF8') from '"transactionId":"(c[0-9])"') FROM webhook_events WHERE status = 'conflict' ORDER BY id
                    """) == ["c3", "c4", "c5"])
            #expect(
                try await db.count("SELECT count(*) FROM webhook_events WHERE status = 'rejected' AND source = 'apple'")
                    == 1)
            #expect(try await db.count("SELECT count(*) FROM webhook_events WHERE NOT quarantined") == 1)
        }
    }

    @Test func aDeliveryLeftReceivedIsSweptAndApplied() async throws {
        let purchases = try await Purchasing.options()
        // (The app's own sweeper waits an hour: in a busy suite its 30 s round could come first and take the test's.)
        try await withApp(options: {
            purchases(&$0)
            $0.database.deliverySweepInterval = .seconds(3600)
        }) { client, db in
            // Setup: two stored deliveries whose apply never ran (the process stopped in between): one twenty minutes
            // old, one just in. (The sweeps take those older than ten minutes: a busy suite cannot age the fresh one.)
            for (id, age) in [("s1", 1200), ("s2", 0)] {
                let (body, headers) = Purchasing.generic(Self.event(id, "purchase", user: "sam-\(id)", transaction: id))
                let bytes = Array(buffer: body)
                let hex = bytes.map { String(format: "%02x", $0) }.joined()
                try await db.execute(
                    """
                    INSERT INTO webhook_events (source, environment, event_id, body, body_sha256, signature, quarantined, status, received_at)
                    VALUES ('generic', 'production', '\(id)', decode('\(hex)', 'hex'), '\(sha256Hex(bytes))',
                            '\(headers[HTTPField.Name("Sticker-Signature")!] ?? "")', false, 'received', now() - interval '\(age) seconds')
                    """)
            }
            var options = ServiceOptions()
            purchases(&options)
            let intake = PurchaseIntake(
                repository: PostgresPurchases(
                    store: PostgresStore(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)),
                configuration: options.purchases)
            // Action
            let swept = try await intake.sweep(olderThan: 600)
            let again = try await intake.sweep(olderThan: 600)
            // Check: the old one is applied (signature checked again, not its age); the fresh one waits.
            #expect(swept == 1 && again == 0)
            #expect(try await db.strings("SELECT status FROM webhook_events ORDER BY id") == ["applied", "received"])
            #expect(try await Purchasing.held(client, try await Purchasing.user("sam-s1")) == [Purchasing.product])
            #expect(try await Purchasing.held(client, try await Purchasing.user("sam-s2")).isEmpty)
        }
    }
}
