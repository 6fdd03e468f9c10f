import Foundation
import StickerCatalogExport
import Testing

@testable import StickerCatalogClient

/// The `.xcstickers` export read back against the key names of Apple's Asset Catalog Format Reference (Catalog Type,
/// Sticker Pack Type, Sticker Type).
@Suite(.serialized) struct XCStickersTests {
    static func object(_ url: URL) throws -> [String: Any] {
        try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: url.appending(path: "Contents.json"))))
                as? [String: Any])
    }

    @Test func aCatalogSyncedAsWebPIsNotAStickerPackForMessages() async throws {
        // Setup: a folder synced in a WebP view holds WebPs, which Messages does not take in an .xcstickers.
        let service = try await SyncTests.shared.value
        let sync = SyncTests.syncing(service.base, view: CatalogView(format: .webp))
        _ = try await sync.sync()
        let out = SyncTests.folder()
        // Action and check: refused by name, and nothing is left in the folder.
        await #expect { try await sync.folder.exportXCStickers(into: out) } throws: { error in
            if case XCStickers.Failure.notPNG = error { return true }
            return false
        }
        #expect(!FileManager.default.fileExists(atPath: out.appending(path: "Stickers.xcstickers").path))
    }

    @Test func anExportIsAStickerPackXcodeReads() async throws {
        // Setup
        let service = try await SyncTests.shared.value
        let sync = SyncTests.syncing(service.base, view: CatalogView(size: .large, scale: .x3))
        _ = try await sync.sync()
        let manifest = try #require(sync.folder.load()?.manifest)
        let out = SyncTests.folder()
        // Action
        let written = try await sync.folder.exportXCStickers(into: out)
        // Check: the catalog, stamped with its revision.
        let catalog = out.appending(path: "Stickers.xcstickers")
        let root = try Self.object(catalog)
        #expect(
            (root["info"] as? [String: Any])?["version"] as? Int == 1
                && (root["info"] as? [String: Any])?["author"] is String)
        #expect((root["stickercatalog"] as? [String: Any])?["revision"] as? Int == manifest.revision)
        // The pack: grid-size from the size class, a .sticker per sticker in display order.
        let pack = catalog.appending(path: "Sticker Pack.stickerpack")
        let packJSON = try Self.object(pack)
        #expect((packJSON["properties"] as? [String: Any])?["grid-size"] as? String == "large")
        let entries = try #require(packJSON["stickers"] as? [[String: Any]])
        let stickers = manifest.groups.filter { !$0.locked }.flatMap(\.stickers)
        #expect(written == stickers.count && entries.count == stickers.count)
        for (entry, sticker) in zip(entries, stickers) {
            let name = try #require(entry["filename"] as? String)
            #expect(
                name.hasSuffix(".sticker")
                    && name.range(of: #"^[A-Za-z0-9 _-]+\.sticker$"#, options: .regularExpression) != nil, "\(name)")
            // Each sticker: its accessibility label, and one file (APNG included) within 500 KB, the bytes synced.
            let folder = pack.appending(path: name)
            let properties = try #require(try Self.object(folder)["properties"] as? [String: Any])
            #expect(properties["accessibility-label"] as? String == sticker.description)
            let file = try #require(properties["filename"] as? String)
            let data = try Data(contentsOf: folder.appending(path: file))
            let synced = try Data(contentsOf: sync.folder.fileURL(for: sticker.asset))
            #expect(data.count <= XCStickers.maxFileBytes && data == synced)
            let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(contents == ["Contents.json", file].sorted())
        }
    }
}
