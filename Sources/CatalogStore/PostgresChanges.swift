import CatalogCore
import PostgresNIO

extension PostgresChanges: ChangeLogReader {
    /// What changed after revision `since` up to `through`, or nil when that history is no longer kept (or `since` is
    /// ahead of the database: a cursor from a future a restore took away).
    package func changes(since: Int64, through: Int64) async throws -> CatalogChanges? {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            let bounds = try await connection.query(
                "SELECT h.revision, r.revision FROM catalog_change_horizon h, catalog_revision r", logger: logger)
            var horizon: Int64 = .max
            var current: Int64 = 0
            for try await (kept, now) in bounds.decode((Int64, Int64).self) { (horizon, current) = (kept, now) }
            guard since >= horizon, since <= current else { return nil }
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
            }
            return removed
        }
    }
}
