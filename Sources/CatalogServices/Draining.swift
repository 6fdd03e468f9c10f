import Logging
import ServiceLifecycle
import Synchronization

/// Whether this replica is shutting down: from SIGTERM on, `/readyz` answers 503 so that load balancers stop
/// sending it traffic, while it goes on serving for the drain period.
package final class Draining: Sendable {
    private let started = Atomic<Bool>(false)

    package init() {}

    package var isDraining: Bool { started.load(ordering: .relaxed) }

    package func begin() { started.store(true, ordering: .relaxed) }
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
