import Logging
import ServiceLifecycle
import Synchronization

/// Whether this replica is shutting down: from SIGTERM on, `/readyz` answers 503 so that load balancers stop
/// sending it traffic, while it goes on serving for the drain period.
package final class Draining: Sendable {
    private let started = Atomic<Bool>(false)
    private let actions = Mutex<[@Sendable () -> Void]?>([])

    package init() {}

    package var isDraining: Bool { started.load(ordering: .relaxed) }

    package func begin() {
        started.store(true, ordering: .relaxed)
        for action in actions.withLock({ actions in
            defer { actions = nil }
            return actions ?? []
        }) { action() }
    }

    /// Runs `action` when shutdown begins (at once if it has): for work that must not wait for the drain, such as
    /// writing the usage counts held in memory.
    package func onBegin(_ action: @escaping @Sendable () -> Void) {
        let now = actions.withLock { actions -> Bool in
            guard actions != nil else { return true }
            actions!.append(action)
            return false
        }
        if now { action() }
    }
}

/// Shutdown in two steps. Registered after the application in the service group, this service is the first to hear
/// of a graceful shutdown (a group shuts its services down last to first): it marks the replica draining, keeps it
/// serving for `period`, then returns, and only then does the server stop accepting connections and finish the
/// requests and event streams in flight.
package struct DrainService: Service {
    package let draining: Draining
    package let period: Duration
    package let logger: Logger

    package init(draining: Draining, period: Duration, logger: Logger) {
        (self.draining, self.period, self.logger) = (draining, period, logger)
    }

    package func run() async throws {
        // Returns when a graceful shutdown begins; throws when the group is cancelled instead.
        try await gracefulShutdown()
        draining.begin()
        logger.notice(
            "Shutting down: /readyz answers 503; serving for \(period) more, then finishing what is in flight")
        try? await Task.sleep(for: period)
    }
}
