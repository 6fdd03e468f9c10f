import Foundation

/// Files replaced whole in one rename: `catalog.json`, `cursor.json`, the usage queue, the installation id.
extension LocalCatalog {
    /// How far a replaced file is flushed before its rename.
    enum Durability {
        /// To stable storage, the folder too (`Durable`): a power loss leaves the old file or the new one.
        case durable
        /// Its bytes handed to the drive (`fsync`, which on Apple platforms does not flush the drive's cache), the
        /// folder not flushed: a crash of the process leaves one whole file, a power loss may take back the newest.
        case ordered
    }

    /// Writes `data` to a new temporary file in `folder` (never following a link, never reusing a name), flushes it
    /// (`durability`), renames it to `name` and, when durable, flushes the folder. (Images are written as they
    /// arrive: `IncomingFile`.)
    static func replace(_ folder: String, _ name: String, with data: Data, durability: Durability = .durable) throws {
        let part = "\(folder)/.\(name).\(UInt32.random(in: 0...UInt32.max)).part"
        let fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StickerClientError.storage("creating \(name)", errno: POSIXErrorCode(rawValue: errno))
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    failure = written < 0 ? errno : EIO
                    return
                }
                offset += written
            }
        }
        if failure == 0 {
            switch durability {
            case .durable: failure = Durable.flush(fd, name)
            case .ordered: failure = fsync(fd) == 0 ? 0 : errno
            }
        }
        close(fd)
        if failure == 0, rename(part, "\(folder)/\(name)") != 0 { failure = errno }
        guard failure == 0 else {
            unlink(part)
            // ENOSPC stays ENOSPC: the cause is kept, not turned into "permission".
            throw StickerClientError.storage("writing \(name)", errno: POSIXErrorCode(rawValue: failure))
        }
        if durability == .durable { Self.syncFolder(folder) }
    }

    /// Creates `folder` and those above it, the system's reason kept when it cannot (`ENOSPC`, `EACCES`).
    static func makeFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            let code = ((error as? CocoaError)?.underlying as? POSIXError)?.code
            throw StickerClientError.storage("creating \(folder.lastPathComponent)", errno: code)
        }
    }

    /// Makes the names created or renamed in `folder` durable (`Durable`).
    static func syncFolder(_ folder: String) {
        let directory = open(folder, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            _ = Durable.flush(directory, (folder as NSString).lastPathComponent + "/")
            close(directory)
        }
    }
}
