import ArgumentParser
import Foundation
import StickerCatalog
import StickerCatalogExport

/// `stickerd export xcstickers`: a view of the catalog as the sticker catalog an iMessage app bundles.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a view of the catalog in another format.",
        subcommands: [XCStickersExport.self])

    struct XCStickersExport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "xcstickers",
            abstract: "Write Stickers.xcstickers (a .stickerpack of every sticker of the free groups the view shows) for Xcode.",
            discussion: """
                The pictures are the view's renditions at @3x, each within Messages' 500 KB; the pack's grid-size follows \
                --size (or the first group's size class). The catalog's Contents.json records the revision it came from. \
                The same is in the client package: LocalCatalog.exportXCStickers.
                """)

        @Option(help: "A filter the catalog defines, such as chocoholic.") var filter: String?
        @Option(help: "small, medium or large (default: each group's own).") var size: String?
        @Option(help: "Texts in this language.") var locale: String?
        @Option(help: "The folder to write Stickers.xcstickers into.") var out: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = try database.logger("stickerd.export")
            var parameters = ["scale": "3"]
            (parameters["filter"], parameters["size"], parameters["locale"]) = (filter, size, locale)
            let query = try ManifestQuery(parameters: parameters.compactMapValues { $0 })
            let count = try await database.withPool(logger: logger) { pool in
                let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger)
                let snapshot = try await catalog.snapshot(reusing: nil)
                let served = try Manifest.build(from: snapshot, query: query.normalized(for: snapshot), linker: AssetLinker(publicBaseURL: nil))
                let groups = served.groups.filter { !$0.locked }
                let pack = XCStickers.Pack(revision: Int(served.revision), cursor: served.cursor,
                                           sizeClass: (served.size ?? groups.first?.sizeClass ?? .medium).rawValue,
                                           stickers: groups.flatMap(\.stickers).map { .init(id: $0.id, name: $0.name, description: $0.description, file: $0.asset.sha256) })
                return try await XCStickers.write(pack, into: URL(fileURLWithPath: out)) { sticker in
                    guard let bytes = try await catalog.assetBytes(sha256: sticker.file) else { throw CatalogError.notFound("image \(sticker.file)") }
                    return Data(bytes)
                }
            }
            print("Wrote \(count) stickers to \(out)/Stickers.xcstickers")
        }
    }
}
