import Foundation
import StickerImage

/// WhatsApp sticker packs as WhatsApp's sample app reads them (`contents.json` and a folder per pack, the format and
/// limits of its `StickerPackValidator`): every sticker a 512 x 512 WebP (the picture centred, never enlarged), static
/// ones at most 100 KB, animated ones at most 500 KB with every frame at least 8 ms and at most 10 s in all; a 96 x 96
/// PNG tray icon of at most 50 KB; 3 to 30 stickers a pack, all static or all animated; 1 to 3 emoji each.
public enum WhatsAppPacks {
    public static let side = 512
    public static let staticBudget = 100 * 1024
    public static let animatedBudget = 500 * 1024
    public static let trayBudget = 50 * 1024
    public static let traySide = 96
    public static let stickersPerPack = 3...30
    public static let minFrameMs = 8
    public static let maxDurationMs = 10_000
    public static let maxEmoji = 3
    public static let staticTextLimit = 125
    public static let animatedTextLimit = 255
    public static let maxNameLength = 128

    /// Makes packs published by `publisher`.
    public struct Exporter: PackExporter {
        let publisher: String
        let rules: StickerRules
        var state = PackExport(platform: .whatsapp)
        /// Every pack's `contents.json` entry so far, as JSON.
        var entries: [[UInt8]] = []
        public var report: ExportReport { state.report }

        public init(publisher: String, rules: StickerRules = StickerRules()) {
            (self.publisher, self.rules) = (PackRules.prefix(publisher, utf16: maxNameLength), rules)
        }

        public mutating func add(_ group: PackGroup) throws -> [PackFile] {
            entries += try state.add(group, publisher: publisher, rules: rules).map {
                Array(try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .withoutEscapingSlashes]))
            }
            return state.take()
        }

        /// `contents.json`, listing every pack made.
        public mutating func finish() throws -> [PackFile] {
            let packs = try entries.map { try JSONSerialization.jsonObject(with: Data($0)) }
            let contents: [String: Any] = [
                "android_play_store_link": "", "ios_app_store_link": "", "sticker_packs": packs,
            ]
            return [
                PackFile(
                    path: "contents.json",
                    bytes: Array(
                        try JSONSerialization.data(
                            withJSONObject: contents,
                            options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])))
            ]
        }
    }

    /// A sticker made for WhatsApp, or why it cannot be.
    struct Made {
        let read: ReadSticker
        var picture: PackPicture
        var animated: Bool { picture.frames > 1 }
        var notes: [String] = []
    }
}

extension PackExport {
    /// Adds the packs of `group`: its stickers made, split into static and animated packs of 3 to 30; answers their
    /// `contents.json` entries.
    fileprivate mutating func add(_ group: PackGroup, publisher: String, rules: StickerRules) throws -> [[String: Any]]
    {
        typealias W = WhatsAppPacks
        var stickers = ReadSticker.read(group, rules: rules, into: &report).filter { read in
            guard read.sticker.emoji.isEmpty else { return true }
            report.refused.append(
                .init(
                    group: group.id, sticker: read.sticker.id, name: read.sticker.name,
                    reason: "it has no emoji; WhatsApp needs 1 to 3 for each sticker (add one in the console)"))
            return false
        }
        // Each picture on a core of its own: static ones and animations as animations.
        let made = try concurrentMap(stickers.count) { index -> Result<WhatsAppPacks.Made, RefusalReason> in
            let read = stickers[index]
            if read.animated {
                let animation = PackAnimation(
                    placement: .centered(side: W.side), format: .webp, budget: W.animatedBudget,
                    minFrameMs: W.minFrameMs)
                guard let picture = try animation.make(read.source, rules: rules) else {
                    return .failure(
                        RefusalReason(
                            "its animation does not fit WhatsApp's \(W.animatedBudget / 1024) KB even with fewer frames"
                        ))
                }
                guard picture.frames > 1 else {
                    // Frames all shorter than 8 ms merge into one: it is a still, within the still's 100 KB.
                    return try Self.still(read, rules: rules).map {
                        var made = $0
                        made.notes.append(
                            "plays still: its frames merge into one at WhatsApp's \(W.minFrameMs) ms a frame")
                        return made
                    }
                }
                return .success(.init(read: read, picture: picture))
            }
            return try Self.still(read, rules: rules)
        }
        var ready: [WhatsAppPacks.Made] = []
        for (read, result) in zip(stickers, made) {
            switch result {
            case .success(let sticker): ready.append(sticker)
            case .failure(let reason):
                report.refused.append(
                    .init(group: group.id, sticker: read.sticker.id, name: read.sticker.name, reason: reason.text))
            }
        }
        stickers = []
        guard ready.count >= W.stickersPerPack.lowerBound else {
            if !ready.isEmpty || !group.stickers.isEmpty {
                report.refused.append(
                    .init(
                        group: group.id,
                        reason:
                            "a WhatsApp pack needs at least \(W.stickersPerPack.lowerBound) stickers; this group has \(ready.count) that WhatsApp takes"
                    ))
            }
            return []
        }
        // A pack is all static or all animated, 3 or more each: animations become stills where a pack of their own, or
        // the static pack beside it, would hold fewer than three.
        let minimum = W.stickersPerPack.lowerBound
        var (still, moving) = (ready.filter { !$0.animated }, ready.filter(\.animated))
        var toStill = moving.count < minimum ? moving.count : 0
        if toStill == 0, !still.isEmpty, still.count < minimum {
            toStill = moving.count - (minimum - still.count) >= minimum ? minimum - still.count : moving.count
        }
        for sticker in moving.suffix(toStill) {
            switch try Self.still(sticker.read, rules: rules) {
            case .success(var made):
                made.notes.append(
                    "exported still: a WhatsApp pack is all static or all animated, with at least \(minimum) of either")
                still.append(made)
            case .failure(let reason):
                report.refused.append(
                    .init(
                        group: group.id, sticker: sticker.read.sticker.id, name: sticker.read.sticker.name,
                        reason: reason.text))
            }
        }
        moving.removeLast(toStill)
        // A still that did not fit can leave the static pack short of three: those are refused, not shipped invalid.
        if !still.isEmpty, still.count < minimum {
            for made in still {
                report.refused.append(
                    .init(
                        group: group.id, sticker: made.read.sticker.id, name: made.read.sticker.name,
                        reason:
                            "a WhatsApp pack needs at least \(minimum) static stickers; this group has \(still.count) that fit"
                    ))
            }
            still = []
        }
        let order = Dictionary(uniqueKeysWithValues: ready.enumerated().map { ($1.read.sticker.id, $0) })
        still.sort { order[$0.read.sticker.id]! < order[$1.read.sticker.id]! }
        var entries: [[String: Any]] = []
        let runs =
            PackRules.chunks(still, limit: W.stickersPerPack.upperBound).map { ($0, false) }
            + PackRules.chunks(moving, limit: W.stickersPerPack.upperBound).map { ($0, true) }
        if runs.count > 1 {
            report.notes.append(
                "\(group.id): split into \(runs.count) packs (WhatsApp packs hold 3 to 30 stickers, all static or all animated)"
            )
        }
        for (number, (run, animated)) in runs.enumerated() {
            // "-animated" beside a static pack of the same group, "-2"... where one kind needs several packs.
            let suffix =
                (animated && !still.isEmpty ? "-animated" : "")
                + (runs.filter { $0.1 == animated }.count > 1
                    ? "-\(runs[..<number].filter { $0.1 == animated }.count + 1)" : "")
            entries.append(
                try addPack(
                    group, run, animated: animated, identifier: unique(group.id + suffix), publisher: publisher,
                    rules: rules))
        }
        return entries
    }

