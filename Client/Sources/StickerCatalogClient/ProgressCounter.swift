import Foundation

/// A sync's progress as its downloads run, bytes counted within files as they arrive (so a bar moves through a large
/// image, not only between files), told to `report` as `SyncProgress`. Bytes of an attempt that is thrown away (a
/// digest that does not match, a bundle cut in the middle of an image) are taken back, so the count never passes the
/// total. Reports come at most every `interval` on the sync's clock (10,000 small files are not 10,000 status changes
/// for a main actor to draw), or every `reportEvery` bytes (so a bar moves through a large image on a slow link), and
/// at the first and the last file.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current: SyncProgress
    private var reported: ContinuousClock.Instant
    private var unreported = 0
    static let reportEvery = 256 << 10
    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let report: @Sendable (SyncProgress) -> Void

    init(
        _ start: SyncProgress, every interval: Duration = .milliseconds(100),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        report: @escaping @Sendable (SyncProgress) -> Void
    ) {
        (current, self.interval, self.now, self.report, reported) = (start, interval, now, report, now())
        report(start)
    }

    /// `bytes` more arrived (fewer, when negative: an attempt thrown away).
    func add(bytes: Int) {
        lock.withLock {
            current.bytes += bytes
            unreported += abs(bytes)
            due(last: unreported >= Self.reportEvery)
        }
    }

    /// A file is done, kept or not.
    func fileDone() {
        lock.withLock {
            current.files += 1
            due(last: current.files == current.totalFiles)
        }
    }

    /// Reports where things stand, whenever the last report was.
    func finish() {
        lock.withLock { report(current) }
    }

    /// Reports when `interval` has passed since the last report, or `now` says so. Called with `lock` held.
    private func due(last now: Bool = false) {
        let at = self.now()
        guard now || at - reported >= interval else { return }
        (reported, unreported) = (at, 0)
        report(current)
    }
}

extension Progress {
    /// Shows `progress` by bytes (`ProgressView(progress)` in SwiftUI); nothing to fetch is one unit, done. The count
    /// done goes to zero before the total changes: Foundation on Linux traps when a total drops under what is done (a
    /// sync with nothing to fetch after one that fetched).
    func show(_ progress: SyncProgress) {
        let total = Int64(max(progress.totalBytes, 0))
        let done = min(Int64(max(progress.bytes, 0)), total)
        if totalUnitCount != max(total, 1) {
            completedUnitCount = 0
            totalUnitCount = max(total, 1)
        }
        completedUnitCount = total == 0 ? 1 : done
    }
}
