import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Threads of their own for the CPU-heavy half of serving manifests, so that building and compressing one never holds
/// an event loop or Swift's cooperative pool (where every request runs): a cached asset stays fast while manifests
/// build. Bounded: builds use at most half the cores; best-level recompression one thread at a lower priority, with a
/// short backlog (an upgrade that does not fit is simply not done: the fast bytes keep serving).
package final class ManifestWorkers: Sendable {
    /// One set per process: the bound is the machine's, however many apps (tests) run in it.
    package static let shared = ManifestWorkers()

    private let builds: NIOThreadPool
    private let upgrades: NIOThreadPool
    private let backlog = Atomic<Int>(0)
    package static let maxBacklog = 16

    package init(buildThreads: Int = max(1, System.coreCount / 2)) {
        builds = NIOThreadPool(numberOfThreads: buildThreads)
        builds.start()
        upgrades = NIOThreadPool(numberOfThreads: 1)
        upgrades.start()
        // Nice 10: the upgrade thread gets a core only when serving leaves one idle. On Linux the nice value is a
        // thread's, and `who` 0 names the calling thread.
        upgrades.submit { _ in _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
    }

    /// Runs `work` on a build thread; the caller waits without holding a thread.
    package func build<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await builds.runIfActive(work)
    }

    /// Queues `work` at low priority; false when the backlog is full and it was dropped.
    @discardableResult
    package func upgrade(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard backlog.add(1, ordering: .relaxed).newValue <= Self.maxBacklog else {
            backlog.subtract(1, ordering: .relaxed)
            return false
        }
        upgrades.submit { [self] _ in
            defer { backlog.subtract(1, ordering: .relaxed) }
            work()
        }
        return true
    }
}
