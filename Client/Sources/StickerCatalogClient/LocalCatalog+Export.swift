import Foundation
import StickerCatalogExport

extension LocalCatalog {
    /// The last sync as `Stickers.xcstickers` in `folder`, from the files on disk (no network): the size class the
    /// catalog was synced at (else the first group's own; medium for one Messages does not know), the pictures as
    /// synced.
    /// - Throws: `StickerClientError.notSynced` before a first sync; `XCStickers.Failure` for a file Messages refuses
    ///   (`notPNG` for a catalog synced in a WebP view: sync an `apng` or `png` view for Messages).
    @discardableResult
    public func exportXCStickers(into folder: URL) async throws -> Int {
        guard let manifest = load()?.manifest else { throw StickerClientError.notSynced }
        let groups = manifest.groups.filter { !$0.locked }
        let pack = XCStickers.Pack(
            revision: manifest.revision, cursor: manifest.cursor,
            sizeClass: (manifest.size?.known ?? groups.first?.sizeClass.known ?? .medium).rawValue,
            stickers: groups.flatMap(\.stickers).map {
                .init(id: $0.id, name: $0.name, description: $0.description, file: $0.asset.sha256)
            })
        let links = Dictionary(
            groups.flatMap(\.stickers).map { ($0.asset.sha256, $0.asset) }, uniquingKeysWith: { first, _ in first })
        return try await XCStickers.write(pack, into: folder) { sticker in
            guard let link = links[sticker.file] else { throw StickerClientError.notSynced }
            return try Data(contentsOf: fileURL(for: link))
        }
    }
}
