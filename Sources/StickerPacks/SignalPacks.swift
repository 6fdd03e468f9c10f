import Foundation
import StickerImage

/// Signal sticker packs by the sticker creator's rules: every sticker 512 x 512 (the picture centred, never enlarged),
/// at most 300 KB: a still as a WebP (what the creator turns every still into), an animation as an APNG that loops
/// forever; a cover; 1 to 200 stickers; one emoji each; a title and an author (`manifest.json`).
public enum SignalPacks {
    public static let side = 512
    public static let budget = 300 * 1024
    public static let maxStickers = 200
    /// Signal's guidelines ask for animations of at most 3 s; the creator does not check it, so the report only says
    /// so.
    public static let recommendedDurationMs = 3_000

    /// Makes packs by `author`.
    public struct Exporter: PackExporter {
        let author: String
        let rules: StickerRules
        var state = PackExport(platform: .signal)
        public var report: ExportReport { state.report }

        public init(author: String, rules: StickerRules = StickerRules()) {
            (self.author, self.rules) = (author, rules)
        }

        public mutating func add(_ group: PackGroup) throws -> [PackFile] {
            try state.addSignal(group, author: author, rules: rules)
            return state.take()
        }

        public mutating func finish() throws -> [PackFile] { [] }
    }
}

extension PackExport {
    fileprivate mutating func addSignal(_ group: PackGroup, author: String, rules: StickerRules) throws {
        typealias S = SignalPacks
        let stickers = ReadSticker.read(group, rules: rules, into: &report).filter { read in
            guard read.sticker.emoji.isEmpty else { return true }
            report.refused.append(
                .init(
                    group: group.id, sticker: read.sticker.id, name: read.sticker.name,
                    reason: "it has no emoji; Signal needs one for each sticker (add one in the console)"))
            return false
        }
        let made = try concurrentMap(stickers.count) { index -> PackPicture? in
            let read = stickers[index]
            if read.animated {
                let animation = PackAnimation(
                    placement: .centered(side: S.side), format: .png, budget: S.budget, loops: 0)
                if let picture = try animation.make(read.source, rules: rules) { return picture }
            }
            return try PackPicture.still(
                read.source, placement: .centered(side: S.side), budget: S.budget, formats: [.webp], rules: rules)
        }
        var ready: [(ReadSticker, PackPicture)] = []
        for (read, picture) in zip(stickers, made) {
            guard let picture else {
                report.refused.append(
                    .init(
                        group: group.id, sticker: read.sticker.id, name: read.sticker.name,
                        reason: "its picture does not fit Signal's \(S.budget / 1024) KB even at the lowest quality"))
                continue
            }
            ready.append((read, picture))
        }
        guard !ready.isEmpty else {
            if !group.stickers.isEmpty {
                report.refused.append(.init(group: group.id, reason: "none of its stickers can go to Signal"))
            }
            return
        }
        let runs = PackRules.chunks(ready, limit: S.maxStickers)
        if runs.count > 1 {
            report.notes.append(
                "\(group.id): split into \(runs.count) packs (a Signal pack holds up to \(S.maxStickers) stickers)")
        }
        for (number, run) in runs.enumerated() {
            let folder = unique(group.id + (runs.count > 1 ? "-\(number + 1)" : ""))
            try addSignalPack(
                group, run, folder: folder, title: group.name + (runs.count > 1 ? " \(number + 1)" : ""),
                author: author, rules: rules)
        }
    }

    private mutating func addSignalPack(
        _ group: PackGroup, _ run: [(ReadSticker, PackPicture)], folder: String, title: String,
        author: String, rules: StickerRules
    ) throws {
        typealias S = SignalPacks
        var pack = ExportReport.Pack(
            folder: folder, title: title, animated: run.contains { $0.1.frames > 1 }, stickers: [])
        var entries: [[String: Any]] = []
        for (index, (read, picture)) in run.enumerated() {
            let file = PackRules.fileName(index, picture.format)
            var notes: [String] = []
            if read.animated, picture.frames == 1 {
                notes.append("exported still: its animation does not fit \(S.budget / 1024) KB as an APNG")
            }
            if picture.frames > 1, read.source.animation?.loops != 0 {
                notes.append("loops forever: Signal requires it")
            }
            if picture.durationMs > S.recommendedDurationMs {
                notes.append(
                    "plays \(picture.durationMs) ms; Signal's guidelines ask for at most \(S.recommendedDurationMs)")
            }
            if read.sticker.emoji.count > 1 {
                notes.append("kept one emoji of its \(read.sticker.emoji.count): \(read.sticker.emoji[0])")
            }
            files.append(PackFile(path: "\(folder)/\(file)", bytes: picture.bytes))
            entries.append(["file": file, "emoji": read.sticker.emoji[0]])
            pack.stickers.append(PackRules.entry(read.sticker, file: file, picture, notes: notes))
        }
        let cover = (run.first { $0.0.sticker.id == group.cover?.id } ?? run[0]).0
        guard
            let coverPicture = try PackPicture.still(
                cover.source, placement: .centered(side: S.side), budget: S.budget, formats: [.webp], rules: rules)
        else {
            throw PackError("the cover did not fit \(S.budget / 1024) KB")
        }
        files.append(PackFile(path: "\(folder)/cover.webp", bytes: coverPicture.bytes))
        let manifest: [String: Any] = [
            "title": title, "author": author, "cover": ["file": "cover.webp", "emoji": cover.sticker.emoji[0]],
            "stickers": entries,
        ]
        files.append(
            PackFile(
                path: "\(folder)/manifest.json",
                bytes: Array(
                    try JSONSerialization.data(
                        withJSONObject: manifest,
                        options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))))
        report.packs.append(pack)
    }
}
