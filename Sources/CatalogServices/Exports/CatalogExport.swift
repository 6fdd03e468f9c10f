import CatalogCore
import Foundation
import NIOPosix
import StickerImage
import StickerPacks

/// A view of the catalog taken to a platform, a group at a time: the group's uploads read from the store, its packs
/// made off the event loop, its files handed on as they come, so memory holds one group's images at once.
package enum CatalogExport {
    /// Exports with more stickers than this are refused (`tooLarge`): choose a filter or a group.
    package static let maxStickers = 2_000
    /// Nor may an export's files pass this many bytes (one answer holds them twice: files and zip).
    package static let maxBytes = 128 << 20

    /// What an export needs that the catalog does not have.
    package enum Failure: Error, Sendable, Equatable {
        /// The selection holds more stickers than `maxStickers`.
        case tooLarge(stickers: Int)
        /// Its files pass `maxBytes`.
        case tooManyBytes
    }

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
        let (_, groups, notes) = try selection.groups(in: snapshot, linker: AssetLinker(publicBaseURL: nil))
        let count = groups.reduce(0) { $0 + $1.stickers.count }
        guard count <= maxStickers else { throw Failure.tooLarge(stickers: count) }
        var (exporter, total) = (exporter, 0)
        func emit(_ file: PackFile) async throws {
            total += file.bytes.count
            guard total <= maxBytes else { throw Failure.tooManyBytes }
            try await write(file)
        }
        for (index, group) in groups.enumerated() {
            let packGroup = try await packGroup(group, snapshot: snapshot, reader: reader)
            let (made, files) = try await NIOThreadPool.singleton.runIfActive { [exporter] in
                var exporter = exporter
                let files = try exporter.add(packGroup)
                return (exporter, files)
            }
            exporter = made
            for file in files { try await emit(file) }
            progress(index + 1, groups.count)
        }
        for file in try exporter.finish() { try await emit(file) }
        var report = exporter.report
        report.notes = notes + report.notes
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try await emit(PackFile(path: "report.json", bytes: Array(try encoder.encode(report))))
        return report
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
