import CatalogCore
import Logging

extension PostgresRepositories {
    /// The repositories as the ports the routes take (`buildRouter`), with the pool and `listener` as their health.
    package func ports(listener: RevisionListener) -> CatalogPorts {
        CatalogPorts(
            groups: catalog, stickers: catalog, filters: catalog, reader: catalog, schedule: catalog,
            releases: releases, adminTokens: catalog, changes: changes, idempotency: idempotency,
            purchases: purchases, usage: usage,
            health: PostgresHealth(pool: store.pool, listener: listener, logger: store.logger),
            revision: store.revision, entitlementChanges: store.entitlementChanges)
    }
}

/// The database's health as readiness and the gauges read it: the pool's state, the revision listener's, and whether
/// every bundled migration is applied.
package struct PostgresHealth: DatabaseHealth {
    package let pool: DatabasePool
    package let listener: RevisionListener
    package let logger: Logger

    package var isAvailable: Bool { pool.isAvailable }
    package var connections: (inUse: Int, waiting: Int) { pool.usage.current }
    package var keepsUp: Bool { listener.isCurrent }

    package func migrationsApplied() async throws -> Bool {
        try await Migrator().isCurrent(pool, logger: logger)
    }
}
