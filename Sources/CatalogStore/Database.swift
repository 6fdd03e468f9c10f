import Logging
import PostgresNIO

/// Where the catalog lives: the server `DATABASE_URL` names, or else an embedded cluster under the data folder.
package struct Database: Sendable {
    package let endpoint: DatabaseEndpoint
    /// The embedded cluster, when one is in use; stop it on shutdown.
    package let embedded: EmbeddedPostgres?

    /// Uses `databaseURL` when given, else starts (or joins) the embedded cluster in `dataDirectory`.
    package static func open(databaseURL: String?, dataDirectory: String, logger: Logger) throws -> Database {
        if let databaseURL, !databaseURL.isEmpty {
            return Database(endpoint: try DatabaseEndpoint.parse(databaseURL), embedded: nil)
        }
        let embedded = EmbeddedPostgres(directory: dataDirectory, logger: logger)
        return Database(endpoint: try embedded.start(), embedded: embedded)
    }

    /// Where the database is, without credentials, for logs.
    package var description: String {
        embedded.map { "embedded PostgreSQL in \($0.directory.path)" } ?? endpoint.description
    }
}

/// Runs `body` while `pool` runs, then shuts the pool down: for commands and tests that are not a server.
package func withRunning<T: Sendable>(
    _ pool: DatabasePool, _ body: @Sendable (DatabasePool) async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await pool.run() }
        defer { group.cancelAll() }
        return try await body(pool)
    }
}
