import Foundation
import StickerImage

/// Telegram sticker sets for the Bot API (`createNewStickerSet`, `addStickerToSet`, `setStickerSetThumbnail`): static
/// stickers as PNG, or WebP when a PNG would pass 512 KB, scaled so one side is exactly 512 px and the other at most
/// 512; a 100 x 100 thumbnail of at most 128 KB; 1 to 20 emoji and up to 20 keywords (64 characters in all) each; up
/// to 120 stickers a set, 50 of them in the call that creates it. Telegram's animated stickers are TGS or VP9 WEBM,
/// which this service does not make: an animated sticker goes as its still picture, and the report says so.
public enum TelegramPacks {
    public static let side = 512
    public static let budget = 512 * 1024
    public static let thumbnailSide = 100
    public static let thumbnailBudget = 128 * 1024
    public static let maxStickers = 120
    public static let maxInitialStickers = 50
    public static let maxEmoji = 20
    public static let maxKeywords = 20
    public static let maxKeywordCharacters = 64
    public static let maxTitleLength = 64
    public static let maxNameLength = 64

    /// Whether `bot` is a bot's username as Telegram allows them: 5 to 32 letters, digits and underscores, beginning
    /// with a letter and ending in "bot".
    public static func isBotUsername(_ bot: String) -> Bool {
        (5...32).contains(bot.count) && bot.first.map { $0.isASCII && $0.isLetter } == true
            && bot.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            && bot.lowercased().hasSuffix("bot")
            // A set name ends in `_by_<bot>` and may not hold two underscores in a row.
            && !bot.contains("__")
    }

    /// A set name by Telegram's rules: `base` (a group id) as letters, digits and single underscores, beginning with a
    /// letter, then `_by_<bot>`, 64 characters in all.
    public static func setName(_ base: String, bot: String) -> String {
        var name = ""
        for character in base.lowercased() {
            let next: Character = character.isASCII && (character.isLetter || character.isNumber) ? character : "_"
            if next == "_", name.isEmpty || name.last == "_" { continue }
            name.append(next)
        }
        while name.first.map({ !$0.isLetter }) == true { name.removeFirst() }
        let tail = "_by_" + bot
        name = String(name.prefix(maxNameLength - tail.count))
        while name.last == "_" { name.removeLast() }
        return (name.isEmpty ? "stickers" : name) + tail
    }

    /// Makes sets for the bot `bot` (its username, without @).
    public struct Exporter: PackExporter {
        let bot: String
        let rules: StickerRules
        var state = PackExport(platform: .telegram)
        public var report: ExportReport { state.report }

        public init(bot: String, rules: StickerRules = StickerRules()) {
            (self.bot, self.rules) = (bot, rules)
        }

        public mutating func add(_ group: PackGroup) throws -> [PackFile] {
            try state.addTelegram(group, bot: bot, rules: rules)
            return state.take()
        }

        public mutating func finish() throws -> [PackFile] { [] }
    }
}

extension PackExport {
    fileprivate mutating func addTelegram(_ group: PackGroup, bot: String, rules: StickerRules) throws {
        typealias T = TelegramPacks
        let stickers = ReadSticker.read(group, rules: rules, into: &report).filter { read in
            guard read.sticker.emoji.isEmpty else { return true }
            report.refused.append(
                .init(
                    group: group.id, sticker: read.sticker.id, name: read.sticker.name,
                    reason: "it has no emoji; Telegram needs 1 to 20 for each sticker (add one in the console)"))
            return false
        }
        let made = try concurrentMap(stickers.count) { index in
            try PackPicture.still(
                stickers[index].source, placement: .longestSide(T.side), budget: T.budget, formats: [.png, .webp],
                rules: rules)
        }
        var ready: [(ReadSticker, PackPicture)] = []
        for (read, picture) in zip(stickers, made) {
            guard let picture else {
                report.refused.append(
                    .init(
                        group: group.id, sticker: read.sticker.id, name: read.sticker.name,
                        reason: "its picture does not fit Telegram's \(T.budget / 1024) KB even at the lowest quality"))
                continue
            }
            ready.append((read, picture))
        }
        guard !ready.isEmpty else {
            if !group.stickers.isEmpty {
                report.refused.append(.init(group: group.id, reason: "none of its stickers can go to Telegram"))
            }
            return
        }
        let runs = PackRules.chunks(ready, limit: T.maxStickers)
        if runs.count > 1 {
            report.notes.append(
                "\(group.id): split into \(runs.count) sets (a Telegram set holds up to \(T.maxStickers) stickers)")
        }
        for (number, run) in runs.enumerated() {
            let name = unique(group.id + (runs.count > 1 ? "_\(number + 1)" : ""), separator: "_") {
                TelegramPacks.setName($0, bot: bot)
            }
            let title = PackRules.prefix(group.name + (runs.count > 1 ? " \(number + 1)" : ""), utf16: T.maxTitleLength)
            try addSet(group, run, name: name, title: title, rules: rules)
        }
    }

