import CatalogCore
import Foundation
import PostgresNIO
import Purchases

/// Applying purchase events: each transaction's record merged with the event under a lock of its own, its owner
/// resolved, every decision written to the audit, all in the caller's transaction.
extension PostgresPurchases {
    /// Applies `event`, stored as delivery `webhookId` (nil for an admin's action), binding its transaction to `user`
    /// when a signed-in user posted it, and records the status the delivery comes to, all in the caller's transaction:
    /// the status and the users whose entitlements changed. Unless `force` (a replay), a delivery a concurrent twin
    /// already processed is left as it is.
    package func apply(
        _ event: PurchaseEvent, webhookId: Int64?, bindTo user: String?, force: Bool,
        _ connection: PostgresConnection
    ) async throws -> (WebhookStatus, Set<String>) {
        if case .snapshot(let snapshot) = event.kind {
            return try await apply(
                snapshot, source: event.source == .appleClient ? "apple" : event.source.rawValue,
                environment: event.environment, webhookId: webhookId, bindTo: user, force: force, connection)
        }
        let current = try await connection.first(
            "SELECT status FROM webhook_events WHERE id = \(webhookId) FOR UPDATE", as: String.self, logger: logger)
        if !force, let current, current != WebhookStatus.received.rawValue {
            return (WebhookStatus(rawValue: current) ?? .received, [])
        }
        var (status, users) = (WebhookStatus.ignored, Set<String>())
        if case .transfer(let from, let to) = event.kind {
            (status, users) = (.applied, try await transfer(from: from, to: to, webhookId: webhookId, connection))
        }
        try await connection.query(
            """
            UPDATE webhook_events SET status = \(status.rawValue), processed_at = now(), quarantined = false WHERE id = \(webhookId)
            """, logger: logger)
        return (status, users)
    }

    /// One snapshot, in three statements on the common path (each a round trip, so they are few): lock the delivery
    /// and the transaction and look up the appAccountToken's user; read the stored record; store the merged record,
    /// its audit line and the delivery's status together.
    package func apply(
        _ snapshot: TransactionSnapshot, source: String, environment: String, webhookId: Int64?, bindTo user: String?,
        force: Bool, _ connection: PostgresConnection
    ) async throws -> (WebhookStatus, Set<String>) {
        // Events of one transaction apply one at a time, whatever replica receives them; so do an original
        // transaction's binding and its other transactions' events, or a notification committing while a client binds
        // its subscription would stay an orphan. The original's lock comes first, everywhere, so none waits in a cycle.
        let rows = try await connection.query(
            """
            SELECT (SELECT status FROM webhook_events WHERE id = \(webhookId) FOR UPDATE),
                   pg_advisory_xact_lock(hashtextextended(\(source + "/original/" + snapshot.originalTransactionId), 0))::text,
                   pg_advisory_xact_lock(hashtextextended(\(source + "/" + snapshot.transactionId), 0))::text,
                   (SELECT id FROM users WHERE purchase_token = \(snapshot.appAccountToken))
            """, logger: logger)
        var (current, tokenUser): (String?, String?) = (nil, nil)
        for try await (status, _, _, named) in rows.decode((String?, String, String, String?).self) {
            (current, tokenUser) = (status, named)
        }
        if !force, let current, current != WebhookStatus.received.rawValue {
            return (WebhookStatus(rawValue: current) ?? .received, [])
        }
        var changedUsers: Set<String> = []
        if let user {
            if let tokenUser, tokenUser != user {
                throw EntitlementError.boundElsewhere("The transaction's appAccountToken names another user.")
            }
            changedUsers.formUnion(try await bind(snapshot, to: user, webhookId: webhookId, connection))
        }
        let existing = try await purchaseRecord(source: source, transactionId: snapshot.transactionId, connection)
        var owner = existing?.record.userId ?? user ?? snapshot.userId ?? tokenUser
        if owner == nil {
            owner = try await connection.first(
                "SELECT user_id FROM purchase_bindings WHERE original_transaction_id = \(snapshot.originalTransactionId)",
                as: String.self, logger: logger)
        }
        var stated = snapshot
        stated.userId = owner
        let (merged, changed) = TransactionState.merge(existing?.record, stated)
        var action = TransactionState.action(before: existing?.record, after: merged, changed: changed, at: Date())
        if owner == nil && changed { action = .orphan }
        if [.grant, .restore, .renew].contains(action), let owner, source != "admin",
            try await connection.first(
                """
                SELECT revoked_by FROM entitlement_holds WHERE user_id = \(owner) AND product_id = \(merged.productId)
                """, as: String.self, logger: logger) != nil
        {
            action = .overruled
        }
        let status: WebhookStatus = !changed ? .stale : owner == nil ? .orphaned : .applied
        try await finish(
            PurchaseRecord(source: source, environment: existing?.environment ?? environment, record: merged),
            changed: changed,
            audit: AuditLine(
                user: owner, product: merged.productId, action: action, source: source,
                transaction: merged.transactionId,
                detail: Self.explain(snapshot, action: action, record: merged)),
            webhookId: webhookId, status: status, connection)
        if changed, let owner { changedUsers.insert(owner) }
        return (status, changedUsers)
    }

