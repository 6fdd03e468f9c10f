import Foundation

/// A group a library keeps on disk: as it was last fetched, whole, with the `version` it was fetched at.
public struct InstalledGroup: Codable, Sendable, Equatable, Identifiable {
    public let group: ManifestGroup
    /// The group's version as the index states it (its ETag): the library fetches it again only when this moves.
    public let version: String
    public let installedAt: Date

    public var id: String { group.id }
}

/// What a library folder holds (`library.json`, replaced in one rename under the folder's lock): the groups installed,
/// in the order they were installed, and those being installed, whose files count as in use until they are in (so
/// another process purging never takes them); and the index revalidation's ETag, for the ids it asked about.
struct LibraryState: Codable, Sendable {
    static let currentVersion = 1
    var version = LibraryState.currentVersion
    /// The view (`CatalogView.key`) the groups were fetched in; a library of another view starts empty.
    var view: String
    var installed: [InstalledGroup] = []
    var pending: [String: InstalledGroup] = [:]
    /// The ETag of `GET /v1/groups?ids=` for `etagIds`.
    var etag: String?
    var etagIds: [String]?

    init(view: String) { self.view = view }

    func group(_ id: String) -> InstalledGroup? { installed.first { $0.group.id == id } }

    /// The newest this library has of group `id`: being installed at a new version, else installed.
    func newest(_ id: String) -> InstalledGroup? { pending[id] ?? group(id) }

    /// Every image the installed and pending groups show: what the files folder must keep.
    var referencedFiles: Set<String> {
        var names = Set<String>()
        for group in (installed + pending.values).map(\.group) {
            for asset in Self.assets(of: group) { names.insert(LocalCatalog.fileName(asset)) }
        }
        return names
    }

    /// A group's images: its cover, and each sticker's picture and thumbnail.
    static func assets(of group: ManifestGroup) -> [AssetLink] {
        var seen = Set<String>()
        var assets: [AssetLink] = []
        for asset in [group.cover].compactMap({ $0 }) + group.stickers.flatMap({ [$0.asset, $0.thumbnail] })
        where seen.insert(asset.sha256).inserted {
            assets.append(asset)
        }
        return assets
    }
}

extension LocalCatalog {
    var libraryFile: URL { directory.appending(path: "library.json") }

    /// The library's state; an empty one for `view` before the first install, for another view's, or when unreadable.
    func libraryState(view: String) -> LibraryState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = try? Data(contentsOf: libraryFile),
            let state = try? decoder.decode(LibraryState.self, from: data),
            state.version == LibraryState.currentVersion, state.view == view
        else { return LibraryState(view: view) }
        return state
    }

    func saveLibrary(_ state: LibraryState) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try Self.makeFolder(directory)
        let failure = Durable.barrier(filesDirectory.path)
        guard failure == 0 || failure == ENOENT else {
            throw StickerClientError.storage("flushing the files", errno: POSIXErrorCode(rawValue: failure))
        }
        try Self.replace(directory.path, "library.json", with: try encoder.encode(state))
    }
}
