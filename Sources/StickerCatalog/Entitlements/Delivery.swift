import Foundation
import Purchases

/// One webhook delivery as it arrived: the route it came to, its raw bytes and what authenticates it.
public struct Delivery: Sendable {
    public var source: PurchaseSource
    /// The URL's environment for App Store notifications; the event's own for the other sources.
    public var environment: String
    public var body: [UInt8]
    /// The generic webhook's `Sticker-Signature` (kept, so a replay can check it again) or RevenueCat's
    /// `Authorization` (checked, never kept).
    public var credential: String?
    /// The signed-in user who posted a StoreKit transaction.
    public var user: String?

    public init(source: PurchaseSource, environment: String = "production", body: [UInt8], credential: String? = nil, user: String? = nil) {
        (self.source, self.environment, self.body, self.credential, self.user) = (source, environment, body, credential, user)
    }
}

/// Where a stored delivery stands.
public enum WebhookStatus: String, Sendable, Codable, CaseIterable {
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

    init(_ error: PurchaseError) {
        switch error {
        case .malformed: self = .malformed
        case .unauthorized: self = .unauthorized
        case .rejected: self = .rejected
        }
    }
}

/// What storing a delivery came to.
public enum Receipt: Sendable, Equatable {
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
    public var outcome: String {
        switch self {
        case .stored(_, let status): status.rawValue
        case .duplicate: "duplicate"
        case .conflict: "conflict"
        case .quarantined: "quarantined"
        }
    }
}

/// A stored delivery, as admins list it.
public struct WebhookEvent: Sendable, Codable, Equatable {
    public var id: Int64
    public var source: String
    public var environment: String
    public var eventId: String?
    public var status: WebhookStatus
    public var quarantined: Bool
    public var detail: String?
    public var bytes: Int
    public var bodySha256: String
    public var receivedAt: Date
    public var processedAt: Date?
    /// The raw body as text, only when one event is asked for.
    public var body: String?
}

/// One line of the append-only entitlement audit.
public struct AuditEntry: Sendable, Codable, Equatable {
    public var id: Int64
    public var at: Date
    public var userId: String?
    public var productId: String?
    public var action: AuditAction
    public var source: String
    public var transactionId: String?
    /// The stored delivery that caused it; nil for an admin's action.
    public var webhookEventId: Int64?
    public var detail: String?
}

/// What the purchase side refuses, in its own terms; HTTP turns these into problems.
public enum EntitlementError: Error, Sendable, Equatable {
    /// The transaction already belongs to another user.
    case boundElsewhere(String)
    /// A stored delivery that cannot be checked again (RevenueCat's authorization is never stored).
    case notReplayable(String)
}
