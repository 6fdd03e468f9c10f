import CatalogCore
import Foundation
import StickerCatalogExport
import StickerPacks

extension CatalogExport {
    /// `Stickers.xcstickers` for Xcode of the groups `selection` takes (the view's @3x PNG renditions, Messages' grid
    /// of its size class) in `folder`, replacing one there only once the new one is whole: the number of stickers.
    package static func xcstickers(
        selection: ExportSelection, snapshot: CatalogSnapshot, reader: any CatalogReader, into folder: URL
    ) async throws -> Int {
        let (manifest, groups, _) = try selection.groups(in: snapshot, linker: AssetLinker(publicBaseURL: nil))
        let pack = XCStickers.Pack(
            revision: Int(manifest.revision), cursor: manifest.cursor,
            sizeClass: (manifest.size ?? groups.first?.sizeClass ?? .medium).rawValue,
            stickers: groups.flatMap(\.stickers).map {
                .init(id: $0.id, name: $0.name, description: $0.description, file: $0.asset.sha256)
            })
        return try await XCStickers.write(pack, into: folder) { sticker in
            guard let bytes = try await reader.assetBytes(sha256: sticker.file) else {
                throw CatalogError.notFound("Image '\(sticker.file)'")
            }
            return Data(bytes)
        }
    }

    /// That `Stickers.xcstickers` written to a new temporary folder, for a zip: the folder (the caller removes it) and
    /// its files' paths, sorted, each to be read only as it is sent.
    package static func xcstickersFolder(
        selection: ExportSelection, snapshot: CatalogSnapshot, reader: any CatalogReader
    ) async throws -> (folder: URL, paths: [String]) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "xcstickers-\(UUID().uuidString)")
        do {
            _ = try await xcstickers(selection: selection, snapshot: snapshot, reader: reader, into: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let root = folder.standardizedFileURL.path + "/"
        var paths: [String] = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            paths.append(String(url.standardizedFileURL.path.dropFirst(root.count)))
        }
        return (folder, paths.sorted())
    }
}
