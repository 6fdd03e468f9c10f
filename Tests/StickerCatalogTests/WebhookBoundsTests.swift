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
import Testing

/// What an unauthenticated sender can make the service compute and keep: a short `Sticker-Signature` with few
/// entries, a stored header of at most 1 KiB, each quarantine bounded in bytes as well as rows.
@Suite struct WebhookBoundsTests {
    static let signature = HTTPField.Name("Sticker-Signature")!

    /// A generic delivery of event `id` padded to about `bytes`, signed with `secret`.
    static func delivery(
        _ id: String, bytes: Int = 0, secret: [UInt8] = Purchasing.webhookSecret
    ) -> (ByteBuffer, HTTPFields) {
        var event = PurchaseWebhookAPITests.event(id, "purchase")
        event["note"] = String(repeating: "n", count: bytes)
        return Purchasing.generic(event, secret: secret)
    }

    @Test func aLongSignatureHeaderIsRefusedAndKeptOnlyInPart() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            // Setup: two deliveries whose right signature comes with eight more entries, or with 78 KB of padding.
            var crowded = Self.delivery("crowded")
            crowded.1[Self.signature]! += String(repeating: ",v1=" + String(repeating: "ab", count: 32), count: 8)
            var padded = Self.delivery("padded")
            padded.1[Self.signature]! += ",pad=" + String(repeating: "p", count: 78_000)
            // Action
            let answers = [
                try await PurchaseWebhookAPITests.send(client, crowded),
                try await PurchaseWebhookAPITests.send(client, padded),
            ]
            // Check: both refused as not authentic and quarantined; the header kept is at most 1 KiB, its start intact.
            for answer in answers {
                #expect(answer.status == .unauthorized && answer.problemCode == "invalid_signature")
            }
            #expect(
                try await db.count("SELECT count(*) FROM webhook_events WHERE quarantined AND status = 'unauthorized'")
                    == 2)
            #expect(try await db.count("SELECT max(octet_length(signature)) FROM webhook_events") == 1024)
            #expect(try await db.count("SELECT count(*) FROM webhook_events WHERE signature LIKE 't=%,v1=%'") == 2)
        }
    }

    @Test func eachQuarantineIsBoundedInBytesNewestKept() async throws {
        let purchases = try await Purchasing.options()
        try await withApp(options: {
            purchases(&$0)
            $0.limits.quarantinedDeliveries = 1_000
            $0.limits.quarantinedBytes = 100_000
        }) { client, db in
            // Setup: a malformed delivery, a refusal of another kind.
            let malformed = Purchasing.generic(["id": "m", "type": "purchase"])
            #expect(try await PurchaseWebhookAPITests.send(client, malformed).status == .badRequest)
            // Action: ten forgeries of 30 KB each, 300 KB in all, far under the row limit.
            for n in 1...10 {
                let forged = Self.delivery("f\(n)", bytes: 30_000, secret: Array("guess".utf8))
                #expect(try await PurchaseWebhookAPITests.send(client, forged).status == .unauthorized)
            }
            // Check: the newest forgeries within 100,000 bytes (three), and the malformed one untouched.
            let kept = try await db.strings(
                """
                SELECT substring(convert_from(body, 'UTF8') from '"id":"(f[0-9]+)"') FROM webhook_events WHERE status = 'unauthorized' ORDER BY id
                """)
            #expect(kept == ["f8", "f9", "f10"])
            let bytes = try await db.count(
                """
                SELECT sum(octet_length(body) + octet_length(signature))::bigint FROM webhook_events WHERE status = 'unauthorized'
                """)
            #expect(bytes <= 100_000)
            #expect(try await db.count("SELECT count(*) FROM webhook_events WHERE status = 'malformed'") == 1)
        }
    }
}
