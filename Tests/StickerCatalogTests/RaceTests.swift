import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Dispatch
import Foundation
import Synchronization
import Testing

/// `race`, under `DatabasePool.withConnection`: a call that ignores cancellation cannot hold its caller.
@Suite struct RaceTests {
    struct Stop: Error {}

    /// Work that ignores cancellation, as a lease on a pool stopped under it did (the soak found a replica that could
    /// not shut down after a PostgreSQL restart): it waits `seconds` whatever happens, then says it is done.
    final class Stubborn: Sendable {
        private let done = Atomic<Bool>(false)
        var finished: Bool { done.load(ordering: .relaxed) }

        func run(_ seconds: Double) async -> Int {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
            }
            done.store(true, ordering: .relaxed)
            return 1
        }
    }

    @Test func theWatchdogEndsTheRaceWithoutWaitingForWorkThatIgnoresCancellation() async throws {
        let work = Stubborn()
        await #expect(throws: Stop.self) {
            try await race(
                { await work.run(20) },
                watchdog: {
                    try await Task.sleep(for: .milliseconds(50))
                    throw Stop()
                })
        }
        #expect(!work.finished, "the race waited for the work")
    }

    @Test func workThatFinishesFirstWinsAndAWatchdogThatReturnsLeavesWorkToFinish() async throws {
        #expect(try await race({ 7 }, watchdog: { try await Task.sleep(for: .seconds(30)) }) == 7)
        let work = Stubborn()
        #expect(try await race({ await work.run(0.1) + 1 }, watchdog: {}) == 2)
        await #expect(throws: Stop.self) {
            try await race(
                { () async throws -> Int in throw Stop() }, watchdog: { try await Task.sleep(for: .seconds(30)) })
        }
    }

    @Test func cancellingTheCallerEndsTheRace() async throws {
        let work = Stubborn()
        let task = Task {
            try await race({ await work.run(20) }, watchdog: { try await Task.sleep(for: .seconds(30)) })
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!work.finished, "the race waited for the work")
    }

    /// A statement past the pool's limit fails as the database's unavailability instead of holding its caller; a pool
    /// without a limit (stickerd's commands: `gc` and `rebuild` may run long) lets a longer statement finish.
    @Test func aStatementPastThePoolsLimitFailsAndAPoolWithoutOneLetsItFinish() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        let logger = TestDatabase.logger
        func sleep(_ seconds: Int, limit: Duration?) async throws -> Bool {
            // The limit counts from when the statement got its connection, however long that took (up to a minute: the
            // whole suite runs at once on two cores, and 2 s once ran out before the statement began). Counted from the
            // end of the acquire timeout instead, as it once was, the 30 s sleep would finish first.
            let pool = DatabasePool(
                endpoint: endpoint, logger: logger, acquireTimeout: .seconds(60), statementTimeout: limit)
            return try await withRunning(pool) { pool in
                try await PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger).read { connection in
                    try await connection.query("SELECT pg_sleep(\(seconds))", logger: logger)
                    return true
                }
            }
        }
        await #expect(throws: DatabaseUnavailable.self) { try await sleep(30, limit: .milliseconds(500)) }
        #expect(try await sleep(3, limit: nil))
        await drop()
    }
}