    /// One pack's files, report and `contents.json` entry.
    private mutating func addPack(
        _ group: PackGroup, _ run: [WhatsAppPacks.Made], animated: Bool, identifier: String,
        publisher: String, rules: StickerRules
    ) throws -> [String: Any] {
        typealias W = WhatsAppPacks
        let title = PackRules.prefix(
            group.name + (identifier == group.id ? "" : " (" + identifier.dropFirst(group.id.count + 1) + ")"),
            utf16: W.maxNameLength)
        var pack = ExportReport.Pack(folder: identifier, title: title, animated: animated, stickers: [])
        // The tray: the group's cover when it is in this pack, else the pack's first sticker.
        let trayRead = (run.first { $0.read.sticker.id == group.cover?.id } ?? run[0]).read
        guard
            let tray = try PackPicture.still(
                trayRead.source, placement: .centered(side: W.traySide), budget: W.trayBudget, formats: [.png],
                rules: rules)
        else {
            throw PackError("a 96 x 96 tray icon did not fit 50 KB")
        }
        var files = [PackFile(path: "\(identifier)/tray.png", bytes: tray.bytes)]
        var stickers: [[String: Any]] = []
        for (index, made) in run.enumerated() {
            let file = PackRules.fileName(index, .webp)
            var notes = made.notes
            let (text, cut) = PackRules.fitted(
                made.read.sticker.description, limit: animated ? W.animatedTextLimit : W.staticTextLimit)
            if cut {
                notes.append(
                    "accessibility text cut to \(animated ? W.animatedTextLimit : W.staticTextLimit) characters")
            }
            if made.read.sticker.emoji.count > W.maxEmoji { notes.append("kept its first \(W.maxEmoji) emoji") }
            files.append(PackFile(path: "\(identifier)/\(file)", bytes: made.picture.bytes))
            stickers.append([
                "image_file": file, "emojis": Array(made.read.sticker.emoji.prefix(W.maxEmoji)),
                "accessibility_text": text,
            ])
            pack.stickers.append(PackRules.entry(made.read.sticker, file: file, made.picture, notes: notes))
        }
        self.files += files
        report.packs.append(pack)
        return [
            "identifier": identifier, "name": title, "publisher": publisher, "tray_image_file": "tray.png",
            // Changes exactly when a file of the pack does: WhatsApp fetches the pack again when it changes.
            "image_data_version": String(
                PackRules.digest(files.flatMap { [Array($0.path.utf8), $0.bytes] }).prefix(16)),
            "avoid_cache": false, "animated_sticker_pack": animated, "publisher_email": "", "publisher_website": "",
            "privacy_policy_website": "", "license_agreement_website": "", "stickers": stickers,
        ]
    }

    /// A static WhatsApp sticker: the still picture as a WebP within 100 KB.
    fileprivate static func still(
        _ read: ReadSticker, rules: StickerRules
    ) throws -> Result<WhatsAppPacks.Made, RefusalReason> {
        guard
            let picture = try PackPicture.still(
                read.source, placement: .centered(side: WhatsAppPacks.side), budget: WhatsAppPacks.staticBudget,
                formats: [.webp], rules: rules)
        else {
            return .failure(
                RefusalReason(
                    "its picture does not fit WhatsApp's \(WhatsAppPacks.staticBudget / 1024) KB even at the lowest quality"
                ))
        }
        return .success(.init(read: read, picture: picture))
    }
}

/// Why a sticker is refused, as an error a `Result` can carry.
struct RefusalReason: Error, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}
