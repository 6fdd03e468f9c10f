import Foundation
import PostgresNIO

extension PostgresCatalog: GroupRepository {
    public func createGroup(_ draft: GroupDraft) async throws -> StickerGroup {
        try await write { connection in
            try await connection.query("""
                INSERT INTO sticker_groups (id, name, localized_names, size_class, flags, product_id, position, published)
                VALUES (\(draft.id), \(draft.name), \(Self.json(draft.localizedNames ?? [:]))::jsonb,
                        \((draft.sizeClass ?? .medium).rawValue), \(draft.flags ?? []), \(draft.productId),
                        \(draft.position ?? 0), \(draft.published ?? true))
                """, logger: logger)
            return try await fetchGroup(connection, id: draft.id)!
        }
    }

    public func groups(limit: Int, offset: Int) async throws -> [(group: StickerGroup, stickerCount: Int)] {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            var groups: [StickerGroup] = []
            for try await row in try await connection.query("""
                SELECT \(unescaped: Self.groupColumns) FROM sticker_groups g ORDER BY g.position, g.name, g.id
                LIMIT \(limit) OFFSET \(offset)
                """, logger: logger) {
                groups.append(try Self.group(row))
            }
            var counts: [String: Int] = [:]
            for try await (group, count) in try await connection.query("""
                SELECT group_id, count(*) FROM stickers WHERE group_id = ANY(\(groups.map(\.id))) GROUP BY group_id
                """, logger: logger).decode((String, Int).self) {
                counts[group] = count
            }
            return groups.map { (group: $0, stickerCount: counts[$0.id] ?? 0) }
        }
    }

    public func group(id: String) async throws -> StickerGroup? {
        try await client.withConnection { try await fetchGroup($0, id: id) }
    }

    public func updateGroup(id: String, _ patch: GroupPatch) async throws -> StickerGroup? {
        let (setProduct, product): (Bool, String?) = if case .set(let value) = patch.productId { (true, value) } else { (false, nil) }
        let (setCover, cover): (Bool, UUID?) = if case .set(let value) = patch.coverStickerId { (true, value) } else { (false, nil) }
        return try await write { connection in
            if let cover {
                let owner = try await connection.query("SELECT group_id FROM stickers WHERE id = \(cover)", logger: logger)
                    .decode(String.self).first { _ in true }
                if owner != id { throw Problem.validationFailed("coverStickerId", "must be a sticker of this group") }
            }
            let rows = try await connection.query("""
                UPDATE sticker_groups SET
                    name = COALESCE(\(patch.name), name),
                    localized_names = COALESCE(\(patch.localizedNames.map(Self.json))::jsonb, localized_names),
                    size_class = COALESCE(\(patch.sizeClass?.rawValue), size_class),
                    flags = COALESCE(\(patch.flags), flags),
                    product_id = CASE WHEN \(setProduct) THEN \(product) ELSE product_id END,
                    position = COALESCE(\(patch.position), position),
                    published = COALESCE(\(patch.published), published),
                    cover_sticker_id = CASE WHEN \(setCover) THEN \(cover) ELSE cover_sticker_id END,
                    updated_at = now()
                WHERE id = \(id) RETURNING id
                """, logger: logger)
            guard try await rows.decode(String.self).first(where: { _ in true }) != nil else { return nil }
            return try await fetchGroup(connection, id: id)
        }
    }

    public func deleteGroup(id: String) async throws -> Bool {
        try await write { connection in
            let rows = try await connection.query("DELETE FROM sticker_groups WHERE id = \(id) RETURNING id", logger: logger)
            return try await rows.decode(String.self).first { _ in true } != nil
        }
    }

    public func stickers(inGroup id: String) async throws -> [Sticker] {
        try await client.withConnection { try await fetchStickers($0, groupId: id) }
    }

    public func orderStickers(inGroup id: String, _ ids: [UUID]) async throws -> [Sticker] {
        try await write { connection in
            let current = try await connection.query("SELECT id FROM stickers WHERE group_id = \(id) FOR UPDATE", logger: logger)
            var existing = Set<UUID>()
            for try await sticker in current.decode(UUID.self) { existing.insert(sticker) }
            guard Set(ids) == existing, ids.count == existing.count else {
                throw Problem.validationFailed("stickerIds", "must list each of the group's \(existing.count) stickers exactly once")
            }
            try await connection.query("""
                UPDATE stickers s SET position = o.ord - 1, updated_at = now()
                FROM unnest(\(ids)::uuid[]) WITH ORDINALITY AS o(id, ord) WHERE s.id = o.id
                """, logger: logger)
            return try await fetchStickers(connection, groupId: id)
        }
    }
}
