import CatalogCore
import Foundation
import Logging
import PostgresNIO

/// What every repository of the store shares: the pools, the in-memory revision and entitlement changes that
/// committed writes advance, and the transactions they run in (raw SQL with bound parameters). The repositories
/// (`PostgresCatalog`, `PostgresPurchases`, `PostgresReleases`, `PostgresChanges`, `PostgresIdempotency`,
/// `PostgresMaintenance`) each hold one and implement CatalogCore's ports for one aggregate.
package struct PostgresStore: Sendable {
    package let pool: DatabasePool
    package let logger: Logger
    /// Told the new revision after every committed write, so this replica sees its own changes at once.
    package let revision: CatalogRevision
    /// Told the users whose entitlements a committed write changed.
    package let entitlementChanges: EntitlementChanges
    /// Hot standbys for snapshots and image bytes; nil: every read on the primary.
    package let replicas: ReadReplicas?
    /// Writes holding connections at once: those waiting on a restore leave the rest of the pool to reads.
    package let writes: WriteAdmission

    package init(
        pool: DatabasePool, revision: CatalogRevision, logger: Logger,
        entitlementChanges: EntitlementChanges = EntitlementChanges(), replicas: ReadReplicas? = nil,
        writes: WriteAdmission = WriteAdmission()
    ) {
        self.replicas = replicas
        self.writes = writes
        self.pool = pool
        self.revision = revision
        self.logger = logger
        self.entitlementChanges = entitlementChanges
    }

    /// Runs `body` in a transaction that `begin` opens, rolling back on any error; PostgreSQL's refusals of client
    /// data come out as `CatalogError`s.
    package func transaction<T: Sendable>(
        _ begin: PostgresQuery = "BEGIN", on pool: DatabasePool? = nil, timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await read(on: pool, timeout: timeout) { connection in
            try await connection.inTransaction(begin, logger: logger) { try await body(connection) }
        }
    }

    /// Runs `body` on a connection of its own (of `pool`, else the primary's), outside any transaction.
    /// `timeout`: how long the work may hold its connection, when not the pool's statement timeout.
    package func read<T: Sendable>(
        on pool: DatabasePool? = nil, timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let pool = pool ?? self.pool
        do {
            return try await pool.withConnection(timeout: timeout ?? pool.statementTimeout, body)
        } catch let error as PSQLError {
            throw CatalogError(refusal: error) ?? error
        }
    }

    /// A write transaction: afterwards the in-memory revision moves to what the write produced. With `answer`, the
    /// transaction also claims its idempotency key and keeps its answer (`keeping`). `exclusive`: no other catalog
    /// write runs beside this one (a restore, which rewrites the whole catalog).
    package func write<T: Sendable>(
        keeping answer: IdempotentWrite<T>? = nil, exclusive: Bool = false, timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = self.logger
        let (value, newRevision) = try await writes.run {
            try await transaction(timeout: timeout) { connection in
                // First, before any row lock: the schedule triggers take this lock too, and taking it after a row lock
                // that `apply_schedule` (which holds it exclusively) then waits for would deadlock
                // (sql/0013_schedules.sql). The release this write may make is the admin's (`ReleaseAuthor`), else the
                // service's own.
                let author = ReleaseAuthor.name ?? "stickerd"
                try await connection.query(
                    exclusive
                        ? "SELECT pg_advisory_xact_lock(\(Self.scheduleLock)), set_config('stickercatalog.author', \(author), true)"
                        : "SELECT pg_advisory_xact_lock_shared(\(Self.scheduleLock)), set_config('stickercatalog.author', \(author), true)",
                    logger: logger)
                let value = try await keeping(answer, connection) { try await body(connection) }
                let rows = try await connection.query("SELECT revision, stamp FROM catalog_revision", logger: logger)
                var newRevision: (Int64, Int64) = (0, 0)
                for try await row in rows.decode((Int64, Int64).self) { newRevision = row }
                return (value, newRevision)
            }
        }
        revision.advance(to: newRevision.0, stamp: newRevision.1)
        return value
    }

    /// JSON text for a jsonb column.
    package static func json(_ value: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A jsonb column read as text.
    package static func dictionary(_ text: String) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]) ?? [:]
    }

    /// The advisory lock `apply_schedule` holds exclusively and every catalog write shares ("SCHR").
    package static let scheduleLock: Int64 = 0x5343_4852
}
