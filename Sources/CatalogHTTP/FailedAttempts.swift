import CatalogServices
import Synchronization

/// Failed admin-token attempts per source address: past `limit` in one `window`, a source is refused (429 with
/// `Retry-After`) until its window ends, before its token is even looked up. So guessing tokens costs a guesser
/// `limit` tries a window per address and the database nothing more. Bounded: at most `capacity` sources are
/// tracked; when full, expired windows go first, then the oldest.
package final class FailedAttempts: Sendable {
    package struct Window {
        package var start: ContinuousClock.Instant
        package var failures: Int
    }

    package let limit: Int
    package let window: Duration
    package let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sources = Mutex<[ClientAddress: Window]>([:])

    package init(
        limit: Int = 10, window: Duration = .seconds(60), capacity: Int = 10_000,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        (self.limit, self.window, self.capacity, self.now) = (limit, window, capacity, now)
    }

    /// How long `source` must wait before trying again; nil when it may try now.
    package func wait(for source: ClientAddress) -> Duration? {
        let now = now()
        return sources.withLock { sources in
            guard let entry = sources[source], entry.start + window > now, entry.failures >= limit else { return nil }
            return entry.start + window - now
        }
    }

    /// Counts a failed attempt from `source`.
    package func fail(_ source: ClientAddress) {
        let now = now()
        sources.withLock { sources in
            if var entry = sources[source], entry.start + window > now {
                entry.failures += 1
                sources[source] = entry
                return
            }
            if sources.count >= capacity { Self.makeRoom(in: &sources, now: now, window: window, capacity: capacity) }
            sources[source] = Window(start: now, failures: 1)
        }
    }

    /// Drops expired windows; if that frees nothing, the older half (rare: a spray from `capacity` addresses).
    private static func makeRoom(
        in sources: inout [ClientAddress: Window], now: ContinuousClock.Instant, window: Duration, capacity: Int
    ) {
        sources = sources.filter { $0.value.start + window > now }
        guard sources.count >= capacity else { return }
        for (source, _) in sources.sorted(by: { $0.value.start < $1.value.start }).prefix(sources.count / 2 + 1) {
            sources[source] = nil
        }
    }
}
