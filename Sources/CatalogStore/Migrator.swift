import CatalogCore
import Logging
import PostgresNIO
import ServiceLifecycle

/// One numbered file of `sql/`, carried inside the binary.
package struct Migration: Sendable, Equatable {
    package let version: Int
    package let name: String
    package let sql: String
    package var checksum: String { sha256Hex(Array(sql.utf8)) }

    /// The migrations compiled into this binary, oldest first.
    package static let bundled: [Migration] = embeddedMigrations.map { file, sql in
        let stem = file.dropLast(".sql".count)
        let number = stem.prefix { $0.isNumber }
        // The file names are checked when the plugin embeds them (NNNN_name.sql), so the number is always there.
        return Migration(version: Int(number) ?? 0, name: String(stem.dropFirst(number.count + 1)), sql: sql)
    }

    package init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

package enum MigrationError: Error, CustomStringConvertible, Equatable {
    case checksumMismatch(version: Int, name: String)
    case unknownVersion(Int)

    package var description: String {
        switch self {
        case .checksumMismatch(let version, let name):
            "Migration \(version) (\(name)) was edited after it was applied: its checksum differs from the one recorded. "
                + "Migrations are append-only; restore the file and add a new numbered migration instead."
        case .unknownVersion(let version):
            "The database has migration \(version), which this stickerd does not know: it was migrated by a newer release."
        }
    }
}

/// Applies pending migrations under an advisory lock, so replicas starting together take turns.
package struct Migrator: Sendable {
    /// The advisory lock key: "STIK" in ASCII.
    package static let lockKey: Int64 = 0x5354_494B
    package let migrations: [Migration]

    package init(migrations: [Migration] = Migration.bundled) {
        self.migrations = migrations
    }

    /// Applies what is missing and returns it; refuses to go on if an applied migration was edited.
    @discardableResult
    package func migrate(_ pool: DatabasePool, logger: Logger) async throws -> [Migration] {
        try await pool.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger)
            do {
                let applied = try await apply(connection, logger: logger)
                try await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                return applied
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                throw error
            }
        }
    }

    /// `migrate`, tried again every half second while PostgreSQL is unavailable, for up to `patience`: a replica that
    /// starts while its database is busy, restarting or not created yet waits for it rather than exiting after the
    /// pool's first second (on a busy machine that once ended a test's stickerd before it was ready). A shutdown ends
    /// the wait.
    package func migrate(_ pool: DatabasePool, logger: Logger, patience: Duration) async throws -> [Migration] {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                return try await migrate(pool, logger: logger)
            } catch let error as DatabaseUnavailable
                where ContinuousClock.now < deadline && !Task.isShuttingDownGracefully
            {
                logger.warning("PostgreSQL is not available yet; trying again", metadata: ["reason": "\(error.reason)"])
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// True when every bundled migration is applied with its recorded checksum.
    package func isCurrent(_ pool: DatabasePool, logger: Logger) async throws -> Bool {
        let recorded = try await pool.withConnection(timeout: .seconds(2)) { connection in
            var recorded: [Int: String] = [:]
            let rows = try await connection.query("SELECT version, checksum FROM schema_migrations", logger: logger)
            for try await (version, checksum) in rows.decode((Int, String).self) { recorded[version] = checksum }
            return recorded
        }
        return migrations.allSatisfy { recorded[$0.version] == $0.checksum }
    }

    private func apply(_ connection: PostgresConnection, logger: Logger) async throws -> [Migration] {
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var recorded: [Int: String] = [:]
        let rows = try await connection.query("SELECT version, checksum FROM schema_migrations", logger: logger)
        for try await (version, checksum) in rows.decode((Int, String).self) { recorded[version] = checksum }
        for version in recorded.keys.sorted() where !migrations.contains(where: { $0.version == version }) {
            throw MigrationError.unknownVersion(version)
        }
        var applied: [Migration] = []
        for migration in migrations {
            if let checksum = recorded[migration.version] {
                guard checksum == migration.checksum else {
                    throw MigrationError.checksumMismatch(version: migration.version, name: migration.name)
                }
                continue
            }
            // The extended protocol takes one statement; a DO block runs the whole file as one, in one transaction.
            try await connection.inTransaction(logger: logger) {
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "DO $stickerd_migration$ BEGIN\n\(migration.sql)\nEND $stickerd_migration$"),
                    logger: logger)
                try await connection.query(
                    """
                    INSERT INTO schema_migrations (version, name, checksum)
                    VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                    """, logger: logger)
            }
            logger.info(
                "Applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            applied.append(migration)
        }
        return applied
    }
}
