import CatalogCore
import Foundation
import PostgresNIO

extension PostgresUsage {
    /// One page of `query`'s rows with their counts per day, in one statement: the counts of the period summed per
    /// sticker (or group) and day, the totals ordered and paged, then each paged row's days. Names are today's; a
    /// sticker's group is the one it was last counted in.
    package func stats(_ query: UsageStatsQuery) async throws -> UsageStats {
        let (start, end) = (query.from.start, query.to.advanced(by: 1).start)
        let subject: PostgresQuery =
            query.subject == .stickers
            ? """
            WITH counted AS (
                SELECT sticker_id::text AS id, floor(extract(epoch FROM hour) / 86400)::bigint AS day,
                    sum(count)::bigint AS n
                FROM sticker_usage
                WHERE action = \(query.action.rawValue) AND hour >= \(start) AND hour < \(end)
                    AND (\(query.group)::text IS NULL OR group_id = \(query.group))
                    AND (\(query.sticker)::uuid IS NULL OR sticker_id = \(query.sticker))
                GROUP BY 1, 2
            ), named AS (
                SELECT c.id, sum(c.n)::bigint AS total, min(s.name) AS name,
                    (SELECT u.group_id FROM sticker_usage u WHERE u.sticker_id = c.id::uuid
                     ORDER BY u.hour DESC LIMIT 1) AS grp
                FROM counted c LEFT JOIN stickers s ON s.id = c.id::uuid GROUP BY c.id
            )
            """
            : """
            WITH counted AS (
                SELECT group_id AS id, floor(extract(epoch FROM hour) / 86400)::bigint AS day, sum(count)::bigint AS n
                FROM sticker_usage
                WHERE action = \(query.action.rawValue) AND hour >= \(start) AND hour < \(end)
                    AND (\(query.group)::text IS NULL OR group_id = \(query.group))
                GROUP BY 1, 2
            ), named AS (
                SELECT c.id, sum(c.n)::bigint AS total, min(g.name) AS name, NULL::text AS grp
                FROM counted c LEFT JOIN sticker_groups g ON g.id = c.id GROUP BY c.id
            )
            """
        var sql = subject
        sql.sql += """
             , page AS (
                SELECT *, count(*) OVER ()::bigint AS rows FROM named
                ORDER BY \(Self.order(query.order)), id LIMIT \(query.limit) OFFSET \(query.offset)
            )
            SELECT p.id, p.name, p.grp, p.total, p.rows, c.day, c.n
            FROM page p JOIN counted c ON c.id = p.id
            ORDER BY \(Self.order(query.order, prefix: "p.")), p.id, c.day
            """
        let sqlQuery = sql
        return try await read(on: replicas?.next()) { connection in
            let rows = try await connection.query(sqlQuery, logger: logger)
            var result = UsageStats(query: query, total: 0, rows: [])
            let (first, days) = (query.from.number, query.days.count)
            for try await (id, name, group, total, count, day, n) in rows.decode(
                (String, String?, String?, Int64, Int64, Int64, Int64).self)
            {
                result.total = Int(count)
                if result.rows.last?.id != id {
                    result.rows.append(
                        .init(id: id, name: name, group: group, total: total, counts: .init(repeating: 0, count: days)))
                }
                let place = Int(day) - first
                if (0..<days).contains(place) { result.rows[result.rows.count - 1].counts[place] = n }
            }
            return result
        }
    }

    /// The SQL of an order: one of four fixed strings, never a client's text.
    private static func order(_ order: UsageStatsQuery.Order, prefix: String = "") -> String {
        switch order {
        case .totalDescending: "\(prefix)total DESC"
        case .total: "\(prefix)total"
        case .name: "\(prefix)name NULLS LAST"
        case .nameDescending: "\(prefix)name DESC NULLS LAST"
        }
    }
}