    /// Binds the transaction's original to `user` (a client posted it signed in), and gives `user` the orphans that
    /// were waiting for it. Throws `boundElsewhere` when the transaction belongs to someone else.
    private func bind(
        _ snapshot: TransactionSnapshot, to user: String, webhookId: Int64?, _ connection: PostgresConnection
    ) async throws -> Set<String> {
        let original = snapshot.originalTransactionId
        let inserted = try await connection.first(
            """
            INSERT INTO purchase_bindings (original_transaction_id, user_id) VALUES (\(original), \(user))
            ON CONFLICT (original_transaction_id) DO NOTHING RETURNING user_id
            """, as: String.self, logger: logger)
        guard inserted != nil else {
            let bound = try await connection.first(
                "SELECT user_id FROM purchase_bindings WHERE original_transaction_id = \(original)",
                as: String.self, logger: logger)
            guard bound == user else {
                throw EntitlementError.boundElsewhere("The transaction belongs to another user.")
            }
            return []
        }
        let owned =
            try await connection.query(
                """
                SELECT count(*) FROM purchases WHERE source = 'apple' AND original_transaction_id = \(original)
                  AND user_id IS NOT NULL AND user_id <> \(user)
                """, logger: logger
            ).decode(Int.self).first { _ in true } ?? 0
        guard owned == 0 else { throw EntitlementError.boundElsewhere("The transaction belongs to another user.") }
        try await audit(
            user: user, product: snapshot.productId, action: .bind, source: "apple", transaction: original,
            webhookId: webhookId,
            detail: "original transaction \(original) bound to the signed-in user", connection)
        let adopted = try await connection.query(
            """
            UPDATE purchases SET user_id = \(user) WHERE source = 'apple' AND user_id IS NULL AND original_transaction_id = \(original)
            RETURNING transaction_id, product_id
            """, logger: logger)
        for try await (transaction, product) in adopted.decode((String, String).self) {
            try await audit(
                user: user, product: product, action: .bind, source: "apple", transaction: transaction,
                webhookId: webhookId,
                detail: "orphaned transaction now applies to its owner", connection)
        }
        return [user]
    }

    /// RevenueCat's TRANSFER: its transactions owned by any of `from` now belong to the first of `to`.
    private func transfer(
        from: [String], to: [String], webhookId: Int64?, _ connection: PostgresConnection
    ) async throws -> Set<String> {
        guard let target = to.first else { return [] }
        let moved = try await connection.query(
            """
            WITH moving AS (SELECT transaction_id, user_id FROM purchases WHERE source = 'revenuecat' AND user_id = ANY(\(from)) FOR UPDATE)
            UPDATE purchases p SET user_id = \(target) FROM moving m
            WHERE p.source = 'revenuecat' AND p.transaction_id = m.transaction_id
            RETURNING p.transaction_id, p.product_id, m.user_id
            """, logger: logger)
        var users: Set<String> = [target]
        for try await (transaction, product, previous) in moved.decode((String, String, String).self) {
            users.insert(previous)
            try await audit(
                user: previous, product: product, action: .transfer, source: "revenuecat", transaction: transaction,
                webhookId: webhookId, detail: "transferred to \(target)", connection)
            try await audit(
                user: target, product: product, action: .transfer, source: "revenuecat", transaction: transaction,
                webhookId: webhookId, detail: "transferred from \(previous)", connection)
        }
        return users
    }

    /// Why the audit says what it says, in words an operator can follow.
    package static func explain(
        _ snapshot: TransactionSnapshot, action: AuditAction, record: TransactionRecord
    ) -> String {
        let signed = snapshot.asOf.formatted(.iso8601)
        switch action {
        case .stale:
            return
                "\(snapshot.reason) signed \(signed) is not newer than what is known (as of \(record.asOf.formatted(.iso8601)))"
        case .orphan: return "\(snapshot.reason) signed \(signed); no user known yet (no appAccountToken, no binding)"
        case .overruled:
            return
                "\(snapshot.reason) signed \(signed) would give the product back; an admin's revocation holds until an admin grants it"
        default: return "\(snapshot.reason) signed \(signed)"
        }
    }

    /// One line of the audit, before it is written.
    package struct AuditLine {
        package var user: String?
        package var product: String?
        package var action: AuditAction
        package var source: String
        package var transaction: String?
        package var detail: String?
    }

    package func audit(
        user: String?, product: String?, action: AuditAction, source: String, transaction: String?, webhookId: Int64?,
        detail: String?, _ connection: PostgresConnection
    ) async throws {
        try await connection.query(
            """
            INSERT INTO entitlement_audit (user_id, product_id, action, source, transaction_id, webhook_event_id, detail)
            VALUES (\(user), \(product), \(action.rawValue), \(source), \(transaction), \(webhookId), \(detail))
            """, logger: logger)
    }
}
