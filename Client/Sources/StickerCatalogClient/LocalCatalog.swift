import Foundation

/// A synced catalog on disk: `catalog.json` (the manifest as applied, with its view and ETag) replaced atomically,
/// so a reader sees one whole sync or the one before; and `files/<sha256>.png` (or `.webp`), each checked against the
/// manifest's digest and byte count before it was kept. Readable with no network (`load`).
public struct LocalCatalog: Sendable {
    public let directory: URL

    struct State: Codable, Sendable {
        /// The layout of this file; another one is not read (a first sync makes it anew).
        static let currentVersion = 2
        var version = State.currentVersion
        /// The view (`CatalogView.key`) the manifest shows.
        var view: String
        var etag: String?
        /// The catalog as the service states it, which the change feed's pages apply to.
        var manifest: Manifest
        /// What is shown while `failed` files are missing (`Manifest.holding(back:)`); nil when it is `manifest`.
        var shown: Manifest?
        /// Digests of files the sync could not fetch; the next sync tries them again.
        var failed: [String]?
        /// Files on disk the manifest no longer names, and since when.
        var unreferencedSince: [String: Date] = [:]
        var syncedAt: Date
    }

    /// The little a sync with nothing new needs (`cursor.json`): which view, from where, and when a purge is due; so
    /// it reads no manifest and writes nothing.
    struct Bookmark: Codable, Sendable {
        var version = State.currentVersion
        var view: String
        var cursor: String
        var revision: Int
        /// Since when the oldest file no longer named has been so; nil when there is none.
        var oldestUnreferenced: Date?
        /// Files failed last time: the next sync fetches them even when nothing changed.
        var pending: Int?
        var syncedAt: Date?
    }

    public init(directory: URL) {
        self.directory = directory
    }

    /// Held while a file name is created or renamed in the files folder (see `replace`).
    static let creating = NSLock()

    var filesDirectory: URL { directory.appending(path: "files") }
    var stateFile: URL { directory.appending(path: "catalog.json") }

    /// The last complete sync, read from disk (no network); nil before the first.
    public func load() -> SyncedCatalog? {
        state().map(snapshot)
    }

    func snapshot(_ state: State) -> SyncedCatalog {
        SyncedCatalog(
            manifest: state.shown ?? state.manifest, syncedAt: state.syncedAt, pendingFiles: state.failed?.count ?? 0,
            folder: self)
    }

    /// Where the file of `asset` is kept (present once a sync that names it has completed): its digest, with the
    /// extension its URL names (`png`, or `webp` in a `format=webp` view).
    public func fileURL(for asset: AssetLink) -> URL {
        filesDirectory.appending(path: Self.fileName(asset))
    }

    /// The extensions of the files this library keeps.
    static let fileExtensions = ["png", "webp"]

    /// `<sha256>.png`, or `<sha256>.webp` for an image whose URL names a WebP.
    static func fileName(_ asset: AssetLink) -> String {
        let path = asset.url.split(separator: "?", maxSplits: 1).first ?? ""
        return "\(asset.sha256).\(path.hasSuffix(".webp") ? "webp" : "png")"
    }

    /// The last sync's state; nil before the first, and for a file this version cannot read (torn, another layout):
    /// the next sync is then a first sync, never a dead folder.
    func state() -> State? {
        guard let data = try? Data(contentsOf: stateFile) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let state = try? decoder.decode(State.self, from: data), state.version == State.currentVersion else {
            return nil
        }
        return state
    }

    /// Whether `text` can name a file: 64 lowercase hex digits.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Replaces `catalog.json` in one rename, its bytes and the folder flushed to stable storage first (`Durable`:
    /// `F_FULLFSYNC` on Apple platforms), so a power loss leaves the old catalog or the new one.
    func save(_ state: State) throws {
        let encoder = JSONEncoder()
        (encoder.dateEncodingStrategy, encoder.outputFormatting) = (.iso8601, [.sortedKeys])
        try Self.makeFolder(directory)
        // The files this catalog names were renamed into place without syncing their folder, each: once, here, first.
        Self.syncFolder(filesDirectory.path)
        let bookmark = try encoder.encode(
            Bookmark(
                view: state.view, cursor: state.manifest.cursor, revision: state.manifest.revision,
                oldestUnreferenced: state.unreferencedSince.values.min(), pending: state.failed?.count,
                syncedAt: state.syncedAt))
        // A bookmark with files pending goes first: whatever catalog a crash leaves, the next sync reads it and tries
        // them. Otherwise after the catalog: a bookmark older than it only makes the next sync read a page it has.
        let pendingFirst = !(state.failed ?? []).isEmpty
        if pendingFirst { try Self.replace(directory.path, "cursor.json", with: bookmark) }
        try Self.replace(directory.path, "catalog.json", with: try encoder.encode(state))
        if !pendingFirst { try Self.replace(directory.path, "cursor.json", with: bookmark) }
    }

    /// The last sync's bookmark; nil before the first or when unreadable.
    func bookmark() -> Bookmark? {
        guard let data = try? Data(contentsOf: directory.appending(path: "cursor.json")) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let mark = try? decoder.decode(Bookmark.self, from: data), mark.version == State.currentVersion else {
            return nil
        }
        return mark
    }

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

    /// Whether the file of `asset` is kept with its byte count (its digest was checked when it was kept).
    func has(_ asset: AssetLink) -> Bool {
        var info = stat()
        return Self.isDigest(asset.sha256) && lstat(fileURL(for: asset).path, &info) == 0
            && (info.st_mode & S_IFMT) == S_IFREG
            && info.st_size == off_t(asset.bytes)  // not Int(st_size): it traps past 2 GiB where Int is 32-bit
    }

    /// Digests of the files kept; with `partsBefore`, leftovers of downloads a killed process never finished, last
    /// written before then, are removed (a newer one may be another process's download under way).
    func storedDigests(removingPartsBefore partsBefore: Date? = nil) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: filesDirectory.path)) ?? []
        var digests = Set<String>()
        // Only names this library writes: a file or link planted under another name is left alone.
        for name in names {
            if name.hasPrefix("."), name.hasSuffix(".part"), Self.isDigest(String(name.dropFirst().prefix(64))) {
                let path = filesDirectory.appending(path: name).path
                let written = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
                if let partsBefore, let written, written < partsBefore { unlink(path) }
            } else if let dot = name.lastIndex(of: "."),
                Self.fileExtensions.contains(String(name[name.index(after: dot)...])),
                Self.isDigest(String(name[..<dot]))
            {
                digests.insert(String(name[..<dot]))
            }
        }
        return digests
    }

    /// Removes the kept file of `sha256` (unlink: a link is removed, never what it points to).
    func remove(sha256: String) {
        guard Self.isDigest(sha256) else { return }
        for ext in Self.fileExtensions { unlink(filesDirectory.appending(path: "\(sha256).\(ext)").path) }
    }
}
