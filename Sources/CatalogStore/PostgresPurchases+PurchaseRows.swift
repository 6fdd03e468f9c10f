import CatalogCore
import Foundation
import PostgresNIO
import Purchases

/// Reading and writing rows of `purchases`.
extension PostgresPurchases {
    package static let purchaseColumns = """
        source, environment, transaction_id, original_transaction_id, product_id, user_id, app_account_token, purchased_at,
        expires_at, expiry_as_of, revoked_at, revocation_as_of, as_of
        """

    /// `purchaseColumns`, and whether an admin's revocation withholds the product from the owner.
    package static let purchaseSelection =
        purchaseColumns + """
            , EXISTS (SELECT 1 FROM entitlement_holds h WHERE h.user_id = purchases.user_id AND h.product_id = purchases.product_id)
            """

    /// Decodes rows selected with `purchaseSelection`.
    package func purchaseRecords(_ rows: PostgresRowSequence) async throws -> [PurchaseRecord] {
        var records: [PurchaseRecord] = []
        for try await (
            source, environment, transaction, original, product, user, token, purchased, expires, expiryAsOf, revoked,
            revocationAsOf, asOf, withheld
        ) in rows.decode(
            (String, String, String, String, String, String?, UUID?, Date, Date?, Date?, Date?, Date, Date, Bool).self)
        {
            records.append(
                PurchaseRecord(
                    source: source, environment: environment,
                    record: TransactionRecord(
                        transactionId: transaction, originalTransactionId: original, productId: product, userId: user,
                        appAccountToken: token,
                        purchasedAt: purchased.millis, expiresAt: expires?.millis, expiryAsOf: expiryAsOf?.millis,
                        revokedAt: revoked?.millis,
                        revocationAsOf: revocationAsOf.millis, asOf: asOf.millis), withheld: withheld))
        }
        return records
    }

    /// The stored record of one transaction, locked for the caller's transaction.
    package func purchaseRecord(
        source: String, transactionId: String, _ connection: PostgresConnection
    ) async throws -> PurchaseRecord? {
        try await purchaseRecords(
            try await connection.query(
                """
                SELECT \(unescaped: Self.purchaseSelection) FROM purchases WHERE source = \(source) AND transaction_id = \(transactionId) FOR UPDATE
                """, logger: logger)
        ).first
    }

    /// In one statement: the transaction's record inserted or replaced (when `changed`), the audit line, and the
    /// status of delivery `webhookId`.
    package func finish(
        _ stored: PurchaseRecord, changed: Bool, audit line: AuditLine, webhookId: Int64?, status: WebhookStatus,
        _ connection: PostgresConnection
    ) async throws {
        let r = stored.record
        try await connection.query(
            """
            WITH stored AS (
                INSERT INTO purchases (\(unescaped: Self.purchaseColumns))
                SELECT \(stored.source), \(stored.environment), \(r.transactionId), \(r.originalTransactionId), \(r.productId), \(r.userId),
                       \(r.appAccountToken), \(r.purchasedAt), \(r.expiresAt), \(r.expiryAsOf), \(r.revokedAt), \(r.revocationAsOf), \(r.asOf)
                WHERE \(changed)
                ON CONFLICT (source, transaction_id) DO UPDATE SET
                    original_transaction_id = EXCLUDED.original_transaction_id, product_id = EXCLUDED.product_id, user_id = EXCLUDED.user_id,
                    app_account_token = EXCLUDED.app_account_token, purchased_at = EXCLUDED.purchased_at, expires_at = EXCLUDED.expires_at,
                    expiry_as_of = EXCLUDED.expiry_as_of, revoked_at = EXCLUDED.revoked_at, revocation_as_of = EXCLUDED.revocation_as_of,
                    as_of = EXCLUDED.as_of
            ), audited AS (
                INSERT INTO entitlement_audit (user_id, product_id, action, source, transaction_id, webhook_event_id, detail)
                VALUES (\(line.user), \(line.product), \(line.action.rawValue), \(line.source), \(line.transaction), \(webhookId), \(line.detail))
            )
            UPDATE webhook_events SET status = \(status.rawValue), processed_at = now(), quarantined = false WHERE id = \(webhookId)
            """, logger: logger)
    }
}
