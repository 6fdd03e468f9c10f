import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `body` between `begin` and COMMIT, rolling back on any error and rethrowing it unchanged
    /// (PostgresNIO's own withTransaction wraps errors, which would hide the problems `body` throws).
    package func inTransaction<T: Sendable>(
        _ begin: PostgresQuery = "BEGIN", logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        try await query(begin, logger: logger)
        do {
            let value = try await body()
            try await query("COMMIT", logger: logger)
            return value
        } catch {
            _ = try? await query("ROLLBACK", logger: logger)
            throw error
        }
    }
}
