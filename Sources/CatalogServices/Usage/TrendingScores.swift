import CatalogCore
import Foundation
import Logging
import Synchronization

/// The usage counts' scores as this replica last read them (every `interval`, in the background, one read at a time),
/// and a generation that moves only when some window's order changed: what trending and search's tie-break are
/// computed from, and what their cached answers are keyed by. Requests never wait for a read, except the first.
package final class TrendingScores: Sendable {
    package struct Reading: Sendable {
        package let scores: StickerScores
        package let generation: Int
    }

    private struct State {
        var reading: Reading?
        var orders: [[UUID]] = []
        var attempted: ContinuousClock.Instant?
        var failed = false
    }

    package let repository: any UsageRepository
    package let interval: Duration
    package let logger: Logger
    private let state = Mutex(State())
    private let loads = SingleFlight<Int, Reading>()

    package init(repository: any UsageRepository, interval: Duration = .seconds(30), logger: Logger) {
        (self.repository, self.interval, self.logger) = (repository, interval, logger)
    }

    /// The scores read last, read now if none were (a 503 when that fails, or failed within the last two seconds);
    /// read again in the background when older than `interval`.
    package func current() async throws -> Reading {
        let (reading, attempted, failed) = state.withLock { ($0.reading, $0.attempted, $0.failed) }
        if let reading {
            refreshIfDue()
            return reading
        }
        if failed, let attempted, ContinuousClock.now - attempted < .seconds(2) {
            throw DatabaseUnavailable(reason: "usage counts could not be read")
        }
        return try await load()
    }

    /// The scores read last, without waiting: nil before the first read (which this starts).
    package func latest() -> Reading? {
        refreshIfDue()
        return state.withLock { $0.reading }
    }

    /// Reads the scores now (one read for every caller) and keeps them.
    @discardableResult
    package func load() async throws -> Reading {
        try await loads.run(0) { [self] in
            state.withLock { $0.attempted = .now }
            do {
                let scores = try await repository.scores()
                return state.withLock { state in
                    let orders = TrendWindow.allCases.map { Self.order(scores[$0]) }
                    let generation = (state.reading?.generation ?? 0) + (orders == state.orders ? 0 : 1)
                    state.orders = orders
                    state.failed = false
                    state.reading = Reading(scores: scores, generation: generation)
                    return state.reading!
                }
            } catch {
                state.withLock { $0.failed = true }
                logger.warning("Could not read usage scores", metadata: ["error": "\(String(reflecting: error))"])
                throw error
            }
        }
    }

    private func refreshIfDue() {
        let due = state.withLock { state in
            // Marked here, under the lock: many requests finding it due start one read.
            let wait = state.failed ? min(interval, .seconds(2)) : interval
            if let attempted = state.attempted, ContinuousClock.now - attempted < wait { return false }
            state.attempted = .now
            return true
        }
        if due { Task { try? await load() } }
    }

    /// Ids by score, highest first, ties by id: what a generation compares.
    static func order(_ scores: [UUID: Double]) -> [UUID] {
        scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.uuidString < $1.key.uuidString }.map(\.key)
    }
}
