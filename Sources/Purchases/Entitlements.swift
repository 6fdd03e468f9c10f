import Foundation

/// A transaction as stored: its record and where it came from.
public struct PurchaseRecord: Sendable, Equatable {
    /// "apple" (notifications and client posts alike), "revenuecat", "generic" or "admin".
    public var source: String
    /// "production" or "sandbox".
    public var environment: String
    public var record: TransactionRecord
    /// An admin revoked the product from its owner: it does not entitle, whatever its events say, until an admin
    /// grants the product again.
    public var withheld: Bool

    public init(source: String, environment: String, record: TransactionRecord, withheld: Bool = false) {
        (self.source, self.environment, self.record, self.withheld) = (source, environment, record, withheld)
    }
}

/// What a user holds of one product, and the transactions that say so.
public struct Entitlement: Sendable, Equatable {
    public var productId: String
    /// The latest end of the active transactions; nil when one of them never expires.
    public var expiresAt: Date?
    public var grantedBy: [PurchaseRecord]
}

/// Entitlements are derived when read, never stored: a product is held while one of its transactions is active.
public enum Entitlements {
    /// The products `records` entitle their owner to at `date`, each with the transactions that grant it, by product
    /// id. Sandbox transactions count only when `sandbox` is true (App Review buys in the sandbox).
    public static func held(_ records: [PurchaseRecord], at date: Date, sandbox: Bool) -> [Entitlement] {
        let active = records.filter { counts($0, sandbox: sandbox) && TransactionState.isActive($0.record, at: date) }
        return Dictionary(grouping: active, by: \.record.productId).map { product, granting in
            let ends = granting.map(\.record.expiresAt)
            return Entitlement(
                productId: product, expiresAt: ends.contains(nil) ? nil : ends.compactMap { $0 }.max(),
                grantedBy: granting.sorted { $0.record.transactionId < $1.record.transactionId })
        }.sorted { $0.productId < $1.productId }
    }

    /// The first moment after `date` at which what `records` entitle to can change without any event: an active
    /// transaction expiring. Nil when nothing will change by itself.
    public static func nextChange(_ records: [PurchaseRecord], after date: Date, sandbox: Bool) -> Date? {
        records.filter { counts($0, sandbox: sandbox) && $0.record.revokedAt == nil }.compactMap(\.record.expiresAt)
            .filter { $0 > date }.min()
    }

    static func counts(_ stored: PurchaseRecord, sandbox: Bool) -> Bool {
        !stored.withheld && (sandbox || stored.environment != "sandbox")
    }
}

/// What an event did to a transaction, as the audit records it.
public enum AuditAction: String, Sendable, Codable, CaseIterable {
    case grant, revoke, restore, renew, expire, update, stale, orphan, bind, transfer
    /// An event that would have given back a product an admin revoked: recorded, not entitling.
    case overruled
}

extension TransactionState {
    /// The audit's name for going from `before` to `after` (`changed` as `merge` said), judged at `date`.
    public static func action(
        before: TransactionRecord?, after: TransactionRecord, changed: Bool, at date: Date
    ) -> AuditAction {
        guard let before else {
            if after.revokedAt != nil { return .revoke }
            return isActive(after, at: date) ? .grant : .expire
        }
        guard changed else { return .stale }
        switch (before.revokedAt, after.revokedAt) {
        case (nil, .some): return .revoke
        case (.some, nil): return .restore
        default: break
        }
        if before.expiresAt != after.expiresAt {
            return (after.expiresAt ?? .distantFuture) > (before.expiresAt ?? .distantFuture) ? .renew : .expire
        }
        return .update
    }
}
