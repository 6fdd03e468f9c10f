import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Logging
import PostgresNIO
import StickerImage

/// Real PostgreSQL for tests: DATABASE_URL's server, or a throwaway cluster this process starts and stops.
/// Two templates are migrated once (one with the demo catalog); every test gets its own clone of one.
actor TestDatabase {
    static let shared = TestDatabase()
    static let logger = Logger(label: "tests")

    private var setup: Task<Base, any Error>?
    private var counter = 0

    struct Base: Sendable {
        /// The maintenance database, where databases are created and dropped.
        let maintenance: DatabaseEndpoint
        /// The same server, another database.
        let configure: @Sendable (String) -> DatabaseEndpoint
        /// The throwaway cluster, when the suite started one.
        let cluster: EmbeddedPostgres?
    }

    /// A new database cloned from the migrated template (or, with `migrated` false, an empty one), and a function that
    /// drops it.
    func clone(demo: Bool, migrated: Bool = true) async throws -> (DatabaseEndpoint, @Sendable () async -> Void) {
        let base = try await base()
        counter += 1
        let name = "sc_test_\(getpid())_\(counter)"
        let template = !migrated ? "template1" : demo ? "sc_template_demo" : "sc_template"
        try await Self.execute(base.maintenance, "CREATE DATABASE \(name) TEMPLATE \(template)")
        return (
            base.configure(name),
            { try? await Self.execute(base.maintenance, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        )
    }

    private func base() async throws -> Base {
        if setup == nil { setup = Task { try await Self.makeBase() } }
        return try await setup!.value
    }

    private static func makeBase() async throws -> Base {
        // The suite holds hundreds of sockets at once (streams, idle connections, pools) in parallel tests: a shell's
        // soft descriptor limit of 1024 is not the point of any test.
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        let base: Base
        if let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty {
            let endpoint = try DatabaseEndpoint.parse(url)
            base = Base(
                maintenance: endpoint,
                configure: { name in
                    var copy = endpoint
                    copy.database = name
                    return copy
                }, cluster: nil)
        } else {
            ClusterCleanup.removeStale()
            let directory = NSTemporaryDirectory() + "stickercatalog-tests-\(getpid())"
            let cluster = EmbeddedPostgres(directory: directory, durable: false, logger: logger)
            let endpoint = try cluster.start()
            ClusterCleanup.register(cluster, directory: directory)
            base = Base(
                maintenance: endpoint,
                configure: { name in
                    var copy = endpoint
                    copy.database = name
                    return copy
                }, cluster: cluster)
        }
        for (template, demo) in [("sc_template", false), ("sc_template_demo", true)] {
            try await execute(base.maintenance, "DROP DATABASE IF EXISTS \(template) WITH (FORCE)")
            try await execute(base.maintenance, "CREATE DATABASE \(template)")
            try await withPool(base.configure(template)) { pool in
                try await Migrator().migrate(pool, logger: logger)
                if demo {
                    let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger)
                    try await DemoCatalog.loadIfEmpty(into: catalog, validator: StickerValidator(), logger: logger)
                }
            }
            // A template must have no sessions left when it is copied.
            try await execute(
                base.maintenance, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(template)'"
            )
        }
        return base
    }

    /// Runs `body` with a running pool, then shuts the pool down.
    static func withPool<T: Sendable>(
        _ endpoint: DatabaseEndpoint, _ body: @Sendable (DatabasePool) async throws -> T
    ) async throws -> T {
        // Generous timeouts: the whole suite runs at once on two cores, where loading the demo catalog in one
        // transaction once took over the service's 10 s (the outage test makes its own pool).
        try await withRunning(
            DatabasePool(
                endpoint: endpoint, logger: logger, acquireTimeout: .seconds(60), statementTimeout: .seconds(120)), body
        )
    }

    static func execute(_ endpoint: DatabaseEndpoint, _ sql: String) async throws {
        try await withPool(endpoint) { try await $0.execute(sql) }
    }

    /// The suite's own cluster, when it started one (tests that stop PostgreSQL make a cluster of their own).
    func cluster() async throws -> EmbeddedPostgres? {
        try await base().cluster
    }
}

/// Stops the throwaway cluster when the test process exits, and those of test runs that crashed.
enum ClusterCleanup {
    /// Clusters left by test processes that no longer run.
    static func removeStale() {
        let folder = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            // The suite's own cluster, and the outage test's (a killed test process leaves both running).
            guard let prefix = ["stickercatalog-tests-", "stickercatalog-outage-"].first(where: name.hasPrefix),
                let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0
            else { continue }
            let stale = EmbeddedPostgres(directory: folder + name, durable: false, logger: TestDatabase.logger)
            stale.stopAbandoned()
            try? FileManager.default.removeItem(atPath: folder + name)
        }
    }

    nonisolated(unsafe) private static var cluster: (EmbeddedPostgres, String)?

    static func register(_ embedded: EmbeddedPostgres, directory: String) {
        cluster = (embedded, directory)
        atexit {
            guard let (embedded, directory) = ClusterCleanup.cluster else { return }
            embedded.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
