import CatalogCore
import Foundation
import PostgresNIO

extension PostgresStore {
    /// Runs `body` in the caller's transaction between claiming `write`'s key and keeping its answer, so that the
    /// answer commits with the write or not at all; without `write`, just `body`. Throws `IdempotencyKeyTaken` when
    /// a request with the same key committed first.
    package func keeping<T: Sendable>(
        _ write: IdempotentWrite<T>?, _ connection: PostgresConnection,
        _ body: () async throws -> T
    ) async throws -> T {
        guard let write else { return try await body() }
        let key = write.key
        // The inserted row holds the key: a concurrent request with the same key waits here until this transaction
        // ends, then finds it taken (or free, after a rollback). A key is free again after a day.
        let claimed = try await connection.first(
            """
            INSERT INTO idempotency_keys (token, key, fingerprint) VALUES (\(key.token), \(key.key), \(key.fingerprint))
            ON CONFLICT (token, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = NULL, content_type = NULL,
                location = NULL, body = NULL, created_at = now()
            WHERE idempotency_keys.created_at < now() - interval '24 hours'
            RETURNING true
            """, as: Bool.self, logger: logger)
        guard claimed != nil else { throw IdempotencyKeyTaken(key: key.key) }
        let value = try await body()
        if let answer = try await write.answer(value) {
            try await connection.query(
                """
                UPDATE idempotency_keys SET status = \(answer.status), content_type = \(answer.contentType), location = \(answer.location),
                       body = \(ByteBuffer(bytes: answer.body))
                WHERE token = \(key.token) AND key = \(key.key)
                """, logger: logger)
        } else {
            // A refusal (nothing to change) keeps nothing: the key stays free for the corrected request.
            try await connection.query(
                "DELETE FROM idempotency_keys WHERE token = \(key.token) AND key = \(key.key)", logger: logger)
        }
        return value
    }
}
