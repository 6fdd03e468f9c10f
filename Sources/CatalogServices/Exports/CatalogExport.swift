import CatalogCore
import Foundation
import NIOPosix
import StickerImage
import StickerPacks

/// A view of the catalog taken to a platform, a group at a time (`ExportRun`): the group's uploads read from the store,
/// its packs made off the event loop, its files handed on as they come, so memory holds one group's images at once and
/// no catalog is too large to export.
package enum CatalogExport {
    /// Checks every export parameter whichever the platform: one that a platform ignores is still part of the query,
    /// so a malformed one is a malformed query (schemathesis sent `telegram?author=` 129 characters long, answered
    /// 200).
    package static func checkParameters(_ parameters: [String: String]) throws(CatalogError) {
        for key in ["publisher", "author"] {
            if let value = parameters[key], !Validate.isText(value, maxLength: 128) {
                throw .invalidParameter(name: key, rule: "must be 1 to 128 characters of text")
            }
        }
        if let bot = parameters["bot"], !TelegramPacks.isBotUsername(bot) {
            throw .invalidParameter(
                name: "bot",
                rule: "must be a bot's username: 5-32 letters, digits and underscores, ending in bot, without @")
        }
    }

    /// The exporter `platform` with `parameters`: WhatsApp's `publisher`, Telegram's `bot` (required), Signal's
    /// `author`.
    package static func exporter(
        _ platform: PackPlatform, parameters: [String: String], rules: StickerRules
    ) throws(CatalogError) -> any PackExporter {
        try checkParameters(parameters)
        func name(_ key: String) -> String { parameters[key] ?? "StickerCatalog" }
        switch platform {
        case .whatsapp: return WhatsAppPacks.Exporter(publisher: name("publisher"), rules: rules)
        case .signal: return SignalPacks.Exporter(author: name("author"), rules: rules)
        case .telegram:
            // Required for Telegram only: a rule across parameters, so 422 like any field rule, not a malformed query.
            guard let bot = parameters["bot"] else {
                throw .invalid(
                    "bot",
                    "is required for Telegram: the username of the bot that creates the sets (5-32 letters, digits and underscores, ending in bot), without @"
                )
            }
            return TelegramPacks.Exporter(bot: bot, rules: rules)
        }
    }

    /// Runs `exporter` over the groups `selection` takes from `snapshot`, reading uploads with `reader`; each file goes
    /// to `write` as its group is done, then `report.json`. `progress` hears of each group done. The report.
    package static func run(
        _ exporter: any PackExporter, selection: ExportSelection, snapshot: CatalogSnapshot, reader: any CatalogReader,
        progress: @Sendable (Int, Int) -> Void = { _, _ in },
        write: (PackFile) async throws -> Void
    ) async throws -> ExportReport {
        var run = try ExportRun(exporter, selection: selection, snapshot: snapshot, reader: reader)
        var done = 0
        while let files = try await run.next() {
            for file in files { try await write(file) }
            if run.progress > done {
                done = run.progress
                progress(done, run.total)
            }
        }
        return run.report
    }

    /// `group` as an export reads it: the stickers the view shows, in its order and language, with their uploads.
    package static func packGroup(
        _ group: ManifestGroup, snapshot: CatalogSnapshot, reader: any CatalogReader
    ) async throws -> PackGroup {
        let stored = Dictionary(
            (snapshot.stickers[group.id] ?? []).map { ($0.id.apiString, $0) }, uniquingKeysWith: { first, _ in first })
        var stickers: [PackSticker] = []
        for shown in group.stickers {
            guard let sticker = stored[shown.id], let image = try await reader.assetBytes(sha256: sticker.asset.sha256)
            else {
                throw CatalogError.notFound("Image of sticker '\(shown.id)'")
            }
            stickers.append(
                PackSticker(
                    id: shown.id, name: shown.name, description: shown.description, emoji: shown.emoji,
                    keywords: shown.keywords, image: image))
        }
        let cover = snapshot.group(id: group.id)?.coverStickerId?.apiString
        return PackGroup(id: group.id, name: group.name, coverStickerId: cover, stickers: stickers)
    }
}
