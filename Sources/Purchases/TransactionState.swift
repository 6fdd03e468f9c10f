import Foundation

/// What is known of one transaction after any number of events: each field as the newest event that stated it.
public struct TransactionRecord: Sendable, Equatable, Codable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var userId: String?
    public var appAccountToken: UUID?
    /// The earliest purchase date any event gave.
    public var purchasedAt: Date
    public var expiresAt: Date?
    /// When the expiry was stated; nil when no event stated it (the purchase does not expire).
    public var expiryAsOf: Date?
    public var revokedAt: Date?
    public var revocationAsOf: Date
    /// The newest event's time.
    public var asOf: Date

    public init(
        transactionId: String, originalTransactionId: String, productId: String, userId: String?,
        appAccountToken: UUID?,
        purchasedAt: Date, expiresAt: Date?, expiryAsOf: Date?, revokedAt: Date?, revocationAsOf: Date, asOf: Date
    ) {
        (self.transactionId, self.originalTransactionId, self.productId, self.userId) = (
            transactionId, originalTransactionId, productId, userId
        )
        (self.appAccountToken, self.purchasedAt, self.expiresAt, self.expiryAsOf) = (
            appAccountToken, purchasedAt, expiresAt, expiryAsOf
        )
        (self.revokedAt, self.revocationAsOf, self.asOf) = (revokedAt, revocationAsOf, asOf)
    }
}

/// The entitlement rules, as plain functions over a transaction's events.
///
/// The state of a transaction comes from its newest signed snapshot (Apple's signedDate, RevenueCat's event time,
/// the generic webhook's occurredAt): whether it is revoked is what the newest event says, its period what the newest
/// event that states one says. So the state depends on the set of events, never on their order of arrival: an older
/// event arriving later changes nothing (it is stale), a newer one without a revocation date restores (a reversed
/// refund). Ties between events signed at the same instant are broken by their content (revoked over not, the later
/// expiry, then the reason text), never by arrival.
public enum TransactionState {
    /// `record` with `snapshot` applied, and whether anything changed (false: the event is stale or a duplicate).
    public static func merge(
        _ record: TransactionRecord?, _ snapshot: TransactionSnapshot
    ) -> (TransactionRecord, changed: Bool) {
        guard var merged = record else {
            return (
                TransactionRecord(
                    transactionId: snapshot.transactionId, originalTransactionId: snapshot.originalTransactionId,
                    productId: snapshot.productId,
                    userId: snapshot.userId, appAccountToken: snapshot.appAccountToken,
                    purchasedAt: snapshot.purchasedAt,
                    expiresAt: snapshot.statesExpiry ? snapshot.expiresAt : nil,
                    expiryAsOf: snapshot.statesExpiry ? snapshot.asOf : nil,
                    revokedAt: snapshot.revokedAt, revocationAsOf: snapshot.asOf, asOf: snapshot.asOf), true
            )
        }
        let before = merged
        // The product follows the newest event: a sender that keeps one subscription id across plan changes (Stripe's
        // `sub_...`) changes the product on that id, and a downgrade must not keep the higher plan. At the same
        // instant, the greater product id, so that the order of arrival does not matter.
        if snapshot.asOf > merged.asOf || (snapshot.asOf == merged.asOf && snapshot.productId > merged.productId) {
            merged.productId = snapshot.productId
        }
        merged.asOf = max(merged.asOf, snapshot.asOf)
        // Who a transaction is for does not change (a transfer is an event of its own): any event that says it will
        // do; should two say different things, the smaller wins, whatever the order.
        if let user = snapshot.userId { merged.userId = merged.userId.map { min($0, user) } ?? user }
        if let token = snapshot.appAccountToken {
            merged.appAccountToken =
                merged.appAccountToken.map { $0.uuidString < token.uuidString ? $0 : token } ?? token
        }
        merged.purchasedAt = min(merged.purchasedAt, snapshot.purchasedAt)
        if wins(
            snapshot.asOf, revoked: snapshot.revokedAt != nil, over: merged.revocationAsOf,
            revoked: merged.revokedAt != nil)
        {
            (merged.revokedAt, merged.revocationAsOf) = (snapshot.revokedAt, snapshot.asOf)
        } else if snapshot.asOf == merged.revocationAsOf, let a = snapshot.revokedAt, let b = merged.revokedAt, a < b {
            merged.revokedAt = a
        }
        if snapshot.statesExpiry {
            let (new, old) = (snapshot.expiresAt ?? .distantFuture, merged.expiresAt ?? .distantFuture)
            if merged.expiryAsOf.map({ snapshot.asOf > $0 || (snapshot.asOf == $0 && new > old) }) ?? true {
                (merged.expiresAt, merged.expiryAsOf) = (snapshot.expiresAt, snapshot.asOf)
            }
        }
        return (merged, merged != before)
    }

    /// The record of a transaction given all its snapshots, in any order.
    public static func record(of snapshots: [TransactionSnapshot]) -> TransactionRecord? {
        snapshots.reduce(nil) { merge($0, $1).0 }
    }

    /// A newer statement wins; at the same instant, "revoked" wins over "not revoked".
    static func wins(_ time: Date, revoked: Bool, over storedTime: Date, revoked storedRevoked: Bool) -> Bool {
        time > storedTime || (time == storedTime && revoked && !storedRevoked)
    }

    /// A transaction entitles its owner at `date` when it is not revoked and has not expired. Derived at every read,
    /// so that a lost EXPIRED notification cannot leave access open. (Its purchase date does not count: a store's clock
    /// a second ahead of ours must not hide a purchase just made.)
    public static func isActive(_ record: TransactionRecord, at date: Date) -> Bool {
        record.revokedAt == nil && (record.expiresAt.map { $0 > date } ?? true)
    }
}
