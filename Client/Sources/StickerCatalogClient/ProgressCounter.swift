import Foundation

/// A sync's progress as its downloads run, bytes counted within files as they arrive (so a bar moves through a large
/// image, not only between files), told to `report` as `SyncProgress`. Bytes of an attempt that is thrown away (a
/// digest that does not match) are taken back. Reports come at every file's end and every 256 KiB within files, so
/// 10,000 small files cost one report each, not two.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current: SyncProgress
    private var unreported = 0
    private let report: @Sendable (SyncProgress) -> Void
    static let reportEvery = 256 << 10

    init(_ start: SyncProgress, report: @escaping @Sendable (SyncProgress) -> Void) {
        (current, self.report) = (start, report)
        report(start)
    }

    /// `bytes` more arrived (fewer, when negative: an attempt thrown away).
    func add(bytes: Int) {
        lock.withLock {
            current.bytes += bytes
            unreported += abs(bytes)
            if unreported >= Self.reportEvery {
                unreported = 0
                report(current)
            }
        }
    }

    /// A file is done, kept or not.
    func fileDone() {
        lock.withLock {
            current.files += 1
            unreported = 0
            report(current)
        }
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
