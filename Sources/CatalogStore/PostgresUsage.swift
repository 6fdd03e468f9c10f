import CatalogCore
import Foundation
import PostgresNIO

extension PostgresUsage: UsageRepository {
    /// Counts as they are, with no source and no bound: for tests and benchmarks that need stored history (counting
    /// goes through `write`). One upsert sorted by key, so that writers adding to the same buckets at once each wait
    /// for the other instead of deadlocking. Not a catalog write: it raises no revision and takes no schedule lock.
    package func add(_ counts: [UsageCount]) async throws {
        guard !counts.isEmpty else { return }
        let sorted = counts.sorted { $0.key < $1.key }
        let hours = sorted.map { Date(timeIntervalSince1970: Double($0.key.hour) * 3600) }
        let actions = sorted.map(\.key.action.rawValue)
        let stickers = sorted.map(\.key.sticker)
        let groups = sorted.map(\.group)
        let numbers = sorted.map(\.count)
        _ = try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO sticker_usage (hour, action, sticker_id, group_id, count)
                SELECT * FROM unnest(\(hours)::timestamptz[], \(actions)::text[], \(stickers)::uuid[], \(groups)::text[],
                    \(numbers)::bigint[])
                ON CONFLICT (hour, action, sticker_id)
                DO UPDATE SET count = sticker_usage.count + excluded.count, group_id = excluded.group_id
                """, logger: logger)
        }
    }

    /// Each sent sticker's decayed score in both windows, summed by PostgreSQL over the week's lookback (the rule of
    /// `TrendWindow.weight`): one row per sticker comes back, not one per hour. Read on a standby when there is one.
    package func scores() async throws -> StickerScores {
        let (day, week) = (TrendWindow.day, TrendWindow.week)
        return try await read(on: replicas?.next()) { connection in
            let rows = try await connection.query(
                """
                SELECT sticker_id,
                    coalesce(sum(count * power(0.5::float8, age / \(day.halfLifeHours)))
                        FILTER (WHERE hour >= now() - make_interval(hours => \(Int32(day.lookbackHours)))), 0),
                    sum(count * power(0.5::float8, age / \(week.halfLifeHours)))
                FROM (
                    SELECT sticker_id, hour, count,
                        greatest(0, extract(epoch FROM now() - hour)::float8 / 3600 - 0.5) AS age
                    FROM sticker_usage
                    WHERE action = 'sent' AND hour >= now() - make_interval(hours => \(Int32(week.lookbackHours)))
                ) sent
                GROUP BY sticker_id
                """, logger: logger)
            var scores = StickerScores()
            for try await (sticker, dayScore, weekScore) in rows.decode((UUID, Double, Double).self) {
                if dayScore > 0 { scores.day[sticker] = dayScore }
                scores.week[sticker] = weekScore
            }
            return scores
        }
    }

    /// Deletes the buckets of hours that ended more than `age` ago.
    package func pruneUsage(olderThan age: Duration) async throws -> Int {
        let seconds = Double(age.components.seconds)
        return try await read { connection in
            let rows = try await connection.query(
                """
                WITH gone AS (
                    DELETE FROM sticker_usage WHERE hour + interval '1 hour' < now() - make_interval(secs => \(seconds))
                    RETURNING 1
                )
                SELECT count(*)::bigint FROM gone
                """, logger: logger)
            var removed: Int64 = 0
            for try await count in rows.decode(Int64.self) { removed = count }
            return Int(removed)
        }
    }
}
