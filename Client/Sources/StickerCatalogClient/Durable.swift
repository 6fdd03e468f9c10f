import Foundation

/// Flushing what was written to stable storage, as far as each platform can be asked to.
///
/// On Apple platforms `fsync` hands a file's data to the drive but not past the drive's cache: after a power loss the
/// write can be missing, or a rename can have landed before the data it names. `F_FULLFSYNC` asks the drive to flush
/// its cache too, so `catalog.json`, `cursor.json` and the folder naming them are flushed that way; a file system that
/// refuses it (some network or FUSE volumes) gets `fsync`. Images are `fsync`ed as they are kept, and the full flush of
/// the catalog naming them, before its rename, carries them to the platter with it: no catalog names a file a power
/// loss can take back. On Linux `fsync` already flushes the drive's cache (ext4, XFS and Btrfs send a cache flush).
enum Durable {
    /// How a flush is asked for here.
    enum Method: Sendable, Equatable {
        case fullFsync
        case fsync
    }

    #if canImport(Darwin)
        static let method = Method.fullFsync
    #else
        static let method = Method.fsync
    #endif

    /// Told of every full flush (the method and what was flushed): a test's window onto this.
    @TaskLocal static var observer: (@Sendable (Method, String) -> Void)?

    /// Flushes `fd` (`what`, for the observer) the strongest way this platform has; 0, or the `errno` of the failure.
    static func flush(_ fd: Int32, _ what: String) -> Int32 {
        observer?(method, what)
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(fd) == 0 ? 0 : errno
    }
}
