import CatalogCore
import Foundation
import PostgresNIO

extension PostgresCatalog: GroupRepository {
    /// Serialises changes to group positions, so that they stay 0..n-1 ("STKG" in ASCII).
    package static let groupOrderLock: Int64 = 0x5354_4B47

    package func createGroup(
        _ draft: GroupDraft, keeping answer: IdempotentWrite<StickerGroup>? = nil
    ) async throws -> StickerGroup {
        try await write(keeping: answer) { connection in
            try await insertGroup(connection, draft)
            guard let group = try await fetchGroup(connection, id: draft.id) else {
                throw CatalogError.notFound("Group '\(draft.id)'")
            }
            return group
        }
    }

    /// Inserts a group at its position (by default where its name sorts), moving the groups from there down one.
    package func insertGroup(_ connection: PostgresConnection, _ draft: GroupDraft) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.groupOrderLock))", logger: logger)
        let count = try await connection.count("SELECT count(*) FROM sticker_groups", logger: logger)
        let byName = try await connection.count(
            "SELECT count(*) FROM sticker_groups WHERE (name, id) < (\(draft.name), \(draft.id))", logger: logger)
        let position = min(draft.position ?? byName, count)
        try await connection.query(
            "UPDATE sticker_groups SET position = position + 1 WHERE position >= \(position)", logger: logger)
        try await connection.query(
            """
            INSERT INTO sticker_groups (id, name, localized_names, size_class, flags, product_id, position, listed,
                                        publish_at, unpublish_at, audience, description, localized_descriptions)
            VALUES (\(draft.id), \(draft.name), \(Self.json((draft.localizedNames ?? [:]).canonicalKeys))::jsonb,
                    \((draft.sizeClass ?? .medium).rawValue), \(draft.flags ?? []), \(draft.productId), \(position),
                    \(draft.published ?? true), \(draft.schedule.publishAt), \(draft.schedule.unpublishAt),
                    \(draft.audience.map(Self.json))::jsonb, \(draft.description ?? ""),
                    \(Self.json((draft.localizedDescriptions ?? [:]).canonicalKeys))::jsonb)
            """, logger: logger)
    }

    package func groups(limit: Int, offset: Int) async throws -> [(group: StickerGroup, stickerCount: Int)] {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            var groups: [StickerGroup] = []
            for try await row in try await connection.query(
                """
                SELECT \(unescaped: Self.groupColumns) FROM sticker_groups g ORDER BY g.position, g.name, g.id
                LIMIT \(limit) OFFSET \(offset)
                """, logger: logger)
            {
                groups.append(try Self.group(row))
            }
            var counts: [String: Int] = [:]
            for try await (group, count) in try await connection.query(
                """
                SELECT group_id, count(*) FROM stickers WHERE group_id = ANY(\(groups.map(\.id))) GROUP BY group_id
                """, logger: logger
            ).decode((String, Int).self) {
                counts[group] = count
            }
            return groups.map { (group: $0, stickerCount: counts[$0.id] ?? 0) }
        }
    }

    package func group(id: String) async throws -> StickerGroup? {
        try await read { try await fetchGroup($0, id: id) }
    }

    package func updateGroup(
        id: String, _ patch: GroupPatch,
        keeping answer: IdempotentWrite<GroupWithStickers?>? = nil
    ) async throws -> GroupWithStickers? {
        try await write(keeping: answer) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.groupOrderLock))", logger: logger)
            guard
                let current = try await connection.first(
                    "SELECT position FROM sticker_groups WHERE id = \(id) FOR UPDATE", as: Int.self, logger: logger)
            else { return nil }
            if let cover = patch.coverStickerId.value {
                let owner = try await connection.first(
                    "SELECT group_id FROM stickers WHERE id = \(cover)", as: String.self, logger: logger)
                guard owner == id else {
                    throw CatalogError.invalid("coverStickerId", "must be a sticker of this group")
                }
            }
            var position: Int?
            if let wanted = patch.position.value {
                let count = try await connection.count("SELECT count(*) FROM sticker_groups", logger: logger)
                position = min(wanted, count - 1)
                try await move(connection, inGroup: nil, from: current, to: min(wanted, count - 1))
            }
            let setProduct = patch.productId != .absent
            let setCover = patch.coverStickerId != .absent
            let setAudience = patch.audience != .absent
            try await connection.query(
                """
                UPDATE sticker_groups SET
                    name = COALESCE(\(patch.name.value), name),
                    localized_names = COALESCE(\(patch.localizedNames.value.map { Self.json($0.canonicalKeys) })::jsonb, localized_names),
                    size_class = COALESCE(\(patch.sizeClass.value?.rawValue), size_class),
                    flags = COALESCE(\(patch.flags.value), flags),
                    product_id = CASE WHEN \(setProduct) THEN \(patch.productId.value) ELSE product_id END,
                    position = COALESCE(\(position), position),
                    listed = COALESCE(\(patch.published.value), listed),
                    publish_at = CASE WHEN \(patch.schedule.setsPublish) THEN \(patch.schedule.publish) ELSE publish_at END,
                    unpublish_at = CASE WHEN \(patch.schedule.setsUnpublish) THEN \(patch.schedule.unpublish) ELSE unpublish_at END,
                    cover_sticker_id = CASE WHEN \(setCover) THEN \(patch.coverStickerId.value) ELSE cover_sticker_id END,
                    audience = CASE WHEN \(setAudience) THEN \(patch.audienceValue.map(Self.json))::jsonb ELSE audience END,
                    description = COALESCE(\(patch.description.value), description),
                    localized_descriptions = COALESCE(\(patch.localizedDescriptions.value.map { Self.json($0.canonicalKeys) })::jsonb, localized_descriptions),
                    updated_at = now()
                WHERE id = \(id)
                """, logger: logger)
            guard let group = try await fetchGroup(connection, id: id) else { return nil }
            return GroupWithStickers(group: group, stickers: try await fetchStickers(connection, groupId: id))
        }
    }

    package func deleteGroup(id: String, keeping answer: IdempotentWrite<Bool>? = nil) async throws -> Bool {
        try await write(keeping: answer) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.groupOrderLock))", logger: logger)
            guard
                let position = try await connection.first(
                    "DELETE FROM sticker_groups WHERE id = \(id) RETURNING position", as: Int.self, logger: logger)
            else { return false }
            try await connection.query(
                "UPDATE sticker_groups SET position = position - 1 WHERE position > \(position)", logger: logger)
            return true
        }
    }

    package func stickers(inGroup id: String) async throws -> [Sticker] {
        try await read { try await fetchStickers($0, groupId: id) }
    }

    package func orderStickers(
        inGroup id: String, _ ids: [UUID], keeping answer: IdempotentWrite<[Sticker]>? = nil
    ) async throws -> [Sticker] {
        try await write(keeping: answer) { connection in
            try await connection.query("SELECT id FROM sticker_groups WHERE id = \(id) FOR UPDATE", logger: logger)
            let current = try await connection.query("SELECT id FROM stickers WHERE group_id = \(id)", logger: logger)
            var existing = Set<UUID>()
            for try await sticker in current.decode(UUID.self) { existing.insert(sticker) }
            guard Set(ids) == existing, ids.count == existing.count else {
                throw CatalogError.invalid(
                    "stickerIds", "must list each of the group's \(existing.count) stickers exactly once")
            }
            try await connection.query(
                """
                UPDATE stickers s SET position = o.ord - 1, updated_at = now()
                FROM unnest(\(ids)::uuid[]) WITH ORDINALITY AS o(id, ord) WHERE s.id = o.id AND s.position <> o.ord - 1
                """, logger: logger)
            return try await fetchStickers(connection, groupId: id)
        }
    }

    /// Moves the group (`groupId` nil) or the sticker of group `groupId` at position `from` to `to`, shifting the
    /// ones between by one; the caller then sets the moved row's own position to `to`.
    package func move(_ connection: PostgresConnection, inGroup groupId: String?, from: Int, to: Int) async throws {
        guard from != to else { return }
        let (low, high, step) = to < from ? (to, from - 1, 1) : (from + 1, to, -1)
        if let groupId {
            try await connection.query(
                """
                UPDATE stickers SET position = position + \(step) WHERE group_id = \(groupId) AND position BETWEEN \(low) AND \(high)
                """, logger: logger)
        } else {
            try await connection.query(
                "UPDATE sticker_groups SET position = position + \(step) WHERE position BETWEEN \(low) AND \(high)",
                logger: logger)
        }
    }
}

extension PostgresConnection {
    /// The first column of the first row of `query`, if any.
    package func first<T: PostgresDecodable & Sendable>(
        _ query: PostgresQuery, as type: T.Type, logger: Logger
    ) async throws -> T? {
        try await self.query(query, logger: logger).decode(T.self).first { _ in true }
    }

    /// A `count(*)`-like single integer.
    package func count(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        try await first(query, as: Int.self, logger: logger) ?? 0
    }
}
