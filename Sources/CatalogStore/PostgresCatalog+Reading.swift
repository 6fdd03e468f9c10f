import CatalogCore
import Foundation
import Logging
import PostgresNIO

extension PostgresCatalog: CatalogReader {
    /// Reads the visible catalog, from a standby when one has at least the revision this replica knows (else from
    /// the primary), so a manifest never goes back.
    package func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot {
        if let replicas, let standby = replicas.next() {
            do {
                let snapshot = try await snapshot(reusing: previous, on: standby, atLeast: revision.current)
                replicas.count("snapshot", .used)
                return snapshot
            } catch let behind as StandbyBehind {
                replicas.count("snapshot", .behind)
                logger.debug(
                    "A standby is behind: reading the catalog from the primary",
                    metadata: ["standby": "\(behind.standby)", "wanted": "\(behind.wanted)"])
            } catch {
                replicas.count("snapshot", .failed)
                logger.warning(
                    "A standby failed: reading the catalog from the primary", metadata: ["error": "\(error)"])
            }
        }
        return try await snapshot(reusing: previous, on: pool, atLeast: nil)
    }

    /// The catalog as `moment` will show it with what is scheduled now, read from the primary (an admin's preview).
    package func snapshot(at moment: Date) async throws -> CatalogSnapshot {
        try await snapshot(reusing: nil, on: pool, atLeast: nil, at: moment)
    }

