import CatalogCore
import Logging
import ServiceLifecycle
import Synchronization

/// Writes the tally to PostgreSQL every `interval`, in chunks of bounded size, each its own transaction under its own
/// id: a chunk that failed waits, unchanged, for the next flush, and one whose COMMIT went through but whose answer was
/// lost is found written and not added twice. A crash loses at most one interval of counts.
///
/// Shutdown keeps every count: when it begins (SIGTERM, `Draining`) the flusher writes at once, on a task of its own,
/// without waiting for the server's drain, and keeps writing every interval while requests finish; its own graceful
/// shutdown comes after the server's (it is listed before the application's server), and writes once more, again on
/// a task the service group's cancellation does not reach.
package final class UsageFlusher: Service, Sendable {
    package let tally: UsageTally
    package let repository: any UsageRepository
    package let interval: Duration
    package let metrics: UsageMetrics
    package let logger: Logger
    /// Chunks taken from the tally and not yet written; at most the tally's bound of claims (older ones are lost).
    private let waiting = Mutex<[UsageChunk]>([])
    /// The last flush asked for: each waits for the one before, so the last one at shutdown writes what an earlier
    /// one (begun with the drain) failed to, and the pool is not closed under a write still running.
    private let last = Mutex<Task<Bool, Never>?>(nil)

    package init(
        tally: UsageTally, repository: any UsageRepository, interval: Duration, metrics: UsageMetrics = .none,
        logger: Logger, draining: Draining? = nil
    ) {
        (self.tally, self.repository, self.interval, self.metrics, self.logger) =
            (tally, repository, interval, metrics, logger)
        draining?.onBegin { [self] in
            Task { await self.flush() }
        }
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.interval)
                guard !Task.isCancelled else { break }
                await self.flush()
            }
        }
        let pending = tally.pending + waiting.withLock { $0.reduce(0) { $0 + $1.claims.count } }
        if await flush(), pending > 0 {
            logger.info("Flushed usage counts before stopping", metadata: ["claims": "\(pending)"])
        }
    }

    /// Writes what waits and what the tally holds, after any flush under way, on a task of its own (a service group
    /// that runs out of patience cancels its services, not this write); false when a write failed (what was not
    /// written waits for the next flush).
    @discardableResult
    package func flush() async -> Bool {
        let task = last.withLock { last in
            let previous = last
            let next = Task {
                _ = await previous?.value
                return await self.write()
            }
            last = next
            return next
        }
        return await task.value
    }

    private func write() async -> Bool {
        var chunks = waiting.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
        chunks += tally.drain()
        while let chunk = chunks.first {
            let started = ContinuousClock.now
            do {
                let write = try await repository.write(chunk, perSourceHour: tally.perSourceHour)
                if case .written(let counted) = write {
                    metrics.flushed(rows: chunk.claims.count, took: ContinuousClock.now - started)
                    metrics.capped(chunk.uses - counted)
                }
                chunks.removeFirst()
            } catch {
                metrics.flushFailed()
                let lost = keep(chunks)
                logger.warning(
                    "Could not write usage counts; they wait for the next flush",
                    metadata: [
                        "claims": "\(chunk.claims.count)", "lost": "\(lost)", "error": "\(String(reflecting: error))",
                    ])
                return false
            }
        }
        return true
    }

    /// Puts `chunks` back to wait, before any that came meanwhile, within the bound; the claims lost to it.
    private func keep(_ chunks: [UsageChunk]) -> Int {
        waiting.withLock { waiting in
            waiting = chunks + waiting
            var (held, lost) = (0, 0)
            waiting = waiting.filter { chunk in
                held += chunk.claims.count
                if held > tally.maxClaims { lost += chunk.claims.count }
                return held <= tally.maxClaims
            }
            return lost
        }
    }
}
