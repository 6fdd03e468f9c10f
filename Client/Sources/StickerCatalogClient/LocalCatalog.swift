import Foundation

/// A synced catalog on disk: `catalog.json` (the manifest as applied, with its view and ETag) replaced atomically,
/// so a reader sees one whole sync or the one before; and `files/<sha256>.png` (or `.webp`), each checked against the
/// manifest's digest and byte count before it was kept. Readable with no network (`load`).
public struct LocalCatalog: Sendable {
    public let directory: URL
    /// `files/`'s path, made once: a first sync names thousands of files, and a `URL` built for each cost more than
    /// the syscall that used it.
    let filesPath: String

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
        /// Names this commit, as its bookmark does: a process that made it (or read it) need not decode it again.
        var commit: String?
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
        /// The commit of the catalog beside it (`State.commit`).
        var commit: String?
    }

    public init(directory: URL) {
        (self.directory, filesPath) = (directory, directory.appending(path: "files").path)
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
        URL(fileURLWithPath: filePath(for: asset), isDirectory: false)
    }

    /// `fileURL(for:)`'s path, without making a `URL`.
    func filePath(for asset: AssetLink) -> String {
        filesPath + "/" + Self.fileName(asset)
    }

    /// The extensions of the files this library keeps.
    static let fileExtensions = ["png", "webp"]

    /// `<sha256>.png`, or `<sha256>.webp` for an image whose URL names a WebP.
    static func fileName(_ asset: AssetLink) -> String {
        asset.sha256 + (isWebP(asset.url) ? ".webp" : ".png")
    }

    /// Whether `url`'s path (before any query) ends in `.webp`, read as bytes: no split, no `String` made.
    static func isWebP(_ url: String) -> Bool {
        var path = url.utf8[...]
        if let query = path.firstIndex(of: UInt8(ascii: "?")) { path = path[..<query] }
        return path.count >= 5 && path.suffix(5).elementsEqual(".webp".utf8)
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

    /// The last sync's state: `known` itself when the bookmark says the catalog on disk is still that commit (a
    /// decode of 10,000 stickers saved), else read from disk (another process committed since).
    func state(unlessStill known: State?) -> State? {
        if let known, let commit = known.commit, bookmark()?.commit == commit { return known }
        return state()
    }

    /// Whether `text` can name a file: 64 lowercase hex digits.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Replaces `catalog.json` in one rename, the images it names, its bytes and the folder flushed to stable storage
    /// first (`Durable`), so a power loss leaves the old catalog or the new one, and never one naming a lost image.
    @discardableResult
    func save(_ state: State) throws -> State {
        var state = state
        state.commit = UUID().uuidString
        let encoder = JSONEncoder()
        // Keys as the encoder meets them: sorting them costs every commit time, and no reader needs them sorted.
        encoder.dateEncodingStrategy = .iso8601
        try Self.makeFolder(directory)
        // The images this catalog names were written and renamed into place without a flush of their own: one barrier
        // makes them and their names durable, here, first (`Durable`).
        let failure = Durable.barrier(filesDirectory.path)
        guard failure == 0 || failure == ENOENT else {
            throw StickerClientError.storage("flushing the files", errno: POSIXErrorCode(rawValue: failure))
        }
        let bookmark = try encoder.encode(
            Bookmark(
                view: state.view, cursor: state.manifest.cursor, revision: state.manifest.revision,
                oldestUnreferenced: state.unreferencedSince.values.min(), pending: state.failed?.count,
                syncedAt: state.syncedAt, commit: state.commit))
        // A bookmark with files pending goes first: whatever catalog a crash leaves, the next sync reads it and tries
        // them. Otherwise after the catalog: a bookmark older than it only makes the next sync read a page it has.
        let pendingFirst = !(state.failed ?? []).isEmpty
        if pendingFirst { try Self.replace(directory.path, "cursor.json", with: bookmark) }
        try Self.replace(directory.path, "catalog.json", with: try encoder.encode(state))
        if !pendingFirst { try Self.replace(directory.path, "cursor.json", with: bookmark) }
        return state
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
}
