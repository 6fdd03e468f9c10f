import CatalogCore
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
            for try await (kind, id) in rows.decode((String, String).self) {
                switch kind {
                case "group": changes.groups.insert(id)
                case "sticker": changes.deletedStickers.insert(id)
                default: changes.filters.insert(id)
                }
            }
            return changes
        }
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
