import CatalogCore
import Foundation
import Hummingbird
import Purchases

/// A transaction as the API shows it.
package struct TransactionView: ResponseEncodable, Equatable {
    package var source: String
    package var environment: String
    package var transactionId: String
    package var originalTransactionId: String
    package var productId: String
    package var purchasedAt: Date
    package var expiresAt: Date?
    package var revokedAt: Date?
    /// When the newest event about it was signed.
    package var asOf: Date
    package var active: Bool

    package init(_ stored: PurchaseRecord, now: Date, sandbox: Bool) {
        let r = stored.record
        (source, environment, transactionId, originalTransactionId, productId) = (
            stored.source, stored.environment, r.transactionId,
            r.originalTransactionId, r.productId
        )
        (purchasedAt, expiresAt, revokedAt, asOf) = (r.purchasedAt, r.expiresAt, r.revokedAt, r.asOf)
        active = !Entitlements.held([stored], at: now, sandbox: sandbox).isEmpty
    }
}

/// A product the user holds: until when (null: no end) and the transactions that grant it.
package struct EntitlementView: ResponseEncodable, Equatable {
    package var productId: String
    package var expiresAt: Date?
    package var grantedBy: [TransactionView]
}

/// `GET /v1/me/entitlements`, and the admin's view of a user (with every transaction, active or not).
package struct EntitlementList: ResponseEncodable {
    package var userId: String
    package var entitlements: [EntitlementView]
    package var transactions: [TransactionView]?

    package init(
        user: String, records: [PurchaseRecord], now: Date, sandbox policy: SandboxPolicy, allTransactions: Bool
    ) {
        userId = user
        let sandbox = policy.counts(for: user)
        entitlements = Entitlements.held(records, at: now, sandbox: sandbox).map { held in
            EntitlementView(
                productId: held.productId, expiresAt: held.expiresAt,
                grantedBy: held.grantedBy.map { TransactionView($0, now: now, sandbox: sandbox) })
        }
        transactions = allTransactions ? records.map { TransactionView($0, now: now, sandbox: sandbox) } : nil
    }
}

/// `GET /v1/me/purchase-token`.
package struct PurchaseTokenResponse: ResponseEncodable {
    package var userId: String
    /// Pass to StoreKit as `appAccountToken`.
    package var purchaseToken: String
}

/// What a stored delivery came to.
package struct DeliveryResponse: ResponseEncodable {
    package var id: Int64
    package var status: WebhookStatus
    package var duplicate: Bool
}

package struct AuditPage: ResponseEncodable {
    package var entries: [AuditEntry]
    /// Pass as `before` for the next (older) page; null on the last.
    package var nextBefore: Int64?
}

package struct WebhookEventPage: ResponseEncodable {
    package var events: [WebhookEvent]
    package var nextBefore: Int64?
}

extension WebhookEvent: ResponseEncodable {}
