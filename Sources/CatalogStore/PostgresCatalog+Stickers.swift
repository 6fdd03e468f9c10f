import CatalogCore
import Foundation
import PostgresNIO
import StickerImage

extension PostgresCatalog: StickerRepository {
    package func addSticker(
        to groupId: String, _ draft: StickerDraft, image: [UInt8], info: StickerImageInfo,
        renditions: [Rendition], keeping answer: IdempotentWrite<Sticker>? = nil
    ) async throws -> Sticker {
        try await write(keeping: answer) { connection in
            let id = try await insertSticker(
                connection, into: groupId, draft, image: image, info: info, renditions: renditions)
            guard let sticker = try await fetchSticker(connection, id: id) else {
                throw CatalogError.notFound("Sticker '\(id.apiString)'")
            }
            return sticker
        }
    }

    /// Stores the image (once per digest) with its renditions, and a sticker at its position (by default last), moving
    /// the stickers from there down one. Empty `renditions` keep those stored already.
    package func insertSticker(
        _ connection: PostgresConnection, into groupId: String, _ draft: StickerDraft, image: [UInt8],
        info: StickerImageInfo, renditions: [Rendition]
    ) async throws -> UUID {
        // Locking the group serialises changes to its stickers, so positions stay 0..n-1.
        guard try await lockGroup(connection, groupId) else { throw CatalogError.notFound("Group '\(groupId)'") }
        let sha = sha256Hex(image)
        try await connection.query(
            """
            INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops, format, placeholder)
            VALUES (\(sha), \(ByteBuffer(bytes: image)), \(info.width), \(info.height), \(info.animated), \(info.frames),
                    \(info.durationMs), \(info.loops), \(info.format.rawValue), \(info.placeholder))
            ON CONFLICT (sha256) DO UPDATE
                SET unreferenced_since = NULL, placeholder = COALESCE(assets.placeholder, EXCLUDED.placeholder)
            """, logger: logger)
        if renditions.isEmpty {
            try await holdRenditions(connection, source: sha, animated: info.animated)
        } else {
            try await storeRenditions(connection, source: sha, renditions)
        }
        let count = try await connection.count(
            "SELECT count(*) FROM stickers WHERE group_id = \(groupId)", logger: logger)
        let position = min(draft.position ?? count, count)
        try await connection.query(
            "UPDATE stickers SET position = position + 1 WHERE group_id = \(groupId) AND position >= \(position)",
            logger: logger)
        guard
            let id = try await connection.first(
                """
                INSERT INTO stickers (group_id, name, description, localized_descriptions, flags, keywords, emoji, position, asset_sha256,
                                      publish_at, unpublish_at)
                VALUES (\(groupId), \(draft.name), \(draft.description), \(Self.json(draft.localizedDescriptions.canonicalKeys))::jsonb,
                        \(draft.flags), \(draft.keywords), \(draft.emoji), \(position), \(sha),
                        \(draft.schedule.publishAt), \(draft.schedule.unpublishAt))
                RETURNING id
                """, as: UUID.self, logger: logger)
        else { throw CatalogError.notFound("Group '\(groupId)'") }
        return id
    }

    package func sticker(id: UUID) async throws -> Sticker? {
        try await read { try await fetchSticker($0, id: id) }
    }

    package func updateSticker(
        id: UUID, _ patch: StickerPatch, keeping answer: IdempotentWrite<Sticker?>? = nil
    ) async throws -> Sticker? {
        try await write(keeping: answer) { connection in
            guard
                let groupId = try await connection.first(
                    "SELECT group_id FROM stickers WHERE id = \(id)", as: String.self, logger: logger),
                try await lockGroup(connection, groupId),
                let current = try await connection.first(
                    "SELECT position FROM stickers WHERE id = \(id)", as: Int.self, logger: logger)
            else { return nil }
            var position: Int?
            if let wanted = patch.position.value {
                let count = try await connection.count(
                    "SELECT count(*) FROM stickers WHERE group_id = \(groupId)", logger: logger)
                position = min(wanted, count - 1)
                try await move(connection, inGroup: groupId, from: current, to: min(wanted, count - 1))
            }
            try await connection.query(
                """
                UPDATE stickers SET
                    name = COALESCE(\(patch.name.value), name),
                    description = COALESCE(\(patch.description.value), description),
                    localized_descriptions = COALESCE(\(patch.localizedDescriptions.value.map { Self.json($0.canonicalKeys) })::jsonb,
                                                      localized_descriptions),
                    flags = COALESCE(\(patch.flags.value), flags),
                    keywords = COALESCE(\(patch.keywords.value), keywords),
                    emoji = COALESCE(\(patch.emoji.value), emoji),
                    position = COALESCE(\(position), position),
                    publish_at = CASE WHEN \(patch.schedule.setsPublish) THEN \(patch.schedule.publish) ELSE publish_at END,
                    unpublish_at = CASE WHEN \(patch.schedule.setsUnpublish) THEN \(patch.schedule.unpublish) ELSE unpublish_at END,
                    updated_at = now()
                WHERE id = \(id)
                """, logger: logger)
            return try await fetchSticker(connection, id: id)
        }
    }

    package func deleteSticker(id: UUID, keeping answer: IdempotentWrite<Bool>? = nil) async throws -> Bool {
        try await write(keeping: answer) { connection in
            guard
                let groupId = try await connection.first(
                    "SELECT group_id FROM stickers WHERE id = \(id)", as: String.self, logger: logger),
                try await lockGroup(connection, groupId),
                let position = try await connection.first(
                    "DELETE FROM stickers WHERE id = \(id) RETURNING position", as: Int.self, logger: logger)
            else { return false }
            try await connection.query(
                "UPDATE stickers SET position = position - 1 WHERE group_id = \(groupId) AND position > \(position)",
                logger: logger)
            return true
        }
    }

    /// An upload that found the image's renditions current (outside this transaction) takes them: their rows locked
    /// and marked in use, so gc cannot take them before this commits; then counted, in case gc took some before.
    /// Throws `RenditionsMissing` when they are not all there, and the caller makes them.
    private func holdRenditions(_ connection: PostgresConnection, source: String, animated: Bool) async throws {
        try await connection.query(
            """
            UPDATE assets SET unreferenced_since = NULL WHERE sha256 IN (SELECT asset_sha256 FROM renditions WHERE source_sha256 = \(source))
            """, logger: logger)
        let complete = try await connection.first(
            """
            SELECT a.renditions_version = \(Renditions.version)
                   AND (SELECT count(*) FROM renditions r JOIN assets ra ON ra.sha256 = r.asset_sha256 WHERE r.source_sha256 = a.sha256)
                       = \(Renditions.count(animated: animated))
            FROM assets a WHERE a.sha256 = \(source)
            """, as: Bool.self, logger: logger)
        guard complete == true else { throw RenditionsMissing() }
    }

    /// Takes the group's row lock; false when the group does not exist.
    package func lockGroup(_ connection: PostgresConnection, _ groupId: String) async throws -> Bool {
        try await connection.first(
            "SELECT id FROM sticker_groups WHERE id = \(groupId) FOR UPDATE", as: String.self, logger: logger) != nil
    }
}
