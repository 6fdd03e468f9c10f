import CatalogCore
import Foundation
import PostgresNIO

/// Idempotency keys of admin writes: claimed and answered inside the write's own transaction, read before a request
/// runs to answer a retry.
extension PostgresIdempotency: IdempotencyRepository {
    package func keptAnswer(for key: IdempotencyKey) async throws -> KeptAnswer? {
        try await read { connection in
            // A row without a status is a write still in its transaction: invisible here until it commits.
            let rows = try await connection.query(
                """
                SELECT fingerprint, status, content_type, location, body FROM idempotency_keys
                WHERE token = \(key.token) AND key = \(key.key) AND status IS NOT NULL AND created_at >= now() - interval '24 hours'
                """, logger: logger)
            for try await (fingerprint, status, type, location, body) in rows.decode(
                (String, Int, String?, String?, ByteBuffer?).self)
            {
                guard fingerprint == key.fingerprint else { return .reusedForAnotherRequest }
                return .answered(
                    StoredResponse(
                        status: status, contentType: type, location: location,
                        body: body.map { Array(buffer: $0) } ?? []))
            }
            return nil
        }
    }

    /// Drops keys older than a day, for `stickerd gc`; how many.
    package func forgetIdempotencyKeys() async throws -> Int {
        try await read { connection in
            try await connection.query(
                "DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours' RETURNING 1",
                logger: logger
            )
            .collect().count
        }
    }
}
