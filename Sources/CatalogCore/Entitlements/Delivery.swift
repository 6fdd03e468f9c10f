import Foundation
import Purchases

/// One webhook delivery as it arrived: the route it came to, its raw bytes and what authenticates it.
package struct Delivery: Sendable {
    package var source: PurchaseSource
    /// The URL's environment for App Store notifications; the event's own for the other sources.
    package var environment: String
    package var body: [UInt8]
    /// The generic webhook's `Sticker-Signature` (kept, so a replay can check it again) or RevenueCat's
    /// `Authorization` (checked, never kept).
    package var credential: String?
    /// The signed-in user who posted a StoreKit transaction.
    package var user: String?

    package init(
        source: PurchaseSource, environment: String = "production", body: [UInt8], credential: String? = nil,
        user: String? = nil
    ) {
        (self.source, self.environment, self.body, self.credential, self.user) = (
            source, environment, body, credential, user
        )
    }
}

/// Where a stored delivery stands.
package enum WebhookStatus: String, Sendable, Codable, CaseIterable {
    /// Stored, not yet applied (the apply failed, or is under way).
    case received
    case applied
    /// Older than what was already known of its transaction: changed nothing.
    case stale
    /// A test or a type this service does not act on.
    case ignored
    /// Applied to a transaction nobody is known to own yet; it takes effect when a binding names the owner.
    case orphaned
    /// Quarantined: its id was already used by a different body.
    case conflict
    case malformed
    case unauthorized
    case rejected

    package init(_ error: PurchaseError) {
        switch error {
        case .malformed: self = .malformed
        case .unauthorized: self = .unauthorized
        case .rejected: self = .rejected
        }
    }
}

/// What storing a delivery came to.
package enum Receipt: Sendable, Equatable {
    /// Stored in the inbox (and applied, per `status`).
    case stored(id: Int64, status: WebhookStatus)
    /// The same body was stored before: nothing changed.
    case duplicate(id: Int64, status: WebhookStatus)
    /// Another body already holds this event id; this one is quarantined as `id`.
    case conflict(id: Int64, existing: Int64)
    /// Refused and quarantined as `id`.
    case quarantined(id: Int64, PurchaseError)
}

extension Receipt {
    /// How the delivery ended, as `/metrics` counts it: its stored status, `duplicate`, `conflict` or `quarantined`.
    package var outcome: String {
        switch self {
        case .stored(_, let status): status.rawValue
        case .duplicate: "duplicate"
        case .conflict: "conflict"
        case .quarantined: "quarantined"
        }
    }
}

/// A stored delivery, as admins list it.
package struct WebhookEvent: Sendable, Codable, Equatable {
    package var id: Int64
    package var source: String
    package var environment: String
    package var eventId: String?
    package var status: WebhookStatus
    package var quarantined: Bool
    package var detail: String?
    package var bytes: Int
    package var bodySha256: String
    package var receivedAt: Date
    package var processedAt: Date?
    /// The raw body as text, only when one event is asked for.
    package var body: String?

    package init(
        id: Int64, source: String, environment: String, eventId: String? = nil, status: WebhookStatus,
        quarantined: Bool, detail: String? = nil, bytes: Int, bodySha256: String, receivedAt: Date,
        processedAt: Date? = nil, body: String? = nil
    ) {
        self.id = id
        self.source = source
        self.environment = environment
        self.eventId = eventId
        self.status = status
        self.quarantined = quarantined
        self.detail = detail
        self.bytes = bytes
        self.bodySha256 = bodySha256
        self.receivedAt = receivedAt
        self.processedAt = processedAt
        self.body = body
    }
}

/// One line of the append-only entitlement audit.
package struct AuditEntry: Sendable, Codable, Equatable {
    package var id: Int64
    package var at: Date
    package var userId: String?
    package var productId: String?
    package var action: AuditAction
    package var source: String
    package var transactionId: String?
    /// The stored delivery that caused it; nil for an admin's action.
    package var webhookEventId: Int64?
    package var detail: String?

    package init(
        id: Int64, at: Date, userId: String? = nil, productId: String? = nil, action: AuditAction, source: String,
        transactionId: String? = nil, webhookEventId: Int64? = nil, detail: String? = nil
    ) {
        self.id = id
        self.at = at
        self.userId = userId
        self.productId = productId
        self.action = action
        self.source = source
        self.transactionId = transactionId
        self.webhookEventId = webhookEventId
        self.detail = detail
    }
}

/// What the purchase side refuses, in its own terms; HTTP turns these into problems.
package enum EntitlementError: Error, Sendable, Equatable {
    /// The transaction already belongs to another user.
    case boundElsewhere(String)
    /// A stored delivery that cannot be checked again (RevenueCat's authorization is never stored).
    case notReplayable(String)
}
