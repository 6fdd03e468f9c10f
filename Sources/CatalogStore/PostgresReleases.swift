import CatalogCore
import Foundation
import PostgresNIO

/// Releases, from the history the triggers keep (sql/0014_releases.sql).
extension PostgresReleases: ReleaseRepository {
    package func releases(before: Int64?, limit: Int) async throws -> (releases: [Release], more: Bool) {
        try await read { connection in
            // One row past the page tells whether another follows; its summary is not computed.
            let rows = try await connection.query(
                """
                SELECT revision, released_at, author, restored_from, row_number() OVER (ORDER BY revision DESC) AS n,
                       CASE WHEN row_number() OVER (ORDER BY revision DESC) <= \(limit) THEN release_summary(revision)::text END
                FROM catalog_releases WHERE revision < \(before ?? .max) ORDER BY revision DESC LIMIT \(limit + 1)
                """, logger: logger)
            var releases: [Release] = []
            var more = false
            for try await (revision, at, author, restored, n, summary) in rows.decode(
                (Int64, Date, String, Int64?, Int, String?).self)
            {
                guard n <= limit else {
                    more = true
                    continue
                }
                releases.append(
                    Release(
                        revision: revision, releasedAt: at, author: author, restoredFrom: restored,
                        summary: try summary.map { try JSONDecoder().decode(ReleaseSummary.self, from: Data($0.utf8)) })
                )
            }
            return (releases, more)
        }
    }

    /// Read on the primary in one repeatable-read transaction, as the live snapshot is.
    package func snapshot(release revision: Int64) async throws -> CatalogSnapshot? {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            try await connection.query("SET LOCAL jit = off", logger: logger)
            guard
                try await connection.first(
                    "SELECT true FROM catalog_releases WHERE revision = \(revision)",
                    as: Bool.self, logger: logger) != nil
            else { return nil }
            var groups: [StickerGroup] = []
            for try await row in try await connection.query(
                """
                SELECT \(unescaped: Self.groupColumns) FROM sticker_groups_at(\(revision)) g
                WHERE g.published ORDER BY g.position, g.name, g.id
                """, logger: logger)
            {
                var group = try Self.group(row)
                group.position = groups.count  // among visible groups, as the live snapshot numbers them
                groups.append(group)
            }
            let stickers = try await fetchStickers(
                connection,
                """
                SELECT \(unescaped: Self.stickerColumns) FROM stickers_at(\(revision)) s JOIN assets a ON a.sha256 = s.asset_sha256
                JOIN sticker_groups_at(\(revision)) g ON g.id = s.group_id WHERE g.published AND s.visible
                ORDER BY s.position, s.created_at, s.id
                """)
            var filters: [String: StickerFilter] = [:]
            for try await (name, title, flags) in try await connection.query(
                "SELECT name, title, required_flags FROM filters_at(\(revision))", logger: logger
            ).decode((String, String, [String]).self) {
                filters[name] = StickerFilter(name: name, title: title, flags: flags)
            }
            return CatalogSnapshot(
                revision: revision, groups: groups, stickers: Dictionary(grouping: stickers, by: \.groupId),
                filters: filters, contentVersions: [:])
        }
    }

    /// How long a restore may run: its own bound, not `--statement-timeout` (a restore longer than that could never
    /// finish). Writes meanwhile wait in `WriteAdmission`, not on pooled connections.
    package static let restoreTimeout = Duration.seconds(300)

    /// Alone: no other catalog write, schedule or pruning runs beside it (the schedule lock held exclusively).
    package func restore(
        release revision: Int64, keeping answer: IdempotentWrite<RestoredRelease?>? = nil
    ) async throws -> RestoredRelease? {
        try await write(keeping: answer, exclusive: true, timeout: Self.restoreTimeout) { connection in
            // Statements here may take their time at 10,000 stickers: the restore's own timeout bounds them.
            try await connection.query("SET LOCAL jit = off", logger: logger)
            guard
                let changed = try await connection.first(
                    "SELECT restore_release(\(revision))", as: Bool?.self, logger: logger),
                let changed
            else { return nil }
            let current =
                try await connection.first("SELECT revision FROM catalog_revision", as: Int64.self, logger: logger) ?? 0
            return RestoredRelease(revision: current, changed: changed)
        }
    }

    /// Forgets releases older than `age` (never the current one) and the row versions no kept release shows; the
    /// releases forgotten. The oldest kept release then has no summary (what came before it is forgotten). Images only
    /// forgotten releases showed become gc's to collect.
    package func pruneReleases(olderThan age: Duration) async throws -> Int {
        let seconds = Double(age.components.seconds)
        return try await write { connection in
            let removed = try await connection.count(
                """
                WITH gone AS (DELETE FROM catalog_releases
                              WHERE released_at < now() - make_interval(secs => \(seconds))
                                AND revision < (SELECT revision FROM catalog_revision) RETURNING 1)
                SELECT count(*) FROM gone
                """, logger: logger)
            guard removed > 0 else { return 0 }
            try await connection.query(
                """
                WITH oldest AS (SELECT min(revision) AS r FROM catalog_releases)
                DELETE FROM sticker_groups_history USING oldest WHERE valid_to <= oldest.r
                """, logger: logger)
            try await connection.query(
                """
                WITH oldest AS (SELECT min(revision) AS r FROM catalog_releases)
                DELETE FROM stickers_history USING oldest WHERE valid_to <= oldest.r
                """, logger: logger)
            try await connection.query(
                """
                WITH oldest AS (SELECT min(revision) AS r FROM catalog_releases)
                DELETE FROM filters_history USING oldest WHERE valid_to <= oldest.r
                """, logger: logger)
            // The change feed reads what a cursor saw from these versions: a cursor older than the oldest kept
            // expires (the client fetches the manifest again) rather than being answered from versions now gone.
            try await connection.query(
                """
                UPDATE catalog_change_horizon
                SET revision = greatest(revision, (SELECT min(revision) FROM catalog_releases))
                """, logger: logger)
            return removed
        }
    }
}
