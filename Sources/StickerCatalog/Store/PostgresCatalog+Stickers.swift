import Foundation
import PostgresNIO
import StickerImage

extension PostgresCatalog: StickerRepository {
    public func addSticker(to groupId: String, _ draft: StickerDraft, image: [UInt8], info: StickerImageInfo) async throws -> Sticker {
        let sha = sha256Hex(image)
        return try await write { connection in
            // Locking the group serialises uploads into it, so "last position" stays exact.
            let group = try await connection.query("SELECT id FROM sticker_groups WHERE id = \(groupId) FOR UPDATE", logger: logger)
            guard try await group.decode(String.self).first(where: { _ in true }) != nil else {
                throw Problem.notFound("Group '\(groupId)'")
            }
            try await connection.query("""
                INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops)
                VALUES (\(sha), \(ByteBuffer(bytes: image)), \(info.width), \(info.height), \(info.animated), \(info.frames),
                        \(info.durationMs), \(info.loops))
                ON CONFLICT (sha256) DO NOTHING
                """, logger: logger)
            let rows = try await connection.query("""
                INSERT INTO stickers (group_id, name, description, localized_descriptions, flags, keywords, emoji, position, asset_sha256)
                VALUES (\(groupId), \(draft.name), \(draft.description), \(Self.json(draft.localizedDescriptions))::jsonb,
                        \(draft.flags), \(draft.keywords), \(draft.emoji),
                        COALESCE(\(draft.position), (SELECT COALESCE(max(position) + 1, 0) FROM stickers WHERE group_id = \(groupId))),
                        \(sha))
                RETURNING id
                """, logger: logger)
            let id = try await rows.decode(UUID.self).first { _ in true }!
            return try await fetchSticker(connection, id: id)!
        }
    }

    public func sticker(id: UUID) async throws -> Sticker? {
        try await client.withConnection { try await fetchSticker($0, id: id) }
    }

    public func updateSticker(id: UUID, _ patch: StickerPatch) async throws -> Sticker? {
        try await write { connection in
            let rows = try await connection.query("""
                UPDATE stickers SET
                    name = COALESCE(\(patch.name), name),
                    description = COALESCE(\(patch.description), description),
                    localized_descriptions = COALESCE(\(patch.localizedDescriptions.map(Self.json))::jsonb, localized_descriptions),
                    flags = COALESCE(\(patch.flags), flags),
                    keywords = COALESCE(\(patch.keywords), keywords),
                    emoji = COALESCE(\(patch.emoji), emoji),
                    position = COALESCE(\(patch.position), position),
                    updated_at = now()
                WHERE id = \(id) RETURNING id
                """, logger: logger)
            guard try await rows.decode(UUID.self).first(where: { _ in true }) != nil else { return nil }
            return try await fetchSticker(connection, id: id)
        }
    }

    public func deleteSticker(id: UUID) async throws -> Bool {
        try await write { connection in
            let rows = try await connection.query("DELETE FROM stickers WHERE id = \(id) RETURNING id", logger: logger)
            return try await rows.decode(UUID.self).first { _ in true } != nil
        }
    }
}
