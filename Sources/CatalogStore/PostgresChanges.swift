import CatalogCore
import Logging
import PostgresNIO

extension PostgresChanges: ChangeLogReader {
    /// What changed after revision `since` up to `through`, or nil when that history is no longer kept, or `since` is
    /// not the revision the cursor saw: ahead of the database, or stamped otherwise (a future a restore took away).
    package func changes(since: Int64, stamp: Int64, through: Int64) async throws -> CatalogChanges? {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            let bounds = try await connection.query(
                """
                SELECT h.revision, r.revision, s.stamp FROM catalog_change_horizon h, catalog_revision r
                LEFT JOIN catalog_revision_stamps s ON s.revision = \(since)
                """, logger: logger)
            var horizon: Int64 = .max
            var current: Int64 = 0
            var stamped: Int64?
            for try await (kept, now, seen) in bounds.decode((Int64, Int64, Int64?).self) {
                (horizon, current, stamped) = (kept, now, seen)
            }
            guard since >= horizon, since <= current, stamped == stamp else { return nil }
            var changes = CatalogChanges()
            let rows = try await connection.query(
                """
                SELECT DISTINCT kind, id FROM catalog_changes WHERE revision > \(since) AND revision <= \(through)
                """, logger: logger)
            var deleted: [String] = []
            for try await (kind, id) in rows.decode((String, String).self) {
                switch kind {
                case "group": changes.groups.insert(id)
                case "sticker": deleted.append(id)
                default: changes.filters.insert(id)
                }
            }
            try await Self.readSeen(into: &changes, deleted: deleted, since: since, on: connection, logger: logger)
            return changes
        }
    }

    /// What a client at `since` could have seen of the changes: where each deleted sticker was shown then, and which
    /// of the groups named were open to everyone then (from the row versions `sticker_groups_at` and `stickers_at`,
    /// kept back to the change horizon: `pruneReleases` raises it as it forgets versions).
    private static func readSeen(
        into changes: inout CatalogChanges, deleted: [String], since: Int64, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        if !deleted.isEmpty {
            let rows = try await connection.query(
                """
                SELECT c.id, s.group_id FROM unnest(\(deleted)::text[]) c(id)
                JOIN stickers_at(\(since)) s ON s.id::text = c.id WHERE s.visible
                """, logger: logger)
            for try await (id, group) in rows.decode((String, String).self) { changes.deletedStickers[id] = group }
        }
        let named = Array(changes.groups.union(changes.deletedStickers.values))
        guard !named.isEmpty else { return }
        let open = try await connection.query(
            """
            SELECT id FROM sticker_groups_at(\(since)) WHERE published AND audience IS NULL AND id = ANY(\(named))
            """, logger: logger)
        for try await id in open.decode(String.self) { changes.openBefore.insert(id) }
    }

    /// Forgets changes older than `age`, raising the horizon to the newest revision forgotten; the rows removed.
    package func pruneChanges(olderThan age: Duration) async throws -> Int {
        let seconds = Double(age.components.seconds)
        return try await write { connection in
            var removed = 0
            var newest: Int64 = 0
            let rows = try await connection.query(
                """
                DELETE FROM catalog_changes WHERE changed_at < now() - make_interval(secs => \(seconds)) RETURNING revision
                """, logger: logger)
            for try await revision in rows.decode(Int64.self) {
                (removed, newest) = (removed + 1, max(newest, revision))
            }
            if removed > 0 {
                try await connection.query(
                    "UPDATE catalog_change_horizon SET revision = greatest(revision, \(newest))", logger: logger)
                try await connection.query(
                    """
                    DELETE FROM catalog_revision_stamps
                    WHERE revision < (SELECT revision FROM catalog_change_horizon)
                    """, logger: logger)
            }
            return removed
        }
    }
}
