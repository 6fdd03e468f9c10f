import CatalogCore
import Logging
import PostgresNIO

/// A repository of one aggregate, over the store all of them share: reaches the store's pools, revision and
/// transactions as its own.
package protocol PostgresRepository: Sendable {
    var store: PostgresStore { get }
}

extension PostgresRepository {
    package var pool: DatabasePool { store.pool }
    package var logger: Logger { store.logger }
    package var revision: CatalogRevision { store.revision }
    package var entitlementChanges: EntitlementChanges { store.entitlementChanges }
    package var replicas: ReadReplicas? { store.replicas }

    /// JSON text for a jsonb column.
    package static func json(_ value: [String: String]) -> String { PostgresStore.json(value) }

    /// A jsonb column read as text.
    package static func dictionary(_ text: String) -> [String: String] { PostgresStore.dictionary(text) }

    package func transaction<T: Sendable>(
        _ begin: PostgresQuery = "BEGIN", on pool: DatabasePool? = nil, timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await store.transaction(begin, on: pool, timeout: timeout, body)
    }

    package func read<T: Sendable>(
        on pool: DatabasePool? = nil, timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await store.read(on: pool, timeout: timeout, body)
    }

    package func write<T: Sendable>(
        keeping answer: IdempotentWrite<T>? = nil, exclusive: Bool = false, timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await store.write(keeping: answer, exclusive: exclusive, timeout: timeout, body)
    }
}

/// Groups, stickers, filters, renditions, admin tokens, and the catalog as clients read it (snapshots, image bytes).
package struct PostgresCatalog: PostgresRepository {
    package let store: PostgresStore
    package init(store: PostgresStore) { self.store = store }

    /// A catalog over a store of its own on `pool`, for tools that need nothing else (`stickerd token`, `export`).
    package init(pool: DatabasePool, revision: CatalogRevision, logger: Logger) {
        self.init(store: PostgresStore(pool: pool, revision: revision, logger: logger))
    }
}

/// Purchases, entitlements, webhook deliveries and their quarantine.
package struct PostgresPurchases: PostgresRepository {
    package let store: PostgresStore
    /// How many refused deliveries of each source and status quarantine keeps, dropping the oldest: anyone can send
    /// them.
    package let quarantineLimit: Int
    /// How many bytes of bodies and signatures each kind of refused delivery may keep, dropping the oldest.
    package let quarantineBytes: Int
    /// The quarantine's size for `/metrics`, counted at most once a minute.
    package let quarantineTally: QuarantineTally

    package init(
        store: PostgresStore, quarantineLimit: Int = 10_000, quarantineBytes: Int = 64 << 20,
        quarantineTally: QuarantineTally = QuarantineTally()
    ) {
        (self.store, self.quarantineLimit, self.quarantineBytes) = (store, quarantineLimit, quarantineBytes)
        self.quarantineTally = quarantineTally
    }
}

/// Kept releases: history, a release's catalog, restore.
package struct PostgresReleases: PostgresRepository {
    package let store: PostgresStore
    package init(store: PostgresStore) { self.store = store }
}

/// Which groups changed between revisions, for the change feed.
package struct PostgresChanges: PostgresRepository {
    package let store: PostgresStore
    package init(store: PostgresStore) { self.store = store }
}

/// Answers kept for admin writes sent with an `Idempotency-Key`.
package struct PostgresIdempotency: PostgresRepository {
    package let store: PostgresStore
    package init(store: PostgresStore) { self.store = store }
}

/// `stickerd gc` and `stickerd renditions`: unreferenced images, old history, renditions made again.
package struct PostgresMaintenance: PostgresRepository {
    package let store: PostgresStore
    package init(store: PostgresStore) { self.store = store }
}

/// Hourly usage counts: replicas add to them, trending and the admin's stats read them.
package struct PostgresUsage: PostgresRepository {
    package let store: PostgresStore
    package init(store: PostgresStore) { self.store = store }
}

/// Every repository over one store, as the composition root hands them out.
package struct PostgresRepositories: Sendable {
    package let store: PostgresStore
    package let catalog: PostgresCatalog
    package let purchases: PostgresPurchases
    package let releases: PostgresReleases
    package let changes: PostgresChanges
    package let idempotency: PostgresIdempotency
    package let maintenance: PostgresMaintenance
    package let usage: PostgresUsage

    package init(store: PostgresStore, quarantineLimit: Int = 10_000, quarantineBytes: Int = 64 << 20) {
        self.store = store
        catalog = PostgresCatalog(store: store)
        purchases = PostgresPurchases(store: store, quarantineLimit: quarantineLimit, quarantineBytes: quarantineBytes)
        releases = PostgresReleases(store: store)
        changes = PostgresChanges(store: store)
        idempotency = PostgresIdempotency(store: store)
        maintenance = PostgresMaintenance(store: store)
        usage = PostgresUsage(store: store)
    }
}
