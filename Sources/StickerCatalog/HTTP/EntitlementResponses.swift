import Foundation
import Hummingbird
import Purchases

/// A transaction as the API shows it.
struct TransactionView: ResponseEncodable, Equatable {
    var source: String
    var environment: String
    var transactionId: String
    var originalTransactionId: String
    var productId: String
    var purchasedAt: Date
    var expiresAt: Date?
    var revokedAt: Date?
    /// When the newest event about it was signed.
    var asOf: Date
    var active: Bool

    init(_ stored: PurchaseRecord, now: Date, sandbox: Bool) {
        let r = stored.record
        (source, environment, transactionId, originalTransactionId, productId) = (stored.source, stored.environment, r.transactionId,
                                                                                  r.originalTransactionId, r.productId)
        (purchasedAt, expiresAt, revokedAt, asOf) = (r.purchasedAt, r.expiresAt, r.revokedAt, r.asOf)
        active = !Entitlements.held([stored], at: now, sandbox: sandbox).isEmpty
    }
}

/// A product the user holds: until when (null: no end) and the transactions that grant it.
struct EntitlementView: ResponseEncodable, Equatable {
    var productId: String
    var expiresAt: Date?
    var grantedBy: [TransactionView]
}

/// `GET /v1/me/entitlements`, and the admin's view of a user (with every transaction, active or not).
struct EntitlementList: ResponseEncodable {
    var userId: String
    var entitlements: [EntitlementView]
    var transactions: [TransactionView]?

    init(user: String, records: [PurchaseRecord], now: Date, sandbox policy: SandboxPolicy, allTransactions: Bool) {
        userId = user
        let sandbox = policy.counts(for: user)
        entitlements = Entitlements.held(records, at: now, sandbox: sandbox).map { held in
            EntitlementView(productId: held.productId, expiresAt: held.expiresAt,
                            grantedBy: held.grantedBy.map { TransactionView($0, now: now, sandbox: sandbox) })
        }
        transactions = allTransactions ? records.map { TransactionView($0, now: now, sandbox: sandbox) } : nil
    }
}

/// `GET /v1/me/purchase-token`.
struct PurchaseTokenResponse: ResponseEncodable {
    var userId: String
    /// Pass to StoreKit as `appAccountToken`.
    var purchaseToken: String
}

/// What a stored delivery came to.
struct DeliveryResponse: ResponseEncodable {
    var id: Int64
    var status: WebhookStatus
    var duplicate: Bool
}

struct AuditPage: ResponseEncodable {
    var entries: [AuditEntry]
    /// Pass as `before` for the next (older) page; null on the last.
    var nextBefore: Int64?
}

struct WebhookEventPage: ResponseEncodable {
    var events: [WebhookEvent]
    var nextBefore: Int64?
}

extension WebhookEvent: ResponseEncodable {}