    /// Reads the visible catalog in one repeatable-read transaction, so the revision matches the rows. Groups, filters
    /// and the revision are read every time (a few hundred rows); stickers only for the groups whose stickers changed
    /// since `previous` (their `content_version`), the others' are kept from it. Throws `StandbyBehind` when the
    /// revision is under `atLeast`, before reading anything else. `moment`: what would be visible then instead of now.
    private func snapshot(
        reusing previous: CatalogSnapshot?, on pool: DatabasePool, atLeast wanted: Int64?,
        at moment: Date? = nil
    ) async throws -> CatalogSnapshot {
        let started = ContinuousClock.now
        let (snapshot, read) = try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: pool) {
            connection in
            // The catalog's big reads are simple scans: JIT compiling them cost 200 ms and saved nothing.
            try await connection.query("SET LOCAL jit = off", logger: logger)
            let (revision, stamp, kept) = try await Self.revision(connection, previous: previous, logger: logger)
            if let wanted, revision < wanted { throw StandbyBehind(standby: revision, wanted: wanted) }
            var previous = previous
            if let held = previous, kept != held.stamp {
                // The database no longer stamps the held snapshot's revision as it did: it went back, and what was
                // read since is of a history it no longer has. Nothing of it is reused, and every cache starts over.
                logger.warning(
                    "The catalog's history changed (a rewind): reading it all again",
                    metadata: ["held": "\(held.revision)", "stored": "\(revision)"])
                self.revision.rewind(to: revision, stamp: stamp)
                previous = nil
            }
            let (groups, versions, rows) = try await Self.groups(
                connection, at: moment, previous: moment == nil ? previous : nil, logger: logger)
            let changed = groups.map(\.id).filter { previous?.contentVersions[$0] != versions[$0] }
            var stickers: [String: [Sticker]] = [:]
            // A few groups a query: short answers, as `fetchRenditions` explains.
            for start in stride(from: 0, to: changed.count, by: Self.groupsPerQuery) {
                let some = Array(changed[start..<min(start + Self.groupsPerQuery, changed.count)])
                for sticker in try await fetchStickers(connection, Self.visibleStickers(at: moment, ofGroups: some)) {
                    stickers[sticker.groupId, default: []].append(sticker)
                }
            }
            if let previous {
                for group in groups where !changed.contains(group.id) {
                    stickers[group.id] = previous.stickers[group.id]
                }
            }
            var filters: [String: StickerFilter] = [:]
            for try await (name, title, flags) in try await connection.query(
                "SELECT name, title, required_flags FROM filters", logger: logger
            ).decode((String, String, [String]).self) {
                filters[name] = StickerFilter(name: name, title: title, flags: flags)
            }
            var snapshot = CatalogSnapshot(
                revision: revision, groups: groups, stickers: stickers, filters: filters, contentVersions: versions,
                reusing: previous)
            (snapshot.stamp, snapshot.epoch, snapshot.rowVersions) = (stamp, self.revision.epoch, rows)
            return (snapshot, changed.count)
        }
        logger.debug(
            "Read the catalog",
            metadata: [
                "revision": "\(snapshot.revision)", "groups": "\(snapshot.groups.count)",
                "groups read": "\(read)", "ms": "\((ContinuousClock.now - started).milliseconds)",
            ])
        return snapshot
    }

    /// The stored revision and its stamp, and the stamp the database gives `previous`'s revision now (nil when it has
    /// none: a future a rewind took away).
    private static func revision(
        _ connection: PostgresConnection, previous: CatalogSnapshot?, logger: Logger
    ) async throws -> (revision: Int64, stamp: Int64, kept: Int64?) {
        let rows = try await connection.query(
            """
            SELECT r.revision, r.stamp, s.stamp FROM catalog_revision r
            LEFT JOIN catalog_revision_stamps s ON s.revision = \(previous?.revision ?? -1)
            """, logger: logger)
        for try await row in rows.decode((Int64, Int64, Int64?).self) { return row }
        return (0, 0, nil)
    }

    /// Visible stickers of visible groups (of `ids` only, when given), now or at `moment` as `visibleGroups`.
    /// Groups whose stickers one query reads: about 500 stickers at the catalog's usual 50 a group.
    static let groupsPerQuery = 10

    private static func visibleStickers(at moment: Date?, ofGroups ids: [String]) -> PostgresQuery {
        guard let moment else {
            return """
                SELECT \(unescaped: stickerColumns) FROM stickers s JOIN assets a ON a.sha256 = s.asset_sha256
                JOIN sticker_groups g ON g.id = s.group_id WHERE g.published AND s.visible AND s.group_id = ANY(\(ids))
                ORDER BY s.position, s.created_at, s.id
                """
        }
        return """
            SELECT \(unescaped: stickerColumns) FROM stickers s JOIN assets a ON a.sha256 = s.asset_sha256
            JOIN sticker_groups g ON g.id = s.group_id
            WHERE g.listed AND in_schedule(g.publish_at, g.unpublish_at, \(moment)) AND in_schedule(s.publish_at, s.unpublish_at, \(moment))
              AND s.group_id = ANY(\(ids))
            ORDER BY s.position, s.created_at, s.id
            """
    }

    /// An image's bytes, from a standby when it has them (one that lacks them yet, or fails, passes to the primary).
    package func assetBytes(sha256: String) async throws -> [UInt8]? {
        if let replicas, let standby = replicas.next() {
            do {
                if let bytes = try await assetBytes(sha256: sha256, on: standby) {
                    replicas.count("asset", .used)
                    return bytes
                }
                replicas.count("asset", .missing)
            } catch {
                replicas.count("asset", .failed)
            }
        }
        return try await assetBytes(sha256: sha256, on: pool)
    }

    /// Which of `sha256s` are stored, in one query on the primary (a standby may lack the newest).
    package func storedAssets(among sha256s: [String]) async throws -> Set<String> {
        guard !sha256s.isEmpty else { return [] }
        return try await read(on: pool) { connection in
            var found = Set<String>()
            for try await sha256 in try await connection.query(
                "SELECT sha256 FROM assets WHERE sha256 = ANY(\(sha256s))", logger: logger
            ).decode(String.self) {
                found.insert(sha256)
            }
            return found
        }
    }

    private func assetBytes(sha256: String, on pool: DatabasePool) async throws -> [UInt8]? {
        try await read(on: pool) { connection in
            try await connection.first(
                "SELECT bytes FROM assets WHERE sha256 = \(sha256)", as: ByteBuffer.self, logger: logger
            )
            .map { Array(buffer: $0) }
        }
    }
}
