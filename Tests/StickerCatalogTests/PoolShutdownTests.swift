import CatalogStore
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// The pool stops when its own service does, whoever used it first: `PostgresClient.run` stops at the graceful
/// shutdown of the service whose task started it, and the pool is started on first use (migrations, before its
/// service runs). SIGTERM then closed it under the usage flusher's last write, and the counts were lost.
@Suite struct PoolShutdownTests {
    /// Uses the pool first, waits for its own graceful shutdown, then uses it again.
    final class FirstUser: Service {
        let pool: DatabasePool
        let after = Mutex<String?>(nil)

        init(pool: DatabasePool) { self.pool = pool }

        func run() async throws {
            try await pool.execute("SELECT 1")
            after.withLock { $0 = "first" }
            try? await gracefulShutdown()
            do {
                try await pool.execute("SELECT 1")
                after.withLock { $0 = "answered" }
            } catch {
                after.withLock { $0 = "\(error)" }
            }
        }
    }

    @Test(.hangLimit) func aPoolStartedFromAnotherServiceOutlivesThatServicesShutdown() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        let pool = DatabasePool(endpoint: endpoint, logger: Logger(label: "pool"), acquireTimeout: .seconds(30))
        let user = FirstUser(pool: pool)
        let group = ServiceGroup(services: [user], logger: Logger(label: "group"))
        // Action: the service starts the pool, then its group shuts down gracefully (as SIGTERM does).
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            while true {
                try await Task.sleep(for: .milliseconds(50))
                if user.after.withLock({ $0 }) == "first" { break }
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        // Check: the pool still answered after that service's shutdown began.
        #expect(user.after.withLock { $0 } == "answered")
        // The pool's own service stops it.
        let running = Task { try await pool.run() }
        try await Task.sleep(for: .milliseconds(100))
        running.cancel()
        _ = await running.result
    }
}
