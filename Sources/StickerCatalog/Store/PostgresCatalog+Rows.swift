import Foundation
import PostgresNIO
import StickerImage

/// The columns every group and sticker query selects, and how a row becomes a domain value.
extension PostgresCatalog {
    static let groupColumns = """
        g.id, g.name, g.localized_names::text, g.size_class, g.flags, g.product_id, g.position, g.published,
        g.cover_sticker_id, g.created_at, g.updated_at
        """

    static let stickerColumns = """
        s.id, s.group_id, s.name, s.description, s.localized_descriptions::text, s.flags, s.keywords, s.emoji,
        s.position, s.created_at, s.updated_at, a.sha256, a.width, a.height, octet_length(a.bytes), a.animated, a.frames, a.duration_ms, a.loops
        """

    static func group(_ row: PostgresRow) throws -> StickerGroup {
        let (id, name, names, size, flags, product, position, published, cover, created, updated) = try row.decode(
            (String, String, String, String, [String], String?, Int, Bool, UUID?, Date, Date).self)
        return StickerGroup(id: id, name: name, localizedNames: dictionary(names), sizeClass: SizeClass(rawValue: size) ?? .medium,
                            flags: flags, productId: product, position: position, published: published,
                            coverStickerId: cover, createdAt: created, updatedAt: updated)
    }

    static func sticker(_ row: PostgresRow) throws -> Sticker {
        let (id, group, name, description, descriptions, flags, keywords, emoji, position, created, updated,
             sha, width, height, bytes, animated, frames, durationMs, loops) = try row.decode(
            (UUID, String, String, String, String, [String], [String], [String], Int, Date, Date,
             String, Int, Int, Int, Bool, Int, Int, Int).self)
        return Sticker(id: id, groupId: group, name: name, description: description,
                       localizedDescriptions: dictionary(descriptions), flags: flags, keywords: keywords, emoji: emoji,
                       position: position,
                       asset: Asset(sha256: sha, width: width, height: height, bytes: bytes, animated: animated, frames: frames,
                                    durationMs: durationMs, loops: loops),
                       createdAt: created, updatedAt: updated)
    }

    func fetchGroup(_ connection: PostgresConnection, id: String) async throws -> StickerGroup? {
        let rows = try await connection.query("SELECT \(unescaped: Self.groupColumns) FROM sticker_groups g WHERE g.id = \(id)", logger: logger)
        for try await row in rows { return try Self.group(row) }
        return nil
    }

    /// Stickers with their asset and its renditions, for a query selecting `stickerColumns` `FROM stickers s JOIN assets a`.
    func fetchStickers(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Sticker] {
        var stickers: [Sticker] = []
        for try await row in try await connection.query(query, logger: logger) {
            stickers.append(try Self.sticker(row))
        }
        let renditions = try await fetchRenditions(connection, sources: Array(Set(stickers.map(\.asset.sha256))))
        return stickers.map { sticker in
            var sticker = sticker
            sticker.renditions = renditions[sticker.asset.sha256] ?? []
            return sticker
        }
    }

    func fetchStickers(_ connection: PostgresConnection, groupId: String) async throws -> [Sticker] {
        try await fetchStickers(connection, """
            SELECT \(unescaped: Self.stickerColumns) FROM stickers s JOIN assets a ON a.sha256 = s.asset_sha256
            WHERE s.group_id = \(groupId) ORDER BY s.position, s.created_at, s.id
            """)
    }

    func fetchSticker(_ connection: PostgresConnection, id: UUID) async throws -> Sticker? {
        try await fetchStickers(connection, """
            SELECT \(unescaped: Self.stickerColumns) FROM stickers s JOIN assets a ON a.sha256 = s.asset_sha256
            WHERE s.id = \(id)
            """).first
    }
}
