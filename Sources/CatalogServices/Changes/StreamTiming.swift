import Foundation

/// When an event stream ends and how long its client waits to come back, spread so that streams opened together
/// (after a replica restarted, or a network blip) neither end together nor reconnect together.
package enum StreamTiming {
    /// How much of the configured lifetime a stream may be cut short by: 1 hour becomes 48 to 60 minutes.
    package static let lifetimeSpread = 0.2
    /// The `retry:` a stream sends, in milliseconds: how long an EventSource waits before reconnecting.
    package static let retryMilliseconds = 1_000...5_000

    /// `lifetime` less a random share of up to `lifetimeSpread`: never longer than configured.
    package static func lifetime(_ lifetime: Duration, using generator: inout some RandomNumberGenerator) -> Duration {
        lifetime * (1 - Double.random(in: 0...lifetimeSpread, using: &generator))
    }

    /// A `retry:` in `retryMilliseconds`.
    package static func retry(using generator: inout some RandomNumberGenerator) -> Int {
        Int.random(in: retryMilliseconds, using: &generator)
    }

    /// How long a stream opened `now` lasts: its lifetime, or until its user's token expires (`tokenExpires`, a wall
    /// clock time) when that comes first; the token is the client's proof of who it is, and an expired one proves
    /// nothing.
    package static func duration(lifetime: Duration, tokenExpires: Date?, now: Date) -> Duration {
        guard let tokenExpires else { return lifetime }
        return min(lifetime, .milliseconds(max(0, Int64(tokenExpires.timeIntervalSince(now) * 1000))))
    }
}
