import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation
import StickerCatalogExport
import StickerImage
import StickerPacks
import Synchronization

/// `stickerd export`: a view of the catalog as another platform's sticker packs, the same as the admin API's
/// `GET /v1/admin/exports/{platform}` (as a folder instead of a zip).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a view of the catalog as another platform's sticker packs.",
        discussion: """
            Each pack is what that platform's own rules accept; where a group breaks a rule the export splits or fits it, \
            and a sticker it cannot fit is refused with a reason while the rest is exported. Premium groups stay out: a \
            pack on another platform is free for whoever has it. report.json (and the summary printed) gives every \
            sticker's file, bytes and PSNR against its source, and every refusal.
            """,
        subcommands: [WhatsApp.self, Telegram.self, Signal.self, XCStickersExport.self])

    /// What every export takes: which groups, in which language, into which folder, from which database.
    struct Selection: ParsableArguments {
        @Option(help: "A filter the catalog defines, such as chocoholic.") var filter: String?
        @Option(help: "One group's id, such as chewy (default: every free group the view shows).") var group: String?
        @Option(help: "Texts in this language (names, descriptions).") var locale: String?
        @Option(help: "The folder to write into (created when missing).") var out: String
        @OptionGroup var database: DatabaseOptions

        var parameters: [String: String] {
            ["filter": filter, "group": group, "locale": locale].compactMapValues { $0 }
        }
    }

    struct WhatsApp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "whatsapp",
            abstract: "WhatsApp packs as WhatsApp's sample app reads them: contents.json and a folder per pack.",
            discussion: """
                512 x 512 WebPs (static at most 100 KB, animated at most 500 KB, frames of 8 ms or more), a 96 x 96 PNG \
                tray icon, 3 to 30 stickers a pack, all static or all animated, 1 to 3 emoji each.
                """)
        @Option(help: "The publisher every pack names.") var publisher = "StickerCatalog"
        @OptionGroup var selection: Selection

        func run() async throws {
            try await ExportCommand.run(.whatsapp, ["publisher": publisher], selection)
        }
    }

    struct Telegram: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "telegram",
            abstract:
                "Telegram sticker sets: a folder per set with its pictures, thumbnail and set.json (the Bot API calls).",
            discussion: """
                Static stickers, one side exactly 512 px, at most 512 KB (PNG, or WebP when a PNG would not fit); a \
                100 x 100 thumbnail; up to 120 stickers a set. Animated stickers go as their still picture (Telegram's are \
                TGS or WEBM, which this service does not make).
                """)
        @Option(help: "The username of the bot that creates the sets (set names end in _by_<bot>).") var bot: String
        @OptionGroup var selection: Selection

        func run() async throws {
            try await ExportCommand.run(.telegram, ["bot": bot], selection)
        }
    }

    struct Signal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signal",
            abstract: "Signal sticker packs: a folder per pack with its pictures, cover and manifest.json.",
            discussion: """
                512 x 512 pictures of at most 300 KB (WebP stills, APNG animations that loop forever), a cover, 1 to 200 \
                stickers, one emoji each.
                """)
        @Option(help: "The author every pack names.") var author = "StickerCatalog"
        @OptionGroup var selection: Selection

        func run() async throws {
            try await ExportCommand.run(.signal, ["author": author], selection)
        }
    }

    /// Runs one platform's export into `selection.out`, with a line per group, then prints the report's summary.
    static func run(_ platform: PackPlatform, _ options: [String: String], _ selection: Selection) async throws {
        let logger = try selection.database.logger("stickerd.export")
        let chosen = try ExportSelection(parameters: selection.parameters)
        let exporter = try CatalogExport.exporter(platform, parameters: options, rules: StickerRules())
        let folder = URL(fileURLWithPath: selection.out)
        let report = try await selection.database.withPool(logger: logger) { pool in
            let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger)
            let snapshot = try await catalog.snapshot(reusing: nil)
            let progress = Mutex(Progress(total: 0, unit: "groups"))
            return try await CatalogExport.run(
                exporter, selection: chosen, snapshot: snapshot, reader: catalog,
                progress: { done, total in
                    progress.withLock { bar in
                        if bar.total != total { bar = Progress(total: total, unit: "groups") }
                        bar.advance()
                        bar.batchDone()
                    }
                }
            ) { file in
                let url = folder.appending(path: file.path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url, options: .atomic)
            }
        }
        print("")
        print(report.summary)
        print(
            "Wrote \(report.packs.count) \(platform.rawValue) pack(s) of \(report.packs.reduce(0) { $0 + $1.stickers.count }) stickers to \(selection.out)"
                + (report.refused.isEmpty ? "" : "; \(report.refused.count) refused (see above and report.json)"))
    }

    struct XCStickersExport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "xcstickers",
            abstract:
                "Write Stickers.xcstickers (a .stickerpack of every sticker of the free groups the view shows) for Xcode.",
            discussion: """
                The pictures are the view's renditions at @3x, each within Messages' 500 KB; the pack's grid-size follows \
                --size (or the first group's size class). The catalog's Contents.json records the revision it came from. \
                The same is in the client package: LocalCatalog.exportXCStickers.
                """)

        @Option(help: "small, medium or large (default: each group's own).") var size: String?
        @OptionGroup var selection: Selection

        func run() async throws {
            let logger = try selection.database.logger("stickerd.export")
            var parameters = selection.parameters
            parameters["size"] = size
            let chosen = try ExportSelection(parameters: parameters)
            let count = try await selection.database.withPool(logger: logger) { pool in
                let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger)
                let snapshot = try await catalog.snapshot(reusing: nil)
                return try await CatalogExport.xcstickers(
                    selection: chosen, snapshot: snapshot, reader: catalog, into: URL(fileURLWithPath: selection.out))
            }
            print("Wrote \(count) stickers to \(selection.out)/Stickers.xcstickers")
        }
    }
}
