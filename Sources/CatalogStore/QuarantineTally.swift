import Synchronization

/// How many refused deliveries the quarantine holds, for the `webhook_quarantine_size` gauge, kept current without a
/// `count(*)` on every scrape: this replica's own quarantines and prunings move it at once, and a count, which also
/// picks up other replicas' work, runs at most once per `recount`, whatever the scrape rate.
package final class QuarantineTally: Sendable {
    package let recount: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex<(size: Int, counted: ContinuousClock.Instant)?>(nil)

    package init(
        recount: Duration = .seconds(60),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        (self.recount, self.now) = (recount, now)
    }

    /// The size: the last count moved by what this replica did since, or a new `count` when that is older than
    /// `recount`.
    package func size(count: () async throws -> Int) async throws -> Int {
        let now = now()
        if let known = state.withLock({ $0 }), known.counted + recount > now { return known.size }
        let size = try await count()
        state.withLock { $0 = (size, now) }
        return size
    }

    /// Moves the size by `delta` rows this replica quarantined (+) or pruned (-).
    package func adjust(by delta: Int) {
        state.withLock { state in
            if let known = state { state = (max(0, known.size + delta), known.counted) }
        }
    }
}
