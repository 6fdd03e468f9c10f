import Foundation

/// Flushing what was written to stable storage, as far as each platform can be asked to, and as seldom as the promise
/// allows: no catalog names a file a power loss can take back.
///
/// On Apple platforms `fsync` hands a file's data to the drive but not past the drive's cache: after a power loss the
/// write can be missing, or a rename can have landed before the data it names. `F_FULLFSYNC` asks the drive to flush
/// its cache too (a file system that refuses it, some network or FUSE volumes, gets `fsync`). On Linux `fsync` already
/// flushes the drive's cache (ext4, XFS and Btrfs send a cache flush): one per image was 2,018 cache flushes for a
/// first sync of 2,000 stickers, most of its time. So images are written plainly, and one barrier before the commit
/// carries them all: on Linux `syncfs`, which writes everything written to that file system and flushes the cache once;
/// on Apple platforms each image is `fsync`ed as it is kept (to the drive, no cache flush: cheap) and the `F_FULLFSYNC`
/// of the files folder, before the catalog naming them is written, flushes the drive's cache with all of them in it.
/// `catalog.json`, `cursor.json` and their folder are then flushed fully, each.
enum Durable {
    /// What was asked of the system, for a test's observer.
    enum Flush: Sendable, Equatable {
        /// A kept image handed to the drive (Apple platforms; nothing on Linux).
        case handOver
        /// The barrier before a commit, for the files folder named.
        case barrier(String)
        /// A full flush of what is named (a file, or a folder with `/`).
        case full(String)
    }

    /// Told of every flush asked for: a test's window onto this.
    @TaskLocal static var observer: (@Sendable (Flush) -> Void)?

    /// Flushes `fd` (`what`, for the observer) the strongest way this platform has; 0, or the `errno` of the failure.
    static func flush(_ fd: Int32, _ what: String) -> Int32 {
        observer?(.full(what))
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(fd) == 0 ? 0 : errno
    }

    /// Hands the image being kept in `fd` to the drive, where the barrier will find it; 0, or the `errno`.
    static func handOver(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            observer?(.handOver)
            return fsync(fd) == 0 ? 0 : errno
        #else
            return 0  // `syncfs` in `barrier` writes it
        #endif
    }

    /// Makes every image kept in `folder`, and its name, durable: once, before a catalog naming them is written.
    static func barrier(_ folder: String) -> Int32 {
        observer?(.barrier((folder as NSString).lastPathComponent + "/"))
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
            return fsync(fd) == 0 ? 0 : errno
        #else
            guard let syncfs = Self.syncfs else {
                sync()  // every file system: more than needed, never less
                return 0
            }
            return syncfs(fd) == 0 ? 0 : errno
        #endif
    }

    #if !canImport(Darwin)
        /// glibc's (and musl's) `syncfs`, which Swift's Glibc module leaves out (it is declared under `_GNU_SOURCE`).
        private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "syncfs") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
        }()
    #endif
}
