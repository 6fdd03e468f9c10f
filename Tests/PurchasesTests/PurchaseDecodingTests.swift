import Foundation
import PropertyBased
import Purchases
import TestSupport
import Testing

/// RevenueCat's and the generic webhook's bodies with hostile values in every field: decoding never traps, and every
/// event that passes `checked()` is one the store can hold (sane ids, times within 1970-9999).
@Suite struct PurchaseDecodingTests {
    /// Values a sender (or a bug in one) might put anywhere.
    static var hostile: [Any] {
        [
            Int64.max, Int64.min, 0, -1, 1 << 53, 1e300, -1e300, 1.5, 253_402_300_800, 253_402_300_800_000,
            1_800_000_000, 1_800_000_000_000,
            "", " ", "x", String(repeating: "y", count: 300), "\u{0}", "2026-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
            "+10000-01-01T00:00:00Z",
            "com.example.premium", "com/example", NSNull(), [String](), ["a"], [String: String](),
        ]
    }

    static var revenueCat: [String: Any] {
        [
            "id": "e1", "type": "INITIAL_PURCHASE", "app_user_id": "u", "original_app_user_id": "u", "aliases": ["u"],
            "product_id": "com.example.premium", "transaction_id": "t", "original_transaction_id": "t",
            "purchased_at_ms": 1_800_000_000_000, "expiration_at_ms": 1_800_086_400_000,
            "event_timestamp_ms": 1_800_000_000_000,
            "environment": "PRODUCTION", "cancel_reason": "CUSTOMER_SUPPORT", "transferred_from": ["u"],
            "transferred_to": ["v"],
        ]
    }

    static var generic: [String: Any] {
        [
            "id": "e1", "type": "purchase", "userId": "u", "productId": "com.example.premium", "transactionId": "t",
            "occurredAt": 1_800_000_000, "expiresAt": 1_800_086_400,
        ]
    }

    /// `template` with one to four fields replaced by hostile values (and RevenueCat's type drawn from its own).
    static func mutate(_ template: [String: Any], _ random: inout SplitMix, types: [String]) -> [UInt8] {
        var fields = template
        fields["type"] = types.randomElement(using: &random)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            fields[template.keys.randomElement(using: &random)!] = hostile.randomElement(using: &random)!
        }
        return Array(try! JSONSerialization.data(withJSONObject: fields))
    }

    static func storable(_ event: PurchaseEvent) -> Bool {
        guard !event.eventId.isEmpty else { return false }
        guard case .snapshot(let s) = event.kind else { return true }
        let times = [s.purchasedAt, s.asOf] + [s.expiresAt, s.revokedAt].compactMap { $0 }
        return times.allSatisfy(Date.purchaseTimes.contains) && !s.transactionId.isEmpty && !s.productId.isEmpty
    }

    @Test func everyCheckedEventIsStorable() async {
        let revenueCatTypes = [
            "INITIAL_PURCHASE", "RENEWAL", "CANCELLATION", "EXPIRATION", "REFUND_REVERSED", "TRANSFER", "TEST",
            "NEW_KIND",
        ]
        let genericTypes = ["purchase", "refund", "refund_reversed", "revoke", "renewal", "expire", "other"]
        await propertyCheck(count: 2000, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed)
            let bodies = [
                ("revenuecat", Self.mutate(Self.revenueCat, &random, types: revenueCatTypes)),
                ("generic", Self.mutate(Self.generic, &random, types: genericTypes)),
            ]
            for (source, body) in bodies {
                let event = try? (source == "generic" ? SignedWebhook.event(body: body) : RevenueCat.event(body: body))
                    .checked()
                #expect(event.map(Self.storable) ?? true, "seed \(seed): \(String(decoding: body, as: UTF8.self))")
            }
        }
    }
}
