import CatalogCore
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The catalog's connections to PostgreSQL. Requests wait at most `acquireTimeout` for a connection, then fail with
/// `DatabaseUnavailable`; after a connection error (refused, reset, server shutting down) they fail at once until a
/// probe, every `probeInterval`, reaches PostgreSQL again. The probe replaces the PostgresNIO pool when that pool is
/// still backing off (it waits up to a minute between attempts), so service resumes within about a second of
/// PostgreSQL's return.
package final class DatabasePool: Service, Sendable {
    /// The connections a pool holds at most, PostgresNIO's default (`DescriptorBudget` counts them).
    package static let defaultMaximumConnections = PostgresClient.Configuration.Options().maximumConnections

    package let endpoint: DatabaseEndpoint
    package let logger: Logger
    package let acquireTimeout: Duration
    package let probeInterval: Duration
    /// Longest a statement may run once it has a connection (the connection is closed past it); nil: no limit.
    package let statementTimeout: Duration?

    /// What the last attempts said about PostgreSQL.
    package enum Health: Sendable {
        case up
        /// A request timed out: it may be a hang or just load, so requests still try, and the probe runs.
        case suspect
        /// A connection failed outright: requests fail at once until the probe succeeds.
        case down
    }

    private struct State {
        package var client: PostgresClient
        package var running: Task<Void, Never>?
        package var health = Health.up
    }

    private let state: Mutex<State>
    /// Connections in use and callers waiting, for `/metrics`.
    package let usage = PoolUsage()

    package init(
        endpoint: DatabaseEndpoint, logger: Logger, acquireTimeout: Duration = .seconds(1),
        probeInterval: Duration = .milliseconds(500), statementTimeout: Duration? = .seconds(10)
    ) {
        self.endpoint = endpoint
        self.logger = logger
        self.acquireTimeout = acquireTimeout
        self.probeInterval = probeInterval
        self.statementTimeout = statementTimeout
        state = Mutex(
            State(client: PostgresClient(configuration: endpoint.clientConfiguration(), backgroundLogger: logger)))
    }

    /// False from a connection failure until a probe reaches PostgreSQL again.
    package var isAvailable: Bool { state.withLock { $0.health != .down } }

    /// Runs `body` with a connection; `timeout` nil lets it run as long as it needs (migrations).
    package func withConnection<T: Sendable>(
        timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let (client, health) = startIfNeeded()
        if health == .down {
            throw DatabaseUnavailable(reason: "PostgreSQL did not answer the last attempt; retrying in the background")
        }
        let lease = ConnectionLease()
        let usage = self.usage
        let ticket = usage.waiting()
        defer { usage.finished(ticket) }
        do {
            return try await race(
                {
                    try await client.withConnection { connection in
                        usage.acquired(ticket)
                        lease.acquired(connection)
                        defer { lease.returned() }
                        return try await body(connection)
                    }
                },
                watchdog: { [acquireTimeout] in
                    // The statement's time counts from when it got its connection, however long that took. Its deadline
                    // is never before a look plus `timeout`, so the watchdog wakes no sooner than that while it waits.
                    let waitDeadline = ContinuousClock.now + acquireTimeout
                    while true {
                        switch lease.phase {
                        case .waiting:
                            guard ContinuousClock.now < waitDeadline else {
                                throw TimedOut(reason: "no connection within \(acquireTimeout)")
                            }
                            try await Task.sleep(until: timeout.map { min(waitDeadline, .now + $0) } ?? waitDeadline)
                        case .held(let since):
                            guard let timeout else { return }
                            try await Task.sleep(until: since + timeout)
                            // Given back meanwhile (to another request, perhaps): not this statement's to close.
                            guard lease.closeIfHeld() else { return }
                            throw TimedOut(reason: "a statement ran longer than \(timeout)")
                        case .returned:
                            return
                        }
                    }
                })
        } catch let timeout as TimedOut {
            mark(.suspect, timeout)
            throw DatabaseUnavailable(reason: timeout.reason)
        } catch {
            // Before a connection is leased, any failure is the database's; afterwards only connection errors are.
            if lease.phase == .waiting && !(error is CancellationError && Task.isCancelled)
                || DatabaseUnavailable.describes(error)
            {
                mark(.down, error)
                throw error as? DatabaseUnavailable ?? DatabaseUnavailable(reason: "\(error)")
            }
            throw error
        }
    }

    private struct TimedOut: Error {
        package let reason: String
    }

    private func mark(_ health: Health, _ error: any Error) {
        let before = state.withLock { state in
            defer { if state.health != .down { state.health = health } }
            return state.health
        }
        if before == .up {
            logger.error(
                health == .down
                    ? "PostgreSQL is unavailable; answering 503 until it is back"
                    : "PostgreSQL did not answer in time; probing it",
                metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    package func run() async throws {
        _ = startIfNeeded()
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.probeInterval)
                if self.state.withLock({ $0.health }) != .up { await self.probe() }
            }
        }
        let running = state.withLock { $0.running }
        running?.cancel()
        await running?.value
    }

    /// The current pool, started on first use, and the database's health.
    private func startIfNeeded() -> (PostgresClient, Health) {
        state.withLock { state in
            if state.running == nil {
                let client = state.client
                // Detached: `PostgresClient.run` stops at the graceful shutdown of the service whose task made it
                // (a task-local). Started on first use, that could be the application's (migrations before this
                // service ran), and SIGTERM then closed the pool under the flusher's last write. It stops when this
                // service's `run` cancels it, last of all.
                state.running = Task.detached { await client.run() }
            }
            return (state.client, state.health)
        }
    }

    /// Makes `client` (run by `task`) the pool every request uses, and stops the one before it.
    private func start(_ client: PostgresClient, running task: Task<Void, Never>) {
        let previous = state.withLock { state in
            defer { (state.client, state.running, state.health) = (client, task, .up) }
            return state.running
        }
        previous?.cancel()
    }

    /// A connection of its own first tells a server that refuses or ignores connections (down: requests fail at once)
    /// from one that answers; then the current pool is tried, and a fresh one when the current one is still backing
    /// off.
    private func probe() async {
        do {
            try await Self.within(acquireTimeout) { [endpoint, logger] in
                let connection = try await endpoint.connect(applicationName: "stickerd probe", logger: logger)
                do {
                    try await connection.query("SELECT 1", logger: logger)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try await connection.close()
            }
        } catch {
            mark(.down, error)
            return
        }
        let current = state.withLock { $0.client }
        if await Self.answers(current, within: acquireTimeout) {
            state.withLock { $0.health = .up }
            logger.notice("PostgreSQL answers again")
            return
        }
        let fresh = PostgresClient(configuration: endpoint.clientConfiguration(), backgroundLogger: logger)
        let task = Task.detached { await fresh.run() }  // as in `startIfNeeded`
        if await Self.answers(fresh, within: acquireTimeout) {
            start(fresh, running: task)
            logger.notice("PostgreSQL answers again; replaced the connection pool, which was still backing off")
        } else {
            task.cancel()  // not awaited: a pool stopping with a connection attempt under way may take its time
        }
    }

    /// Runs `body`, throwing `TimedOut` when it takes longer than `timeout`. Raced, not awaited in a task group: a
    /// connection attempt or a lease that ignores cancellation once held the probe, and with it the pool, down for
    /// good.
    private static func within(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await race(
            body,
            watchdog: {
                try await Task.sleep(for: timeout)
                throw TimedOut(reason: "no answer within \(timeout)")
            })
    }

    private static func answers(_ client: PostgresClient, within timeout: Duration) async -> Bool {
        (try? await within(timeout) { _ = try await client.query("SELECT 1") }) != nil
    }
}

/// The connection a `withConnection` call got: none yet, held since a moment, or given back to the pool.
private final class ConnectionLease: Sendable {
    package enum Phase: Equatable {
        case waiting
        case held(since: ContinuousClock.Instant)
        case returned
    }
    private let state = Mutex<(phase: Phase, connection: PostgresConnection?)>((.waiting, nil))

    package var phase: Phase { state.withLock { $0.phase } }
    package func acquired(_ connection: PostgresConnection) { state.withLock { $0 = (.held(since: .now), connection) } }
    package func returned() { state.withLock { $0 = (.returned, nil) } }

    /// Closes the connection if it is still held (under the lock, so it cannot be given back meanwhile); whether it
    /// was.
    package func closeIfHeld() -> Bool {
        state.withLock { state in
            state.connection?.close().whenComplete { _ in }
            return state.connection != nil
        }
    }
}
