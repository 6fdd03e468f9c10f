import CatalogCore
import Logging
import ServiceLifecycle

/// Writes the tally to PostgreSQL every `interval` as one upsert, and once more when the service shuts down
/// gracefully (SIGTERM): it is listed after the database pool, so it stops, and flushes, while the pool still serves.
/// A crash loses at most one interval of counts. A failed flush puts its counts back for the next one.
package struct UsageFlusher: Service {
    package let tally: UsageTally
    package let repository: any UsageRepository
    package let interval: Duration
    package let metrics: UsageMetrics
    package let logger: Logger

    package init(
        tally: UsageTally, repository: any UsageRepository, interval: Duration, metrics: UsageMetrics = .none,
        logger: Logger
    ) {
        (self.tally, self.repository, self.interval, self.metrics, self.logger) =
            (tally, repository, interval, metrics, logger)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                await flush()
            }
        }
        let pending = tally.pending
        if await flush(), pending > 0 {
            logger.info("Flushed usage counts before stopping", metadata: ["buckets": "\(pending)"])
        }
    }

    /// Writes what the tally holds; false (and the counts kept for the next flush) when the write failed.
    @discardableResult
    package func flush() async -> Bool {
        let counts = tally.drain()
        guard !counts.isEmpty else { return true }
        let started = ContinuousClock.now
        do {
            try await repository.add(counts)
            metrics.flushed(rows: counts.count, took: ContinuousClock.now - started)
            return true
        } catch {
            let lost = tally.restore(counts)
            metrics.flushFailed()
            logger.warning(
                "Could not write usage counts; they wait for the next flush",
                metadata: ["buckets": "\(counts.count)", "lost": "\(lost)", "error": "\(String(reflecting: error))"])
            return false
        }
    }
}
