import Foundation

/// A synced catalog on disk: `catalog.json` (the manifest as applied, with its view and ETag) replaced atomically,
/// so a reader sees one whole sync or the one before; and `files/<sha256>.png`, each checked against the manifest's
/// digest and byte count before it was kept. Readable with no network (`load`).
public struct LocalCatalog: Sendable {
    public let directory: URL

    struct State: Codable, Sendable {
        /// The view (`SyncOptions.viewQuery`) the manifest shows.
        var view: String
        var etag: String?
        var manifest: Manifest
        /// Files on disk the manifest no longer names, and since when.
        var unreferencedSince: [String: Date] = [:]
        var syncedAt: Date
    }

    public init(directory: URL) {
        self.directory = directory
    }

    private static let creating = NSLock()

    var filesDirectory: URL { directory.appending(path: "files") }
    var stateFile: URL { directory.appending(path: "catalog.json") }

    /// The manifest of the last complete sync; nil before the first.
    public func load() throws -> Manifest? {
        try state()?.manifest
    }

    /// Where the file of `asset` is kept (present once a sync that names it has completed).
    public func fileURL(for asset: AssetLink) -> URL {
        filesDirectory.appending(path: "\(asset.sha256).png")
    }

    func state() throws -> State? {
        guard let data = try? Data(contentsOf: stateFile) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(State.self, from: data)
    }

    /// Replaces `catalog.json` in one rename.
    func save(_ state: State) throws {
        let encoder = JSONEncoder()
        (encoder.dateEncodingStrategy, encoder.outputFormatting) = (.iso8601, [.sortedKeys])
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try encoder.encode(state).write(to: stateFile, options: .atomic)
    }

    /// Whether the file of `asset` is kept with its byte count (its digest was checked when it was kept).
    func has(_ asset: AssetLink) -> Bool {
        var info = stat()
        return stat(fileURL(for: asset).path, &info) == 0 && Int(info.st_size) == asset.bytes
    }

    /// Keeps `data` as the file of digest `sha256` (the files folder exists): written under a temporary name, then
    /// renamed into place, so a file under its final name is always whole.
    func keep(_ data: Data, sha256: String) throws {
        // One file created at a time: concurrent creates in one folder spin on its lock in the kernel (twice the
        // system time of writing them in turn).
        Self.creating.lock()
        defer { Self.creating.unlock() }
        let folder = filesDirectory.path
        let part = "\(folder)/.\(sha256).\(UInt32.random(in: 0...UInt32.max)).part"
        let fd = open(part, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == data.count, rename(part, "\(folder)/\(sha256).png") == 0 else {
            unlink(part)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Digests of the files kept, and leftovers of downloads a killed process never finished (removed).
    func storedDigests() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: filesDirectory.path)) ?? []
        var digests = Set<String>()
        for name in names {
            if name.hasSuffix(".part") {
                try? FileManager.default.removeItem(at: filesDirectory.appending(path: name))
            } else if name.hasSuffix(".png") {
                digests.insert(String(name.dropLast(4)))
            }
        }
        return digests
    }

    func remove(sha256: String) {
        try? FileManager.default.removeItem(at: filesDirectory.appending(path: "\(sha256).png"))
    }
}
