import Foundation

/// When the sync under way must end: checked before every request and try, before every wait between tries, and at
/// every chunk of every answer, so a server that trickles a byte a minute cannot hold a sync (its `.syncing` status,
/// the folder) for days. The time is the sync's injected clock's, so a test's fake time counts.
struct SyncDeadline: Sendable {
    /// The sync's allowance (`SyncOptions.deadline` or `firstSyncDeadline`).
    let allowance: Duration
    let end: ContinuousClock.Instant
    let now: @Sendable () -> ContinuousClock.Instant

    init(_ allowance: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        (self.allowance, self.now, end) = (allowance, now, now() + allowance)
    }

    /// The deadline of the sync this task works for; nil outside a sync (search, purchases, the event stream).
    @TaskLocal static var current: SyncDeadline?

    /// Throws `timedOut` once the deadline has passed, or when `wait` from now would pass it (a wait that cannot end in
    /// time is not waited).
    static func check(waiting wait: Duration = .zero) throws {
        guard let current, current.now() + wait >= current.end else { return }
        throw StickerClientError.timedOut(after: current.allowance)
    }
}
