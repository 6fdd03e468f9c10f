import Foundation

/// Where a purchase event came from.
public enum PurchaseSource: String, Sendable, Codable, CaseIterable {
    /// App Store Server Notifications V2.
    case apple
    /// A StoreKit 2 transaction the client posted after buying or restoring.
    case appleClient = "apple-client"
    case revenueCat = "revenuecat"
    /// The signed webhook any payment backend can send.
    case generic
    /// An admin's manual grant or revoke.
    case admin
}

/// One purchase event in the terms every source shares: what happened to which transaction, said when.
public struct PurchaseEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A snapshot of a transaction's state (a purchase, renewal, refund, revocation, reversal, expiry).
        case snapshot(TransactionSnapshot)
        /// RevenueCat: the purchases of some users now belong to others.
        case transfer(from: [String], to: [String])
        /// Test deliveries and types this service does not act on: stored, answered 200, no effect.
        case ignored(reason: String)
    }

    public var source: PurchaseSource
    /// "production" or "sandbox".
    public var environment: String
    /// The source's id of the delivery (notificationUUID, RevenueCat event id, the webhook's id).
    public var eventId: String
    public var kind: Kind

    public init(source: PurchaseSource, environment: String, eventId: String, kind: Kind) {
        (self.source, self.environment, self.eventId, self.kind) = (source, environment, eventId, kind)
    }
}

/// What one event says a transaction is, at the moment it was signed. The newest snapshot of a transaction is its
/// state; an older one arriving later changes nothing (`TransactionState`).
public struct TransactionSnapshot: Sendable, Equatable, Codable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    /// Who it is for, when the event says: our user id (RevenueCat's app user id, the generic webhook's userId).
    public var userId: String?
    /// Apple's appAccountToken: the purchase token we gave the user; nil when absent, empty or all zeros.
    public var appAccountToken: UUID?
    public var purchasedAt: Date
    /// End of the paid period; nil for a purchase that does not expire. Only meaningful when `statesExpiry`.
    public var expiresAt: Date?
    /// False for an event that says nothing of the period (a generic refund without expiresAt): the expiry stays
    /// whatever the newest event that did say it said.
    public var statesExpiry: Bool
    /// Set when refunded or revoked; a newer snapshot without it restores the transaction.
    public var revokedAt: Date?
    /// When the source signed (or sent) this state: Apple's signedDate, the webhook's occurredAt.
    public var asOf: Date
    /// What the event was, for the audit ("REFUND", "purchase", ...).
    public var reason: String

    public init(
        transactionId: String, originalTransactionId: String, productId: String, userId: String? = nil,
        appAccountToken: UUID? = nil, purchasedAt: Date, expiresAt: Date? = nil, statesExpiry: Bool = true,
        revokedAt: Date? = nil, asOf: Date, reason: String
    ) {
        (self.transactionId, self.originalTransactionId, self.productId, self.userId) = (
            transactionId, originalTransactionId, productId, userId
        )
        // Whole milliseconds (what every source sends, and what PostgreSQL keeps exactly): a replayed event compares
        // equal to what it stored.
        (self.appAccountToken, self.purchasedAt, self.expiresAt, self.statesExpiry) = (
            appAccountToken, purchasedAt.millis, expiresAt?.millis, statesExpiry
        )
        (self.revokedAt, self.asOf, self.reason) = (revokedAt?.millis, asOf.millis, reason)
    }
}

extension PurchaseEvent {
    /// The event when every id in it is storable text of sane length: ids 1 to 200 characters, user ids 1 to 255,
    /// product ids 1 to 100 letters, digits, dots, dashes or underscores, no control characters anywhere.
    public func checked() throws(PurchaseError) -> PurchaseEvent {
        func check(_ value: String, _ name: String, max: Int) throws(PurchaseError) {
            guard (1...max).contains(value.count),
                !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw .malformed("\(name) must be 1 to \(max) characters without control characters")
            }
        }
        guard environment == "production" || environment == "sandbox" else { throw .malformed("unknown environment") }
        try check(eventId, "the event id", max: 200)
        switch kind {
        case .snapshot(let s):
            try check(s.transactionId, "transactionId", max: 200)
            try check(s.originalTransactionId, "originalTransactionId", max: 200)
            guard (1...100).contains(s.productId.utf8.count),
                s.productId.utf8.allSatisfy({
                    $0 < 128
                        && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber
                            || "._-".utf8.contains($0))
                })
            else {
                throw .malformed("productId must be 1 to 100 letters, digits, dots, dashes or underscores")
            }
            if let user = s.userId { try check(user, "the user id", max: 255) }
            guard [s.purchasedAt, s.asOf].allSatisfy(Date.purchaseTimes.contains),
                [s.expiresAt, s.revokedAt].allSatisfy({ $0.map(Date.purchaseTimes.contains) ?? true })
            else {
                throw .malformed("times must lie between 1970 and the end of 9999")
            }
            try check(s.reason, "the event type", max: 200)
        case .transfer(let from, let to):
            guard from.count <= 100, to.count <= 100 else {
                throw .malformed("a transfer names at most 100 users each way")
            }
            for user in from + to { try check(user, "a transferred user id", max: 255) }
        case .ignored:
            break
        }
        return self
    }
}

extension PurchaseEvent {
    /// How far ahead of the receiving clock an event may be dated: clocks drift, but not by minutes.
    public static let clockSkew: TimeInterval = 300

    /// The event, unless it is dated more than `clockSkew` after `received`. The newest event wins, so one dated far
    /// in the future would make every later event, refunds included, stale: it is refused instead (and kept in
    /// quarantine, where a replay checks it again once its time has come).
    public func dated(notAfter received: Date) throws(PurchaseError) -> PurchaseEvent {
        if case .snapshot(let snapshot) = kind, snapshot.asOf > received + Self.clockSkew {
            throw .malformed(
                "the event is dated \(snapshot.asOf.formatted(.iso8601)), after its arrival (more than \(Int(Self.clockSkew)) s ahead)"
            )
        }
        return self
    }
}

extension Date {
    /// The times a purchase may name. Others are refused before they reach a library: swift-certificates traps on a
    /// validation time past year 9999, PostgresNIO on a date past Int64 microseconds.
    public static let purchaseTimes = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    /// This instant rounded to the nearest whole millisecond; a time read back from PostgreSQL (which can come back
    /// a microsecond off through floating point) rounds to what was stored.
    public var millis: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
