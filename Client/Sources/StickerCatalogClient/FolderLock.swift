import Foundation

/// An advisory lock on a synced folder (`flock` on its `.lock` file), so two processes (an app and its extension)
/// never sync it at once; waited for in steps, never blocking a thread.
enum FolderLock {
    static func holding<T: Sendable>(_ folder: URL, _ body: @Sendable () async throws -> T) async throws -> T {
        try LocalCatalog.makeFolder(folder)
        let fd = open(folder.appending(path: ".lock").path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StickerClientError.storage("opening .lock", errno: POSIXErrorCode(rawValue: errno)) }
        defer { close(fd) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw StickerClientError.storage("locking .lock", errno: POSIXErrorCode(rawValue: errno))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        defer { flock(fd, LOCK_UN) }
        return try await body()
    }
}
