import CatalogCore
import Foundation
import PostgresNIO
import StickerImage

/// The columns every group and sticker query selects, and how a row becomes a domain value.
extension PostgresRepository {
    package static var groupColumns: String {
        """
        g.id, g.name, g.localized_names::text, g.size_class, g.flags, g.product_id, g.position, g.listed,
        g.cover_sticker_id, g.created_at, g.updated_at, g.publish_at, g.unpublish_at, g.audience::text, g.audience_salt,
        g.description, g.localized_descriptions::text
        """
    }
    package static var groupColumnCount: Int { 17 }

    package static var stickerColumns: String {
        """
        s.id, s.group_id, s.name, s.description, s.localized_descriptions::text, s.flags, s.keywords, s.emoji,
        s.position, a.sha256, a.width, a.height, octet_length(a.bytes), a.animated, a.frames, a.duration_ms, a.loops, a.format,
        s.created_at, s.updated_at, s.publish_at, s.unpublish_at, a.placeholder
        """
    }

    /// An image's columns, in `stickerColumns`' order: sha256, width, height, bytes, animated, frames, duration, loops,
    /// format.
    package static func asset(_ cells: inout PostgresCells) throws -> Asset {
        Asset(
            sha256: try cells.next(), width: try cells.next(), height: try cells.next(), bytes: try cells.next(),
            animated: try cells.next(), frames: try cells.next(), durationMs: try cells.next(), loops: try cells.next(),
            format: try format(&cells))
    }

    /// A `format` column: the CHECK constraint allows only the formats the service stores.
    package static func format(_ cells: inout PostgresCells) throws -> ImageFormat {
        ImageFormat(rawValue: try cells.next(String.self)) ?? .png
    }

    package static func group(_ row: PostgresRow) throws -> StickerGroup {
        var cells = PostgresCells(row)
        return StickerGroup(
            id: try cells.next(), name: try cells.next(), localizedNames: dictionary(try cells.next()),
            sizeClass: SizeClass(rawValue: try cells.next(String.self)) ?? .medium, flags: try cells.next(),
            productId: try cells.next(), position: try cells.next(), published: try cells.next(),
            coverStickerId: try cells.next(), createdAt: try cells.next(), updatedAt: try cells.next(),
            publishAt: try cells.next(), unpublishAt: try cells.next(), audience: audience(try cells.next()),
            audienceSalt: try cells.next(String?.self) ?? "", description: try cells.next(),
            localizedDescriptions: dictionary(try cells.next()))
    }

    /// A stored `audience` (its API form, validated when saved). One that no longer reads shows the group to no one
    /// rather than to everyone. `{}`, which names no condition (accepted before it was refused), is everyone: no
    /// audience, its images unsigned.
    package static func audience(_ text: String?) -> Audience? {
        guard let text else { return nil }
        guard let form = try? JSONDecoder().decode(AudienceForm.self, from: Data(text.utf8)) else { return .nobody }
        guard form != AudienceForm() else { return nil }
        return Audience(stored: form) ?? .nobody
    }

    /// An audience as stored: its canonical API form.
    package static func json(_ audience: Audience) -> String {
        (try? String(decoding: JSONEncoder.catalog.encode(audience.form), as: UTF8.self)) ?? "{}"
    }

    package static func sticker(_ row: PostgresRow) throws -> Sticker {
        var cells = PostgresCells(row)
        return Sticker(
            id: try cells.next(UUID.self), groupId: try cells.next(), name: try cells.next(),
            description: try cells.next(),
            localizedDescriptions: dictionary(try cells.next()), flags: try cells.next(), keywords: try cells.next(),
            emoji: try cells.next(), position: try cells.next(), asset: try asset(&cells),
            createdAt: try cells.next(), updatedAt: try cells.next(), publishAt: try cells.next(),
            unpublishAt: try cells.next(), placeholder: try cells.next())
    }

    package func fetchGroup(_ connection: PostgresConnection, id: String) async throws -> StickerGroup? {
        let rows = try await connection.query(
            "SELECT \(unescaped: Self.groupColumns) FROM sticker_groups g WHERE g.id = \(id)", logger: logger)
        for try await row in rows { return try Self.group(row) }
        return nil
    }

    /// Stickers with their asset and its renditions, for a query selecting `stickerColumns` `FROM stickers s JOIN
    /// assets a`.
    package func fetchStickers(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Sticker] {
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

    package func fetchStickers(_ connection: PostgresConnection, groupId: String) async throws -> [Sticker] {
        try await fetchStickers(
            connection,
            """
            SELECT \(unescaped: Self.stickerColumns) FROM stickers s JOIN assets a ON a.sha256 = s.asset_sha256
            WHERE s.group_id = \(groupId) ORDER BY s.position, s.created_at, s.id
            """)
    }

    package func fetchSticker(_ connection: PostgresConnection, id: UUID) async throws -> Sticker? {
        try await fetchStickers(
            connection,
            """
            SELECT \(unescaped: Self.stickerColumns) FROM stickers s JOIN assets a ON a.sha256 = s.asset_sha256
            WHERE s.id = \(id)
            """
        ).first
    }
}
