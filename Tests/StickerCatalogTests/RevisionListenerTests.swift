import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import PostgresNIO
import Synchronization
import Testing

/// The revision listener against PostgreSQL: it must stop when told, whatever its connection is doing.
@Suite struct RevisionListenerTests {
    @Test("Stopped while its poll waits on PostgreSQL, it stops at once, not when the poll is answered", .hangLimit)
    func stopsWhileAPollWaits() async throws {
        // Setup: catalog_revision locked by another session, so the listener's poll waits (its deadline is ten
        // minutes).
        let (endpoint, drop) = try await Self.step("cloning a database") {
            try await TestDatabase.shared.clone(demo: false)
        }
        defer { Task { await drop() } }
        let logger = TestDatabase.logger
        let locker = try await Self.step("locking catalog_revision") {
            let locker = try await endpoint.connect(applicationName: "locker", logger: logger)
            try await locker.query("BEGIN", logger: logger)
            try await locker.query("LOCK TABLE catalog_revision IN ACCESS EXCLUSIVE MODE", logger: logger)
            return locker
        }
        let listener = RevisionListener(
            endpoint: endpoint, revision: CatalogRevision(), logger: logger, pollTimeout: .seconds(600))
        let ended = Atomic(false)
        let running = Task {
            try? await listener.run()
            ended.store(true, ordering: .relaxed)
        }
        try await Self.step("waiting for the poll to wait on the lock") {
            try await TestDatabase.withPool(endpoint) {
                try await EntitlementRuleAPITests.waitForLockWait(
                    $0, query: "SELECT revision, stamp FROM catalog_revision")
            }
        }
        // Action
        running.cancel()
        // Check: it ended with the lock still held. (Its poll, awaited in a task group, once kept it waiting for the
        // answer; here, until the lock goes.)
        let stopped = try await eventually {
            ended.load(ordering: .relaxed)
        } until: {
            $0
        }
        try await Self.step("releasing the lock") {
            try await locker.query("ROLLBACK", logger: logger)
            try await locker.close()
        }
        #expect(stopped)
    }

    /// `body`, whose error, should it throw, says which step it was and all PostgreSQL said: this test failed once on
    /// a busy machine with only "PSQLError – Generic description".
    static func step<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            Issue.record("\(name): \(String(reflecting: error))")
            throw error
        }
    }
}
