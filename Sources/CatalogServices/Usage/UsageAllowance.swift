import Foundation
import Synchronization

/// A token bucket per source (a client address, a signed-in user): each holds up to a minute's allowance and refills
/// continuously, so one source adds at most `perMinute` events a minute (plus the first minute's burst) however fast it
/// sends. One client cannot make a trend. Bounded: at most `maxSources` buckets; a full table forgets buckets that have
/// refilled (idle a minute: the same as new), and if every bucket is busy a new source gets nothing until one is.
package final class UsageAllowance: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    package let perMinute: Int
    package let maxSources: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    package init(perMinute: Int, maxSources: Int = 100_000) {
        (self.perMinute, self.maxSources) = (perMinute, maxSources)
    }

    /// How many of `wanted` events `source` may add now (taken from its bucket).
    package func take(_ wanted: Int, for source: String, now: ContinuousClock.Instant = .now) -> Int {
        let capacity = Double(perMinute)
        return buckets.withLock { buckets in
            var bucket = buckets[source] ?? Bucket(tokens: capacity, updated: now)
            if buckets[source] == nil, buckets.count >= maxSources {
                Self.forgetRefilled(&buckets, now: now)
                guard buckets.count < maxSources else { return 0 }
            }
            let elapsed =
                Double((now - bucket.updated).components.seconds)
                + Double((now - bucket.updated).components.attoseconds) / 1e18
            bucket.tokens = min(capacity, bucket.tokens + max(0, elapsed) * capacity / 60)
            bucket.updated = now
            let granted = min(wanted, Int(bucket.tokens))
            bucket.tokens -= Double(granted)
            buckets[source] = bucket
            return granted
        }
    }

    private static func forgetRefilled(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        buckets = buckets.filter { now - $0.value.updated < .seconds(60) }
    }

    /// Sources with a bucket, for tests.
    package var sources: Int { buckets.withLock { $0.count } }
}
