import Foundation
import Synchronization

/// How many events a source (a client address, a signed-in user) may send a minute, whatever they name: it keeps one
/// source from filling this replica's tally. (What a source adds to a count is bounded apart, per sticker and hour, by
/// `UsageTally` and the store.) A sliding window of two one-minute generations of counters: a source's use is this
/// minute's count plus last minute's, weighted by how much of it the window still covers.
///
/// Admission costs one hash and two lookups, however many sources there are. The table never fills: when this
/// minute's generation holds `maxSources`, a new generation starts early (at most `2 * maxSources` sources are held),
/// and a source two generations back starts afresh. A flood of new sources thus cannot turn counting off; it only
/// shortens how long each source is remembered.
package final class UsageAllowance: Sendable {
    private struct Window {
        var started: ContinuousClock.Instant
        var current: [Int: Int] = [:]
        var previous: [Int: Int] = [:]
    }

    package let perMinute: Int
    package let maxSources: Int
    private let window: Mutex<Window>

    package init(perMinute: Int, maxSources: Int = 100_000, now: ContinuousClock.Instant = .now) {
        (self.perMinute, self.maxSources) = (max(0, perMinute), max(1, maxSources))
        window = Mutex(Window(started: now))
    }

    /// How many of `wanted` events `source` may add now (counted against it).
    package func take(_ wanted: Int, for source: String, now: ContinuousClock.Instant = .now) -> Int {
        var hasher = Hasher()
        hasher.combine(source)
        let key = hasher.finalize()
        return window.withLock { window in
            let age = now - window.started
            if age >= .seconds(60) {
                // A minute (or more) passed: generations move on by whole minutes.
                let minutes = Int(Self.seconds(age) / 60)
                window.previous = minutes >= 2 ? [:] : window.current
                window.current = [:]
                window.started += .seconds(60) * minutes
            } else if window.current.count >= maxSources, window.current[key] == nil {
                // Full: a new generation starts early; its predecessor is still weighed, the one before forgotten.
                window.previous = window.current
                window.current = [:]
                window.started = now
            }
            let covered = 1 - min(1, Self.seconds(now - window.started) / 60)
            let used = Double(window.previous[key] ?? 0) * covered + Double(window.current[key] ?? 0)
            let granted = max(0, min(wanted, Int((Double(perMinute) - used).rounded(.down))))
            if granted > 0 { window.current[key, default: 0] += granted }
            return granted
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Sources held in both generations, for tests.
    package var sources: Int { window.withLock { $0.current.count + $0.previous.count } }
}
