import Foundation
import Logging
import PostgresNIO
@testable import StickerCatalog
import StickerImage

/// Real PostgreSQL for tests: DATABASE_URL's server, or a throwaway cluster this process starts and stops.
/// Two templates are migrated once (one with the demo catalog); every test gets its own clone of one.
actor TestDatabase {
    static let shared = TestDatabase()
    static let logger = Logger(label: "tests")

    private var setup: Task<Base, any Error>?
    private var counter = 0

    struct Base: Sendable {
        /// Connects to the maintenance database, where databases are created and dropped.
        let maintenance: PostgresClient.Configuration
        /// The same server, another database.
        let configure: @Sendable (String) -> PostgresClient.Configuration
    }

    /// A new database cloned from the migrated template (or, with `migrated` false, an empty one), and a function that drops it.
    func clone(demo: Bool, migrated: Bool = true) async throws -> (PostgresClient.Configuration, @Sendable () async -> Void) {
        let base = try await base()
        counter += 1
        let name = "sc_test_\(getpid())_\(counter)"
        let template = !migrated ? "template1" : demo ? "sc_template_demo" : "sc_template"
        try await Self.execute(base.maintenance, "CREATE DATABASE \(name) TEMPLATE \(template)")
        return (base.configure(name), { try? await Self.execute(base.maintenance, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") })
    }

    private func base() async throws -> Base {
        if setup == nil { setup = Task { try await Self.makeBase() } }
        return try await setup!.value
    }

    private static func makeBase() async throws -> Base {
        let base: Base
        if let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty {
            let (configuration, _) = try Database.parse(url)
            base = Base(maintenance: configuration, configure: { name in
                var copy = configuration
                copy.database = name
                return copy
            })
        } else {
            ClusterCleanup.removeStale()
            let directory = NSTemporaryDirectory() + "stickercatalog-tests-\(getpid())"
            let cluster = EmbeddedPostgres(directory: directory, durable: false, logger: logger)
            let configuration = try cluster.start()
            ClusterCleanup.register(cluster, directory: directory)
            base = Base(maintenance: configuration, configure: { name in
                PostgresClient.Configuration(unixSocketPath: cluster.socketPath, username: EmbeddedPostgres.user, password: nil, database: name)
            })
        }
        for (template, demo) in [("sc_template", false), ("sc_template_demo", true)] {
            try await execute(base.maintenance, "DROP DATABASE IF EXISTS \(template) WITH (FORCE)")
            try await execute(base.maintenance, "CREATE DATABASE \(template)")
            try await withClient(base.configure(template)) { client in
                try await Migrator().migrate(client, logger: logger)
                if demo {
                    let catalog = PostgresCatalog(client: client, revision: CatalogRevision(), logger: logger)
                    try await DemoCatalog.loadIfEmpty(into: catalog, validator: StickerValidator(), logger: logger)
                }
            }
            // A template must have no sessions left when it is copied.
            try await execute(base.maintenance, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(template)'")
        }
        return base
    }

    /// Runs `body` with a running client, then shuts the client down.
    static func withClient<T: Sendable>(_ configuration: PostgresClient.Configuration, _ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
        try await withRunning(PostgresClient(configuration: configuration, backgroundLogger: logger), body)
    }

    static func execute(_ configuration: PostgresClient.Configuration, _ sql: String) async throws {
        try await withClient(configuration) { try await $0.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
    }
}

/// Stops the throwaway cluster when the test process exits, and those of test runs that crashed.
enum ClusterCleanup {
    /// Clusters left by test processes that no longer run.
    static func removeStale() {
        let folder = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("stickercatalog-tests-") {
            guard let pid = Int32(name.dropFirst("stickercatalog-tests-".count)), kill(pid, 0) != 0 else { continue }
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
