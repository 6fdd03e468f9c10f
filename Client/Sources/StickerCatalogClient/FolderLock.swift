import Foundation

/// An advisory lock on a synced folder (`flock` on its `.lock` file), held only while a sync commits (catalog.json,
/// cursor.json, the purge): never across a download or a wait for the network. An iOS app suspended with a lock held
/// in an App Group container is killed (0xdead10cc), and a sync can be suspended anywhere; a commit is a few
/// milliseconds of disk work. Two processes (an app and its extension) may then download at once; each commit checks
/// what the other left (`StickerSync.keep`).
struct FolderLock {
    private let fd: Int32
    /// How often a held lock is tried again.
    static let step: Duration = .milliseconds(20)

    /// Runs `body` holding the lock of `folder`, the waiting for it included, under an expiring activity
    /// (`BackgroundActivity`): an app suspended while it holds a lock in an App Group container is killed
    /// (0xdead10cc), so no lock is ever held outside one. The only way to take a lock. `name` is the lock file: `.lock`
    /// for commits, another for what must not wait for one (the usage queue's `.usage.lock`).
    /// - Throws: `StickerClientError.busy` when another process held it for `bound` (tried every `step` on the sync's
    ///   clock, `sleep`), and what `body` throws.
    static func holding<T: Sendable>(
        _ folder: URL, named name: String = ".lock", waitingAtMost bound: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await BackgroundActivity.run("Saving stickers") {
            let lock = try await acquire(folder, named: name, waitingAtMost: bound, sleep: sleep)
            defer { lock.release() }
            return try await body()
        }
    }

    /// Takes the lock of `folder`, trying every `step` for at most `bound`.
    private static func acquire(
        _ folder: URL, named name: String = ".lock", waitingAtMost bound: Duration,
        sleep: @Sendable (Duration) async throws -> Void
    ) async throws -> FolderLock {
        try LocalCatalog.makeFolder(folder)
        let fd = open(folder.appending(path: name).path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StickerClientError.storage("opening \(name)", errno: POSIXErrorCode(rawValue: errno))
        }
        var waited = Duration.zero
        do {
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    throw StickerClientError.storage("locking \(name)", errno: POSIXErrorCode(rawValue: errno))
                }
                guard waited < bound else { throw StickerClientError.busy }
                try SyncDeadline.check(waiting: step)
                try await sleep(step)
                waited += step
            }
        } catch {
            close(fd)
            throw error
        }
        return FolderLock(fd: fd)
    }

    /// Lets the lock go.
    private func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
