import Crypto
import Foundation

/// An image as it arrives: its bytes go to a temporary file beside where it will be kept, hashed as they go, so the
/// memory a download takes does not grow with the image (eight large images at once must not get an app killed). It
/// is kept under its name (`keep()`) only when its byte count and SHA-256 are the manifest's; otherwise, or when it
/// is dropped unkept, the temporary file goes.
final class IncomingFile {
    let asset: AssetLink
    private let folder: String
    private let part: String
    private var fd: Int32
    private var hash = SHA256()
    private(set) var count = 0

    /// Opens a new temporary file for `asset` in `catalog`'s files folder (which exists).
    init(_ asset: AssetLink, in catalog: LocalCatalog) throws {
        guard LocalCatalog.isDigest(asset.sha256) else {
            throw StickerClientError.invalidAnswer("an image digest that is not one")
        }
        (self.asset, folder) = (asset, catalog.filesPath)
        let part = "\(folder)/.\(LocalCatalog.fileName(asset)).\(UInt32.random(in: 0...UInt32.max)).part"
        // Never following a link, never reusing a name; `creating` because concurrent creates in one folder spun on
        // its lock in the kernel.
        (self.part, fd) = (
            part,
            LocalCatalog.creating.withLock { open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        )
        guard fd >= 0 else {
            throw StickerClientError.storage("creating a file", errno: POSIXErrorCode(rawValue: errno))
        }
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(part)
        }
    }

    /// Writes and hashes `bytes`; refuses more than the manifest states (nothing past it is written).
    func append(_ bytes: ArraySlice<UInt8>) throws {
        guard count + bytes.count <= asset.bytes else {
            throw StickerClientError.invalidAnswer("an image longer than the \(asset.bytes) bytes its manifest states")
        }
        hash.update(data: bytes)
        count += bytes.count
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    // ENOSPC stays ENOSPC: the cause is kept, not turned into "permission".
                    let code = written < 0 ? errno : EIO
                    throw StickerClientError.storage("writing a file", errno: POSIXErrorCode(rawValue: code))
                }
                offset += written
            }
        }
    }

    /// Keeps the file under its name when it is whole and its digest matches (handed to the drive first where that
    /// is cheap: `Durable.handOver`; the commit's barrier makes it durable before a catalog names it); false, and the
    /// file gone, when it does not match.
    func keep() throws -> Bool {
        guard count == asset.bytes, Downloads.hex(hash.finalize()) == asset.sha256 else {
            return false  // `deinit` removes it
        }
        var failure = Durable.handOver(fd)
        close(fd)
        fd = -1
        if failure == 0 {
            LocalCatalog.creating.withLock {
                if rename(part, "\(folder)/\(LocalCatalog.fileName(asset))") != 0 { failure = errno }
            }
        }
        guard failure == 0 else {
            unlink(part)
            throw StickerClientError.storage("keeping a file", errno: POSIXErrorCode(rawValue: failure))
        }
        return true
    }
}
