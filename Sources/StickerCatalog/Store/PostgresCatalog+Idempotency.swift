import Foundation
import PostgresNIO

/// Idempotency keys of admin writes: claimed before the request runs, answered from the stored response after.
extension PostgresCatalog: IdempotencyRepository {
    public func claim(admin: String, key: String, fingerprint: String) async throws -> IdempotencyClaim {
        try await read { connection in
            // A key is free when new, a day old, or claimed by a request that has not finished in five minutes (its
            // process died): then it is this request's.
            let claimed = try await connection.first("""
                INSERT INTO idempotency_keys (admin, key, fingerprint) VALUES (\(admin), \(key), \(fingerprint))
                ON CONFLICT (admin, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = NULL, content_type = NULL,
                    location = NULL, body = NULL, created_at = now()
                WHERE idempotency_keys.created_at < now() - interval '24 hours'
                   OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < now() - interval '5 minutes')
                RETURNING true
                """, as: Bool.self, logger: logger)
            if claimed != nil { return .claimed }
            let rows = try await connection.query("""
                SELECT fingerprint, status, content_type, location, body FROM idempotency_keys WHERE admin = \(admin) AND key = \(key)
                """, logger: logger)
            for try await (stored, status, type, location, body) in rows.decode((String, Int?, String?, String?, ByteBuffer?).self) {
                guard stored == fingerprint else { return .reusedForAnotherRequest }
                guard let status else { return .underWay }
                return .answered(StoredResponse(status: status, contentType: type, location: location, body: body.map { Array(buffer: $0) } ?? []))
            }
            return .underWay
        }
    }

    public func answer(admin: String, key: String, with response: StoredResponse) async throws {
        _ = try await read { connection in
            try await connection.query("""
                UPDATE idempotency_keys SET status = \(response.status), content_type = \(response.contentType), location = \(response.location),
                       body = \(ByteBuffer(bytes: response.body))
                WHERE admin = \(admin) AND key = \(key)
                """, logger: logger)
        }
    }

    public func release(admin: String, key: String) async throws {
        _ = try await read { connection in
            try await connection.query("DELETE FROM idempotency_keys WHERE admin = \(admin) AND key = \(key) AND status IS NULL", logger: logger)
        }
    }

    /// Drops keys older than a day, for `stickerd gc`; how many.
    public func forgetIdempotencyKeys() async throws -> Int {
        try await read { connection in
            try await connection.query("DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours' RETURNING 1", logger: logger)
                .collect().count
        }
    }
}
