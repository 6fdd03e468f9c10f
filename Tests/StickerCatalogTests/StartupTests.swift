import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Logging
import Testing

/// A replica started before its database can serve waits for it (`ServiceOptions.database.startupPatience`, which the
/// app's start passes to `Migrator`) instead of exiting after the pool's first second: once, on a busy machine, a
/// test's stickerd ended at start for want of a connection within 1 s.
@Suite struct StartupTests {
    @Test(.hangLimit)
    func migratingWaitsForADatabaseThatIsNotThereYet() async throws {
        // Setup: a database nobody has created yet, created 1.5 s after the migration starts; the pool's prober
        // running.
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        var later = endpoint
        later.database = (endpoint.database ?? "sc") + "_later"
        let name = try #require(later.database)
        var logger = Logger(label: "startup")
        logger.logLevel = .critical
        let pool = DatabasePool(
            endpoint: later, logger: logger, acquireTimeout: .seconds(60), statementTimeout: .seconds(120))
        let prober = Task { try await pool.run() }
        let create = Task {
            try await Task.sleep(for: .milliseconds(1500))
            try await TestDatabase.execute(endpoint, "CREATE DATABASE \(name) TEMPLATE template1")
        }
        // Action
        // A patience well past the 1.5 s: in a busy full suite the CREATE DATABASE itself was seen to take most of 30
        // s.
        let applied = await Result(catching: {
            try await Migrator().migrate(pool, logger: logger, patience: .seconds(120))
        })
        // (Read from the database: an attempt abandoned for want of a connection may still have applied them.)
        let current = try? await Migrator().isCurrent(pool, logger: logger)
        prober.cancel()
        _ = await prober.result
        _ = await create.result
        try await TestDatabase.execute(endpoint, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        // Check: every migration applied once the database was there (without patience: DatabaseUnavailable at once).
        _ = try applied.get()
        #expect(current == true)
    }
}
