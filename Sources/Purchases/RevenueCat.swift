import Crypto
import Foundation

/// RevenueCat's webhook: a static `Authorization` value set in its dashboard, and `{"api_version", "event": {...}}`.
public enum RevenueCat {
    /// Whether `header` is the configured value, compared in constant time (as SHA-256 digests, so that neither the
    /// value nor its length leaks through timing).
    public static func isAuthorized(_ header: String?, expected: String) -> Bool {
        guard let header else { return false }
        return SHA256.hash(data: Array(header.utf8)) == SHA256.hash(data: Array(expected.utf8))
    }

    public static func event(body: [UInt8]) throws(PurchaseError) -> PurchaseEvent {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)), let event = envelope.event
        else {
            throw .malformed("the body must be a JSON object with an event object")
        }
        guard let id = event.id, !id.isEmpty, let type = event.type else {
            throw .malformed("the event has no id or type")
        }
        let environment = (event.environment ?? "PRODUCTION").lowercased()
        guard environment == "production" || environment == "sandbox" else {
            throw .malformed("environment must be PRODUCTION or SANDBOX")
        }
        func snapshot(revoked: Bool) throws(PurchaseError) -> PurchaseEvent {
            guard let transaction = event.transaction_id, let product = event.product_id,
                let purchased = event.purchased_at_ms,
                let at = event.event_timestamp_ms
            else {
                throw .malformed(
                    "a \(type) event needs transaction_id, product_id, purchased_at_ms and event_timestamp_ms")
            }
            let asOf = Date(millis: at)
            return PurchaseEvent(
                source: .revenueCat, environment: environment, eventId: id,
                kind: .snapshot(
                    TransactionSnapshot(
                        transactionId: transaction, originalTransactionId: event.original_transaction_id ?? transaction,
                        productId: product,
                        userId: event.app_user_id, purchasedAt: Date(millis: purchased),
                        expiresAt: expiry(event).map(Date.init(millis:)),
                        revokedAt: revoked ? asOf : nil, asOf: asOf,
                        reason: type + (event.cancel_reason.map { "/" + $0 } ?? ""))))
        }
        switch type {
        case "INITIAL_PURCHASE", "RENEWAL", "NON_RENEWING_PURCHASE", "PRODUCT_CHANGE", "UNCANCELLATION",
            "REFUND_REVERSED", "EXPIRATION",
            "SUBSCRIPTION_EXTENDED", "TEMPORARY_ENTITLEMENT_GRANT", "BILLING_ISSUE":
            return try snapshot(revoked: false)
        case "CANCELLATION":
            // A refund by customer support takes the entitlement away; any other cancellation only stops renewal,
            // and the paid period runs to its end.
            return try snapshot(revoked: event.cancel_reason == "CUSTOMER_SUPPORT")
        case "TRANSFER":
            let (from, to) = (event.transferred_from ?? [], event.transferred_to ?? [])
            guard !from.isEmpty, !to.isEmpty else {
                throw .malformed("a TRANSFER needs transferred_from and transferred_to")
            }
            return PurchaseEvent(
                source: .revenueCat, environment: environment, eventId: id, kind: .transfer(from: from, to: to))
        default:
            return PurchaseEvent(
                source: .revenueCat, environment: environment, eventId: id,
                kind: .ignored(reason: "\(type) has no effect"))
        }
    }

    /// The end of access: the paid period, or the billing grace period when RevenueCat gives a later one (a
    /// BILLING_ISSUE while the store retries the payment).
    static func expiry(_ event: Event) -> Int64? {
        guard let end = event.expiration_at_ms else { return nil }
        return max(end, event.grace_period_expiration_at_ms ?? end)
    }

    struct Envelope: Decodable {
        var api_version: String?
        var event: Event?
    }

    struct Event: Decodable {
        var id: String?
        var type: String?
        var app_user_id: String?
        var original_app_user_id: String?
        var aliases: [String]?
        var product_id: String?
        var transaction_id: String?
        var original_transaction_id: String?
        var purchased_at_ms: Int64?
        var expiration_at_ms: Int64?
        var grace_period_expiration_at_ms: Int64?
        var event_timestamp_ms: Int64?
        var environment: String?
        var cancel_reason: String?
        var transferred_from: [String]?
        var transferred_to: [String]?
    }
}