    /// One set's folder: its pictures, its thumbnail and `set.json`, the Bot API calls that make it.
    private mutating func addSet(
        _ group: PackGroup, _ run: [(ReadSticker, PackPicture)], name: String, title: String, rules: StickerRules
    ) throws {
        typealias T = TelegramPacks
        var pack = ExportReport.Pack(folder: name, title: title, animated: false, stickers: [])
        var inputs: [[String: Any]] = []
        for (index, (read, picture)) in run.enumerated() {
            let file = PackRules.fileName(index, picture.format)
            var notes: [String] = []
            if read.animated {
                notes.append(
                    "exported still: Telegram's animated stickers are TGS or WEBM, which this service does not make")
            }
            if read.sticker.emoji.count > T.maxEmoji { notes.append("kept its first \(T.maxEmoji) emoji") }
            var keywords: [String] = []
            for keyword in read.sticker.keywords.prefix(T.maxKeywords)
            where keywords.reduce(0, { $0 + $1.count }) + keyword.count <= T.maxKeywordCharacters {
                keywords.append(keyword)
            }
            if keywords.count < read.sticker.keywords.count {
                notes.append(
                    "kept \(keywords.count) of its \(read.sticker.keywords.count) keywords (Telegram: 20, 64 characters in all)"
                )
            }
            files.append(PackFile(path: "\(name)/\(file)", bytes: picture.bytes))
            inputs.append([
                "sticker": "attach://\(file)", "format": "static",
                "emoji_list": Array(read.sticker.emoji.prefix(T.maxEmoji)), "keywords": keywords,
            ])
            pack.stickers.append(PackRules.entry(read.sticker, file: file, picture, notes: notes))
        }
        let cover = (run.first { $0.0.sticker.id == group.cover?.id } ?? run[0]).0
        guard
            let thumbnail = try PackPicture.still(
                cover.source, placement: .centered(side: T.thumbnailSide), budget: T.thumbnailBudget,
                formats: [.png, .webp], rules: rules)
        else {
            throw PackError("a 100 x 100 thumbnail did not fit 128 KB")
        }
        let thumbnailFile = "thumbnail.\(thumbnail.format.fileExtension)"
        files.append(PackFile(path: "\(name)/\(thumbnailFile)", bytes: thumbnail.bytes))
        // The calls, in order: the set with its first 50 stickers, each other sticker, the thumbnail. `user_id` is the
        // owner's, which only the bot knows.
        var calls: [[String: Any]] = [
            [
                "method": "createNewStickerSet",
                "params": [
                    "user_id": NSNull(), "name": name, "title": title, "sticker_type": "regular",
                    "stickers": Array(inputs.prefix(T.maxInitialStickers)),
                ] as [String: Any],
            ]
        ]
        calls += inputs.dropFirst(T.maxInitialStickers).map {
            [
                "method": "addStickerToSet",
                "params": ["user_id": NSNull(), "name": name, "sticker": $0] as [String: Any],
            ]
        }
        calls.append([
            "method": "setStickerSetThumbnail",
            "params": [
                "user_id": NSNull(), "name": name, "format": "static",
                "thumbnail": "attach://\(thumbnailFile)",
            ] as [String: Any],
        ])
        let set: [String: Any] = [
            "name": name, "title": title, "sticker_type": "regular", "thumbnail": thumbnailFile, "calls": calls,
        ]
        files.append(
            PackFile(
                path: "\(name)/set.json",
                bytes: Array(
                    try JSONSerialization.data(
                        withJSONObject: set,
                        options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))))
        report.packs.append(pack)
    }
}
