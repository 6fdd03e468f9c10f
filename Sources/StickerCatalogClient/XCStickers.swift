import Foundation

/// Writes a view of the catalog as an Xcode sticker catalog (`Stickers.xcstickers`), the fallback an iMessage app
/// bundles: one `.stickerpack` whose `grid-size` follows the size class, a `.sticker` per sticker of every unlocked
/// group in display order (an APNG stays one file), its description as the accessibility label, every file within
/// Messages' 500 KB, names Xcode accepts, and the revision it came from in the catalog's `Contents.json`. Key names
/// follow Apple's Asset Catalog Format Reference (Sticker Pack Type, Sticker Type).
public enum XCStickers {
    /// Messages refuses sticker files larger than this.
    public static let maxFileBytes = 500 * 1024

    public enum Failure: Error, Equatable {
        case tooLarge(sticker: String, bytes: Int)
        case empty
    }

    /// Writes `Stickers.xcstickers` into `folder` (replacing one there); `bytes` gives each image's file. `size` is the
    /// view's size class ("small", "medium", "large"), nil for the first group's own. The number of stickers written.
    @discardableResult
    public static func write(_ manifest: Manifest, size: String?, into folder: URL,
                             bytes: (AssetLink) async throws -> Data) async throws -> Int {
        let groups = manifest.groups.filter { !$0.locked }
        let stickers = groups.flatMap(\.stickers)
        guard !stickers.isEmpty else { throw Failure.empty }
        let catalog = folder.appending(path: "Stickers.xcstickers")
        let pack = catalog.appending(path: "Sticker Pack.stickerpack")
        try? FileManager.default.removeItem(at: catalog)
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        try json(["info": info, "stickercatalog": ["revision": manifest.revision, "cursor": manifest.cursor]], to: catalog)
        var used = Set<String>(), entries: [[String: Any]] = []
        for sticker in stickers {
            let data = try await bytes(sticker.asset)
            guard data.count <= maxFileBytes else { throw Failure.tooLarge(sticker: sticker.id, bytes: data.count) }
            let name = unique(safeName(sticker.name), in: &used)
            let folder = pack.appending(path: "\(name).sticker")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appending(path: "\(name).png"))
            try json(["info": info, "properties": ["filename": "\(name).png", "accessibility-label": sticker.description]], to: folder)
            entries.append(["filename": "\(name).sticker"])
        }
        try json(["info": info, "properties": ["grid-size": gridSize(size ?? groups.first?.sizeClass ?? "medium")], "stickers": entries],
                 to: pack)
        return stickers.count
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
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || " -_".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        }
        let trimmed = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: " -"))
        return trimmed.isEmpty ? "Sticker" : String(trimmed.prefix(64))
    }

    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var candidate = name, number = 2
        while used.contains(candidate.lowercased()) { (candidate, number) = ("\(name)-\(number)", number + 1) }
        used.insert(candidate.lowercased())
        return candidate
    }

    private static func json(_ object: [String: Any], to folder: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: folder.appending(path: "Contents.json"))
    }
}

extension LocalCatalog {
    /// The last sync as `Stickers.xcstickers` in `folder`, from the files on disk (no network).
    @discardableResult
    public func exportXCStickers(into folder: URL, size: String? = nil) async throws -> Int {
        guard let manifest = try load() else { throw StickerClientError.notSynced }
        return try await XCStickers.write(manifest, size: size, into: folder) { try Data(contentsOf: fileURL(for: $0)) }
    }
}
