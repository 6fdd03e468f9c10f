import CatalogCore
import Foundation
import PostgresNIO
import Purchases

/// Users, their transactions and audit, and an admin's grants and revocations.
extension PostgresPurchases: EntitlementAdministration {
    package func purchaseToken(user: String) async throws -> UUID {
        try await read { connection in
            let token = try await connection.first(
                """
                WITH made AS (INSERT INTO users (id) VALUES (\(user)) ON CONFLICT (id) DO NOTHING RETURNING purchase_token)
                SELECT purchase_token FROM made UNION ALL SELECT purchase_token FROM users WHERE id = \(user)
                """, as: UUID.self, logger: logger)
            guard let token else { throw CatalogError.notFound("User '\(user.prefix(64))'") }
            return token
        }
    }

    package func purchases(user: String) async throws -> [PurchaseRecord] {
        try await read { try await purchases(user: user, $0) }
    }

    /// Every transaction the user owns, read on `connection`.
    package func purchases(user: String, _ connection: PostgresConnection) async throws -> [PurchaseRecord] {
        try await purchaseRecords(
            try await connection.query(
                """
                SELECT \(unescaped: Self.purchaseSelection) FROM purchases WHERE user_id = \(user) ORDER BY product_id, purchased_at, transaction_id
                """, logger: logger))
    }

    package func activePurchases(user: String) async throws -> [PurchaseRecord] {
        try await read { connection in
            // The rules decide (`Entitlements.held`); this only leaves out what can never count again.
            try await purchaseRecords(
                try await connection.query(
                    """
                    SELECT \(unescaped: Self.purchaseSelection) FROM purchases
                    WHERE user_id = \(user) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
                    """, logger: logger))
        }
    }

    package func audit(user: String, before: Int64?, limit: Int) async throws -> [AuditEntry] {
        try await read { connection in
            var entries: [AuditEntry] = []
            let rows = try await connection.query(
                """
                SELECT id, at, user_id, product_id, action, source, transaction_id, webhook_event_id, detail FROM entitlement_audit
                WHERE user_id = \(user) AND id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(limit)
                """, logger: logger)
            for try await (id, at, user, product, action, source, transaction, webhook, detail) in rows.decode(
                (Int64, Date, String?, String?, String, String, String?, Int64?, String?).self)
            {
                entries.append(
                    AuditEntry(
                        id: id, at: at, userId: user, productId: product,
                        action: AuditAction(rawValue: action) ?? .update,
                        source: source, transactionId: transaction, webhookEventId: webhook, detail: detail))
            }
            return entries
        }
    }

    package func grant(
        user: String, productId: String, expiresAt: Date?, admin: String,
        keeping answer: IdempotentWrite<[PurchaseRecord]>? = nil
    ) async throws -> [PurchaseRecord] {
        let now = Date()
        let snapshot = TransactionSnapshot(
            transactionId: "admin:\(productId):\(user)", originalTransactionId: "admin:\(productId):\(user)",
            productId: productId, userId: user, purchasedAt: now, expiresAt: expiresAt, asOf: now,
            reason: "granted by admin \(admin)")
        let owned = try await transaction { connection in
            try await store.keeping(answer, connection) {
                // A grant ends an earlier revocation's hold on the product.
                try await connection.query(
                    "DELETE FROM entitlement_holds WHERE user_id = \(user) AND product_id = \(productId)",
                    logger: logger)
                _ = try await apply(
                    snapshot, source: "admin", environment: "production", webhookId: nil, bindTo: nil, force: true,
                    connection)
                return try await purchases(user: user, connection)
            }
        }
        entitlementChanges.changed(user: user)
        return owned
    }

    package func revoke(
        user: String, productId: String, admin: String,
        keeping answer: IdempotentWrite<(revoked: Int, purchases: [PurchaseRecord])>? = nil
    )
        async throws -> (revoked: Int, purchases: [PurchaseRecord])
    {
        let now = Date()
        let revoked = try await transaction { connection in
            try await store.keeping(answer, connection) {
                let active = try await purchaseRecords(
                    try await connection.query(
                        """
                        SELECT \(unescaped: Self.purchaseSelection) FROM purchases
                        WHERE user_id = \(user) AND product_id = \(productId) AND revoked_at IS NULL ORDER BY source, transaction_id FOR UPDATE
                        """, logger: logger))
                for stored in active {
                    let r = stored.record
                    let snapshot = TransactionSnapshot(
                        transactionId: r.transactionId, originalTransactionId: r.originalTransactionId,
                        productId: r.productId, userId: user, purchasedAt: r.purchasedAt, statesExpiry: false,
                        revokedAt: now, asOf: max(now, r.asOf), reason: "revoked by admin \(admin)")
                    _ = try await apply(
                        snapshot, source: stored.source, environment: stored.environment, webhookId: nil, bindTo: nil,
                        force: true, connection)
                }
                // Held until an admin grants again: later events about these transactions (or new ones) cannot undo it.
                try await connection.query(
                    """
                    INSERT INTO entitlement_holds (user_id, product_id, revoked_by) VALUES (\(user), \(productId), \(admin))
                    ON CONFLICT (user_id, product_id) DO UPDATE SET revoked_by = EXCLUDED.revoked_by, created_at = now()
                    """, logger: logger)
                return (active.count, try await purchases(user: user, connection))
            }
        }
        entitlementChanges.changed(user: user)
        return revoked
    }
}
