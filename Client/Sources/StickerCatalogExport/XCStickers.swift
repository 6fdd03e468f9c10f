import Foundation

/// Writes a view of the catalog as an Xcode sticker catalog (`Stickers.xcstickers`), the fallback an iMessage app
/// bundles: one `.stickerpack` whose `grid-size` follows the size class, a `.sticker` per sticker of every unlocked
/// group in display order (an APNG stays one file), its description as the accessibility label, every file within
/// Messages' 500 KB, names Xcode accepts, and the revision it came from in the catalog's `Contents.json`. Key names
/// follow Apple's Asset Catalog Format Reference (Sticker Pack Type, Sticker Type).
public enum XCStickers {
    /// Messages refuses sticker files larger than this.
    public static let maxFileBytes = 500 * 1024

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooLarge(sticker: String, bytes: Int)
        case empty
        /// Messages takes PNG and APNG files here; a catalog synced in a WebP view has WebPs.
        case notPNG(sticker: String)

        /// What went wrong in words.
        public var description: String {
            switch self {
            case .tooLarge(let sticker, let bytes):
                "Sticker \(sticker) is \(bytes) bytes, over the \(XCStickers.maxFileBytes) Messages takes."
            case .empty: "No sticker to export: the view shows no free sticker."
            case .notPNG(let sticker): "Sticker \(sticker) is not a PNG, which Messages needs."
            }
        }
    }

    /// What an export holds: the stickers of the unlocked groups in display order, the size class, and the revision
    /// and cursor they came from. Its own model, so the server writes one without the client's generated code.
    public struct Pack: Sendable {
        public struct Sticker: Sendable {
            public var id: String
            public var name: String
            /// The accessibility label.
            public var description: String
            /// Which file holds its image (the image's SHA-256): what `bytes` is asked for.
            public var file: String

            public init(id: String, name: String, description: String, file: String) {
                (self.id, self.name, self.description, self.file) = (id, name, description, file)
            }
        }

        public var revision: Int
        public var cursor: String
        /// "small", "medium" or "large": Messages' grid.
        public var sizeClass: String
        public var stickers: [Sticker]

        public init(revision: Int, cursor: String, sizeClass: String, stickers: [Sticker]) {
            (self.revision, self.cursor, self.sizeClass, self.stickers) = (revision, cursor, sizeClass, stickers)
        }
    }

    /// Writes `Stickers.xcstickers` into `folder`, replacing one there only once the new one is whole; `bytes` gives
    /// each sticker's file. The number of stickers written.
    @discardableResult
    public static func write(
        _ pack: Pack, into folder: URL, bytes: (Pack.Sticker) async throws -> Data
    ) async throws -> Int {
        guard !pack.stickers.isEmpty else { throw Failure.empty }
        let final = folder.appending(path: "Stickers.xcstickers")
        let catalog = folder.appending(path: ".Stickers.xcstickers.\(UInt32.random(in: 0...UInt32.max)).part")
        defer { try? FileManager.default.removeItem(at: catalog) }
        let stickerPack = catalog.appending(path: "Sticker Pack.stickerpack")
        try FileManager.default.createDirectory(at: stickerPack, withIntermediateDirectories: true)
        try json(["info": info, "stickercatalog": ["revision": pack.revision, "cursor": pack.cursor]], to: catalog)
        var used = Set<String>()
        var entries: [[String: Any]] = []
        for sticker in pack.stickers {
            let data = try await bytes(sticker)
            guard data.count <= maxFileBytes else { throw Failure.tooLarge(sticker: sticker.id, bytes: data.count) }
            guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
                throw Failure.notPNG(sticker: sticker.id)
            }
            let name = unique(safeName(sticker.name), in: &used)
            let folder = stickerPack.appending(path: "\(name).sticker")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appending(path: "\(name).png"))
            try json(
                ["info": info, "properties": ["filename": "\(name).png", "accessibility-label": sticker.description]],
                to: folder)
            entries.append(["filename": "\(name).sticker"])
        }
        try json(
            ["info": info, "properties": ["grid-size": gridSize(pack.sizeClass)], "stickers": entries], to: stickerPack)
        // The old export goes only once the new one is complete.
        if FileManager.default.fileExists(atPath: final.path) {
            _ = try FileManager.default.replaceItemAt(final, withItemAt: catalog)
        } else {
            try FileManager.default.moveItem(at: catalog, to: final)
        }
        return pack.stickers.count
    }

    static var info: [String: Any] { ["author": "stickercatalog", "version": 1] }

    /// Messages' grid: small (100 pt), regular (136 pt), large (206 pt).
    static func gridSize(_ sizeClass: String) -> String {
        switch sizeClass {
        case "small": "small"
        case "large": "large"
        default: "regular"
        }
    }

    /// Letters, digits, spaces, dashes and underscores (no dots or slashes: a dot would read as a folder type).
    static func safeName(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || " -_".unicodeScalars.contains(scalar)
                ? Character(scalar) : "-"
        }
        let trimmed = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: " -"))
        return trimmed.isEmpty ? "Sticker" : String(trimmed.prefix(64))
    }

    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while used.contains(candidate.lowercased()) { (candidate, number) = ("\(name)-\(number)", number + 1) }
        used.insert(candidate.lowercased())
        return candidate
    }

    private static func json(_ object: [String: Any], to folder: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: folder.appending(path: "Contents.json"))
    }
}
