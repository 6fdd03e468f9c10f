import Crypto
import Foundation
import StickerImage

/// The files an export writes, by path relative to its folder, and its report.
public struct PackExport: Sendable {
    public var files: [PackFile] = []
    public var report: ExportReport
    /// Folders and names taken by packs so far: two groups never share one (`cats` split as `cats-1` beside a group
    /// `cats-1`; Telegram's `1-cats` and `cats` both `cats_by_<bot>`).
    var taken: Set<String> = []

    /// `name`, or the first of `name` + `separator` + 2, 3... that no pack has taken; taken from now on.
    mutating func unique(_ name: String, separator: String = "-", making: (String) -> String = { $0 }) -> String {
        var (candidate, number) = (making(name), 1)
        while taken.contains(candidate.lowercased()) {
            number += 1
            candidate = making(name + separator + String(number))
        }
        taken.insert(candidate.lowercased())
        return candidate
    }

    init(platform: PackPlatform) {
        report = ExportReport(platform: platform.rawValue)
    }

    /// Takes the files made so far, leaving none.
    mutating func take() -> [PackFile] {
        defer { files = [] }
        return files
    }
}

/// Makes one platform's packs a group at a time, so that an export of a large catalog holds one group's images at once.
public protocol PackExporter: Sendable {
    /// What was made and refused so far.
    var report: ExportReport { get }
    /// The packs of `group`: their files, by path relative to the export's folder.
    mutating func add(_ group: PackGroup) throws -> [PackFile]
    /// The files that list every pack (WhatsApp's `contents.json`); none for the others.
    mutating func finish() throws -> [PackFile]
}

extension PackExporter {
    /// Every group's packs, and the report.
    public mutating func export(_ groups: [PackGroup]) throws -> PackExport {
        var files: [PackFile] = []
        for group in groups { files += try add(group) }
        files += try finish()
        var export = PackExport(platform: PackPlatform(rawValue: report.platform) ?? .whatsapp)
        (export.files, export.report) = (files, report)
        return export
    }
}

/// One file of an export.
public struct PackFile: Sendable, Equatable {
    /// Relative to the export's folder, `/`-separated.
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        (self.path, self.bytes) = (path, bytes)
    }
}

/// The platforms whose sticker packs the catalog exports (iMessage's is `XCStickers`, in the client package).
public enum PackPlatform: String, CaseIterable, Sendable {
    case whatsapp
    case telegram
    case signal
}

/// A sticker of an export with its upload read (checked as the service checked it on upload).
struct ReadSticker: Sendable {
    let sticker: PackSticker
    let source: StickerSource

    var animated: Bool { source.frameCount > 1 }

    /// The stickers of `group` whose uploads read, and a refusal for each that does not (a catalog from before a rule).
    static func read(_ group: PackGroup, rules: StickerRules, into report: inout ExportReport) -> [ReadSticker] {
        group.stickers.compactMap { sticker in
            do throws(StickerRejection) {
                return ReadSticker(sticker: sticker, source: try StickerSource(sticker.image, rules: rules))
            } catch {
                report.refused.append(
                    .init(
                        group: group.id, sticker: sticker.id, name: sticker.name,
                        reason: "its image does not read: \(error.detail)"))
                return nil
            }
        }
    }
}

/// Rules every platform's export shares.
enum PackRules {
    /// `items` in as few runs of at most `limit` as hold them, as even as they can be (45 in 30s: 23 and 22).
    static func chunks<T>(_ items: [T], limit: Int) -> [[T]] {
        guard !items.isEmpty else { return [] }
        let count = (items.count + limit - 1) / limit
        var (runs, start) = ([[T]](), 0)
        for index in 0..<count {
            let size = items.count / count + (index < items.count % count ? 1 : 0)
            runs.append(Array(items[start..<(start + size)]))
            start += size
        }
        return runs
    }

    /// `text` within `limit` UTF-16 units (what WhatsApp's validator counts: Java's `length()`): cut at the last space
    /// that leaves room for an ellipsis, never inside a character; whether it was cut.
    static func fitted(_ text: String, limit: Int) -> (text: String, cut: Bool) {
        guard text.utf16.count > limit else { return (text, false) }
        let room = prefix(text, utf16: limit - 1)
        let cut = room.lastIndex(of: " ").map { room[..<$0] } ?? Substring(room)
        return (cut.trimmingCharacters(in: .whitespaces) + "…", true)
    }

    /// The longest run of whole characters from the start of `text` within `limit` UTF-16 units.
    static func prefix(_ text: String, utf16 limit: Int) -> String {
        var (out, units) = ("", 0)
        for character in text {
            units += character.utf16.count
            guard units <= limit else { break }
            out.append(character)
        }
        return out
    }

    /// `01.webp`, `02.png`...: a pack's files in display order.
    static func fileName(_ index: Int, _ format: ImageFormat) -> String {
        (index + 1 < 10 ? "0" : "") + "\(index + 1).\(format.fileExtension)"
    }

    /// The report line of a picture made from `sticker`.
    static func entry(
        _ sticker: PackSticker, file: String, _ picture: PackPicture, notes: [String]
    ) -> ExportReport.Sticker {
        var notes = notes
        if picture.droppedFrames > 0 {
            notes.append("plays \(picture.frames) of its frames (\(picture.droppedFrames) left out) to fit")
        }
        return .init(
            id: sticker.id, name: sticker.name, file: file, bytes: picture.bytes.count, width: picture.width,
            height: picture.height,
            frames: picture.frames, psnr: picture.psnr.isFinite ? (picture.psnr * 10).rounded() / 10 : nil,
            quality: picture.quality, notes: notes)
    }

    /// Lowercase hex SHA-256.
    static func digest(_ parts: [[UInt8]]) -> String {
        var hash = SHA256()
        for part in parts {
            hash.update(data: withUnsafeBytes(of: UInt64(part.count).bigEndian, Array.init))
            hash.update(data: part)
        }
        return hash.finalize().map {
            String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
        }.joined()
    }
}

/// An export that cannot be made: a picture every pack needs (a tray icon, a thumbnail, a cover) does not fit.
public struct PackError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
