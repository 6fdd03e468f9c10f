import CatalogCore
import Foundation
import PostgresNIO

extension PostgresUsage {
    /// The advisory lock flushes take turns under ("USGE" in ASCII): each reads what its claims already used and adds
    /// to it, and two replicas doing so at once for a new claim would both find it unused.
    static let flushLock: Int64 = 0x5553_4745

    /// One chunk in one transaction, under the flush lock: its id first (found, the chunk was written before: nothing
    /// more), then the hour's salt, then one statement that grants each use the bound still allows, raises the claims
    /// and adds the granted uses to the hourly counts.
    package func write(_ chunk: UsageChunk, perSourceHour: Int) async throws -> UsageChunkWrite {
        guard !chunk.claims.isEmpty else { return .written(counted: 0) }
        let rows = UsageRows(chunk)
        let (id, cap) = (chunk.id, Int32(clamping: perSourceHour))
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.flushLock))", logger: logger)
            let fresh = try await connection.query(
                """
                WITH gone AS (
                    DELETE FROM usage_flushes WHERE at < now() - interval '1 day'
                ), first AS (
                    INSERT INTO usage_flushes (id) VALUES (\(id)) ON CONFLICT (id) DO NOTHING RETURNING 1
                )
                SELECT count(*)::bigint FROM first
                """, logger: logger
            ).collect().first?.decode(Int64.self)
            guard fresh == 1 else { return .alreadyWritten }
            // Claims and salts of hours past are forgotten first (a separate statement: an insert beside a delete
            // of the same key would still see the old row).
            try await connection.query(
                """
                WITH old_claims AS (DELETE FROM usage_claims WHERE hour < now() - interval '2 hours')
                DELETE FROM usage_salts WHERE hour < now() - interval '2 hours'
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO usage_salts (hour, salt)
                SELECT h, uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())
                FROM (SELECT DISTINCT h FROM unnest(\(rows.arrived)::timestamptz[]) h) arrivals
                ON CONFLICT (hour) DO NOTHING
                """, logger: logger)
            let counted = try await connection.query(
                """
                WITH incoming AS (
                    SELECT i.arrived, i.sticker, i.action, i.grp, i.ordinal, i.hour,
                        substr(sha256(s.salt || convert_to(i.source || ' ' || i.sticker::text || ' ' || i.action, 'UTF8')),
                            1, 12) AS claim
                    FROM unnest(\(rows.arrived)::timestamptz[], \(rows.sources)::text[], \(rows.stickers)::uuid[],
                        \(rows.actions)::text[], \(rows.groups)::text[], \(rows.ordinals)::int[],
                        \(rows.hours)::timestamptz[]) AS i(arrived, source, sticker, action, grp, ordinal, hour)
                    JOIN usage_salts s ON s.hour = i.arrived
                ), granted AS (
                    SELECT i.* FROM incoming i
                    LEFT JOIN usage_claims c ON c.hour = i.arrived AND c.claim = i.claim
                    WHERE i.ordinal <= \(cap) - coalesce(c.used, 0)
                ), claimed AS (
                    INSERT INTO usage_claims (hour, claim, used)
                    SELECT arrived, claim, count(*) FROM granted GROUP BY arrived, claim
                    ON CONFLICT (hour, claim) DO UPDATE SET used = usage_claims.used + excluded.used
                ), counted AS (
                    INSERT INTO sticker_usage (hour, action, sticker_id, group_id, count)
                    SELECT hour, action, sticker, max(grp), count(*) FROM granted GROUP BY hour, action, sticker
                    ON CONFLICT (hour, action, sticker_id)
                    DO UPDATE SET count = sticker_usage.count + excluded.count, group_id = excluded.group_id
                )
                SELECT count(*)::bigint FROM granted
                """, logger: logger
            ).collect().first?.decode(Int64.self)
            return .written(counted: Int(counted ?? 0))
        }
    }
}

/// A chunk's uses as the columns `write` unnests: a row per use, numbered from 1 within its claim.
private struct UsageRows {
    var arrived: [Date] = [], sources: [String] = [], stickers: [UUID] = [], actions: [String] = []
    var groups: [String] = [], ordinals: [Int32] = [], hours: [Date] = []

    init(_ chunk: UsageChunk) {
        func date(_ hour: Int64) -> Date { Date(timeIntervalSince1970: Double(hour) * 3600) }
        for claim in chunk.claims {
            for (index, hour) in claim.hours.enumerated() {
                arrived.append(date(claim.key.arrived))
                sources.append(claim.key.source)
                stickers.append(claim.key.sticker)
                actions.append(claim.key.action.rawValue)
                groups.append(claim.group)
                ordinals.append(Int32(index + 1))
                hours.append(date(hour))
            }
        }
    }
}
