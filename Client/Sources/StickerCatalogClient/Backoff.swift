import Foundation

/// How long to wait before trying again: the service's `Retry-After` when it sent a sane one, else a capped exponential
/// backoff with full jitter (a random wait up to the cap), so clients that failed together do not return together.
public struct Backoff: Sendable {
    /// The first cap, doubled on every failure up to `maximum`.
    public var base: Duration = .milliseconds(500)
    public var maximum: Duration = .seconds(300)
    /// A stream that was up and dropped is reconnected within this window (or the service's `retry:` if longer), so
    /// the clients of a replica that stopped do not all return in the same second.
    public var reconnectWindow: Duration = .seconds(10)
    /// The longest `Retry-After` believed; a larger one waits this long.
    public var longestRetryAfter: Duration = .seconds(300)
    /// The longest a request waits for its own next try: a 503 or 429 asking for longer (a CDN down for minutes)
    /// ends the request as `unavailable` at once, and with it the sync; `follow()` or the app tries later.
    public var longestWaitInRequest: Duration = .seconds(30)
    var random: @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }

    public init() {}

    /// The wait after `failures` failures in a row (1 for the first).
    /// Settings out of range never trap: a negative `base` or `maximum` counts as zero, a non-finite one as `maximum`'s
    /// default.
    public func delay(after failures: Int) -> Duration {
        let growth = Self.seconds(base) * pow(2, Double(min(max(failures - 1, 0), 30)))
        let cap = min(Self.seconds(maximum), growth)
        return .milliseconds(Int64(random(0...cap) * 1000))
    }

    /// The wait before reconnecting a stream that was up: a random point in `reconnectWindow` or `retry`.
    public func reconnect(retry: Duration?) -> Duration {
        let window = max(Self.seconds(reconnectWindow), Self.seconds(retry ?? .zero))
        return .milliseconds(Int64(random(0...window) * 1000))
    }

    /// `duration` in seconds within 0 and a day: `random(0...cap)` traps on a negative or non-finite bound.
    static func seconds(_ duration: Duration) -> Double {
        let seconds = duration.seconds
        return seconds.isFinite ? min(max(seconds, 0), 86_400) : 300
    }

    /// A `Retry-After` in seconds (RFC 9110 10.2.3: a whole number; an HTTP date is not followed), within 0 and
    /// `longestRetryAfter`; nil for anything else. It never traps: `nan`, `-inf` or `1e20` are not seconds.
    public func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return min(.seconds(seconds), longestRetryAfter)
    }
}

extension Duration {
    /// Whole and fractional seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
