import Synchronization

/// The newest catalog revision this replica knows of. It only grows, except when the database itself went back
/// (a restore from a backup, a failover that lost commits): then `rewind` moves it back and starts a new epoch, so
/// that caches keyed by revision know that what they hold is from a future that no longer exists.
package final class CatalogRevision: Sendable {
    private let value: Atomic<Int64>
    private let epochs = Atomic<Int>(0)
    private let watchers = Mutex<[@Sendable (Int64) -> Void]>([])

    package init(_ initial: Int64 = 0) {
        value = Atomic(initial)
    }

    package var current: Int64 { value.load(ordering: .acquiring) }

    /// Bumped by each rewind; what was read in an earlier epoch must be read again.
    package var epoch: Int { epochs.load(ordering: .acquiring) }

    /// Moves to `revision` unless a newer one is already known.
    package func advance(to revision: Int64) {
        var seen = value.load(ordering: .relaxed)
        while seen < revision {
            let (exchanged, original) = value.compareExchange(
                expected: seen, desired: revision, ordering: .acquiringAndReleasing)
            if exchanged { return announce(revision) }
            seen = original
        }
    }

    /// The database's revision is behind what this replica saw: take it as the truth, in a new epoch.
    package func rewind(to revision: Int64) {
        epochs.add(1, ordering: .acquiringAndReleasing)
        value.store(revision, ordering: .releasing)
        announce(revision)
    }

    /// Calls `watcher` with each revision this replica learns of (event streams wake on it).
    package func watch(_ watcher: @escaping @Sendable (Int64) -> Void) {
        watchers.withLock { $0.append(watcher) }
    }

    private func announce(_ revision: Int64) {
        for watcher in watchers.withLock({ $0 }) { watcher(revision) }
    }
}
