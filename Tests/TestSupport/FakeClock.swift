import Synchronization

/// A continuous clock a test moves by hand, for what is given `now: { clock.now }`.
package final class FakeClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Mutex<Duration>(.zero)

    package init() {}

    package func advance(_ by: Duration) { offset.withLock { $0 += by } }
    package var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
}
