import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// Times no calendar holds (year 292 million, before 1970) in otherwise valid deliveries: 400 `invalid_event`, kept in
/// quarantine, never a crash (PostgresNIO traps on a date past Int64 microseconds) nor a stored purchase.
@Suite struct PurchaseDateTests {
    @Test func genericRevenueCatAndAdminTimesOutsideTheCalendarAreRefused() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            // Setup: signed deliveries with impossible times.
            var generic: [[String: Any]] = []
            for (at, expires) in [(1e300, 1e9), (-1e300, 1e9), (1e9, 1e18), (-1.0, 1e9)] {
                generic.append([
                    "id": "g\(generic.count)", "type": "purchase", "userId": "zed", "productId": Purchasing.product,
                    "transactionId": "t\(generic.count)", "occurredAt": at, "expiresAt": expires,
                ])
            }
            let revenueCat: [[String: Any]] = [Int64.max, Int64.min, 1 << 53].enumerated().map { n, millis in
                [
                    "id": "r\(n)", "type": "INITIAL_PURCHASE", "app_user_id": "zed", "product_id": Purchasing.product,
                    "transaction_id": "rc\(n)", "purchased_at_ms": millis, "event_timestamp_ms": 1_800_000_000_000,
                    "environment": "PRODUCTION",
                ]
            }
            // Action and check
            for event in generic {
                let (body, headers) = Purchasing.generic(event)
                let response = try await client.execute(
                    uri: "/v1/webhooks/purchases", method: .post, headers: headers, body: body)
                #expect(response.status == .badRequest && response.problemCode == "invalid_event", "\(event)")
            }
            for event in revenueCat {
                let (body, headers) = Purchasing.revenueCat(event)
                let response = try await client.execute(
                    uri: "/v1/webhooks/revenuecat", method: .post, headers: headers, body: body)
                #expect(response.status == .badRequest && response.problemCode == "invalid_event", "\(event)")
            }
            let grant = try await client.execute(
                uri: "/v1/admin/users/zed/entitlements", method: .post, headers: admin,
                body: Body.json(["productId": Purchasing.product, "expiresAt": "0001-01-01T00:00:00Z"]))
            #expect(grant.status == .unprocessableContent && grant.problemCode == "validation_failed")
            #expect(try await db.count("SELECT count(*) FROM purchases") == 0)
            #expect(try await db.count("SELECT count(*) FROM webhook_events WHERE status = 'malformed'") == 7)
        }
    }

    @Test func appStoreTimesOutsideTheCalendarAre400() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            // Setup: a notification signed "in" year 292 million, and a well-dated one about a purchase made then.
            let now = millis()
            let farSigned = AppStore.Transaction(
                transactionId: "1", originalTransactionId: "1", purchaseDate: now, signedDate: Int64.max)
            let farPurchase = AppStore.Transaction(
                transactionId: "2", originalTransactionId: "2", purchaseDate: Int64.max, signedDate: now)
            // Action and check
            for transaction in [farSigned, farPurchase] {
                let response = try await client.execute(
                    uri: "/v1/webhooks/apple/sandbox", method: .post,
                    body: ByteBuffer(bytes: try await AppStore.notification("ONE_TIME_CHARGE", transaction)))
                #expect(
                    response.status == .badRequest && response.problemCode == "invalid_event",
                    "\(transaction.transactionId)")
            }
            #expect(try await db.count("SELECT count(*) FROM purchases") == 0)
        }
    }
}
