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
        let count = groups.reduce(0) { $0 + $1.stickers.count }
        guard count <= maxStickers else { throw Failure.tooLarge(stickers: count) }
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

    /// The files of that `Stickers.xcstickers`, by path, for a zip: written to a temporary folder and read back.
    package static func xcstickersFiles(
        selection: ExportSelection, snapshot: CatalogSnapshot, reader: any CatalogReader
    ) async throws -> [PackFile] {
        let folder = FileManager.default.temporaryDirectory.appending(path: "xcstickers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await xcstickers(selection: selection, snapshot: snapshot, reader: reader, into: folder)
        let root = folder.standardizedFileURL.path + "/"
        var (files, total) = ([PackFile](), 0)
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let bytes = Array(try Data(contentsOf: url))
            total += bytes.count
            guard total <= maxBytes else { throw Failure.tooManyBytes }
            files.append(PackFile(path: String(url.standardizedFileURL.path.dropFirst(root.count)), bytes: bytes))
        }
        return files.sorted { $0.path < $1.path }
    }
}
