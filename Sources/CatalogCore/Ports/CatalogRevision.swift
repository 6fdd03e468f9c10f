import Synchronization

/// The newest catalog revision this replica knows of. It only grows, except when the database itself went back
/// (a restore from a backup, a failover that lost commits): then `rewind` moves it back and starts a new epoch, so
/// that caches keyed by revision know that what they hold is from a future that no longer exists. A revision heard of
/// again with another stamp (`CatalogSnapshot.stamp`) is such a rewind too: the database went back and climbed to
/// the same number in another history.
package final class CatalogRevision: Sendable {
    private let value: Atomic<Int64>
    private let epochs = Atomic<Int>(0)
    /// The stamp of `current` when known (0: not known); writes of the value take this lock, reads need none.
    private let stamp = Mutex<Int64>(0)
    private let watchers = Mutex<[@Sendable (Int64) -> Void]>([])

    package init(_ initial: Int64 = 0) {
        value = Atomic(initial)
    }

    package var current: Int64 { value.load(ordering: .acquiring) }

    /// Bumped by each rewind; what was read in an earlier epoch must be read again.
    package var epoch: Int { epochs.load(ordering: .acquiring) }

    /// Moves to `revision` (stamped `stamp`, 0 when not known) unless a newer one is already known; the revision known
    /// heard of with another stamp is a rewind.
    package func advance(to revision: Int64, stamp: Int64 = 0) {
        let moved = self.stamp.withLock { known -> Bool in
            let current = value.load(ordering: .acquiring)
            if revision > current {
                value.store(revision, ordering: .releasing)
                known = stamp
                return true
            }
            guard revision == current, stamp != 0, known != stamp else { return false }
            defer { known = stamp }
            guard known != 0 else { return false }
            epochs.add(1, ordering: .acquiringAndReleasing)
            return true
        }
        if moved { announce(revision) }
    }

    /// The database's revision is behind what this replica saw, or its history changed: take it as the truth, in a
    /// new epoch.
    package func rewind(to revision: Int64, stamp: Int64 = 0) {
        self.stamp.withLock { known in
            epochs.add(1, ordering: .acquiringAndReleasing)
            value.store(revision, ordering: .releasing)
            known = stamp
        }
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
