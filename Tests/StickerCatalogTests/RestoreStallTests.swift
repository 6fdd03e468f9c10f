import CatalogCore
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import Testing

/// Writes waiting on a restore (which holds the schedule lock exclusively) wait in memory past a few, not on pooled
/// connections, so client reads that need the database keep answering.
@Suite struct RestoreStallTests {
    @Test(
        "25 concurrent PATCHes during a held restore lock leave client reads answering 200/404, never 503", .hangLimit)
    func writesWaitingOnARestoreLeaveConnectionsForReads() async throws {
        try await withApp(demo: true) { client, db in
            let manifest = try await ChangeFeedTests.manifest(client)
            let stickers = manifest.groups.flatMap(\.stickers)
            // Setup: the schedule lock held exclusively, as a restore holds it (on a connection of its own: the app's
            // pool may have none to spare, which is what is tested).
            let locker = try await db.endpoint.connect(applicationName: "restore", logger: TestDatabase.logger)
            let outcome: (reads: [HTTPResponse.Status], waiting: Int, writes: Task<[HTTPResponse.Status], any Error>)
            do {
                try await locker.query("BEGIN", logger: TestDatabase.logger)
                try await locker.query(
                    "SELECT pg_advisory_xact_lock(\(PostgresStore.scheduleLock))", logger: TestDatabase.logger)
                outcome = try await Self.burst(client, stickers: stickers.map(\.id), locker: locker)
            } catch {
                try? await locker.close()
                throw error
            }
            try await locker.query("ROLLBACK", logger: TestDatabase.logger)
            try await locker.close()
            let (reads, waiting) = (outcome.reads, outcome.waiting)
            // Check: every read answered (never a 503), a few writes held connections while waiting, and those went
            // through once the lock was gone; the others went through too, or, queued past WriteAdmission's 15 s (a
            // busy machine's test can hold the lock that long), were refused with a fast 503, never another answer.
            #expect(reads.allSatisfy { $0 == .ok || $0 == .notFound }, "\(reads)")
            let permits = WriteAdmission().permits
            #expect(waiting <= permits)
            let written = try await outcome.writes.value
            #expect(written.count == 25 && written.allSatisfy { $0 == .ok || $0 == .serviceUnavailable }, "\(written)")
            #expect(written.filter { $0 == .ok }.count >= permits, "\(written)")
        }
    }

    /// Writes waiting on a lock: how many sessions of the test's database wait on the shared schedule lock.
    static func waitingWrites(_ locker: PostgresConnection) async throws -> Int {
        // In a transaction, activity statistics are a snapshot taken once unless cleared.
        try await locker.query("SELECT pg_stat_clear_snapshot()", logger: TestDatabase.logger)
        let rows = try await locker.query(
            """
            SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock'
            AND query LIKE '%pg_advisory_xact_lock_shared%' AND datname = current_database()
            """, logger: TestDatabase.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// 25 console writes at once (they wait on the lock), then 30 client reads that need the database: the reads'
    /// statuses, the writes waiting on connections of their own, and the writes' task.
    static func burst(
        _ client: some TestClientProtocol, stickers: [String], locker: PostgresConnection
    ) async throws -> (reads: [HTTPResponse.Status], waiting: Int, writes: Task<[HTTPResponse.Status], any Error>) {
        let writes = Task {
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<25 {
                    let id = stickers[index % stickers.count]
                    group.addTask {
                        try await client.execute(
                            uri: "/v1/admin/stickers/\(id)", method: .patch, headers: admin,
                            body: Body.json(["description": "Written during a restore \(index)"])
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while try await waitingWrites(locker) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(300))  // the rest of the burst arrives
        let reads = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for index in 0..<30 {
                group.addTask {
                    let digest = (0..<64).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
                    let uri = index == 0 ? "/v1/manifest" : "/v1/assets/\(digest).png"
                    return try await client.execute(uri: uri, method: .get).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return (reads, try await waitingWrites(locker), writes)
    }
}
