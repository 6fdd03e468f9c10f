import CatalogCore
import Foundation
import Logging
import PostgresNIO

extension PostgresCatalog {
    /// The visible groups in order, with their stickers' `content_version` and their rows' versions (`xmin`: a new
    /// one with every change to the row, the same on a standby). Now, with `previous`: the order and versions first
    /// (three columns), then the whole rows of the groups whose row changed since `previous`, the others taken from
    /// it (both statements in the caller's repeatable-read transaction, so they see one state). At 2,000 groups,
    /// decoding every row (two JSON texts each) took most of a read after a one-sticker change. At `moment`, or
    /// without `previous`: every row.
    static func groups(
        _ connection: PostgresConnection, at moment: Date?, previous: CatalogSnapshot?, logger: Logger
    ) async throws -> (groups: [StickerGroup], contentVersions: [String: Int64], rowVersions: [String: String]) {
        var (groups, versions, rows) = ([StickerGroup](), [String: Int64](), [String: String]())
        guard moment == nil, let previous, !previous.rowVersions.isEmpty else {
            for try await row in try await connection.query(visibleGroups(at: moment), logger: logger) {
                let cells = row.makeRandomAccess()
                var group = try Self.group(row)
                // Positions among the visible groups: stored ones count drafts and scheduled groups, whose gaps would
                // tell a client that something hidden sits there.
                group.position = groups.count
                groups.append(group)
                versions[group.id] = try cells[groupColumnCount].decode(Int64.self)
                rows[group.id] = try cells[groupColumnCount + 1].decode(String.self)
            }
            return (groups, versions, moment == nil ? rows : [:])
        }
        var order: [String] = []
        for try await (id, row, content) in try await connection.query(
            """
            SELECT g.id, g.xmin::text, g.content_version FROM sticker_groups g WHERE g.published
            ORDER BY g.position, g.name, g.id
            """, logger: logger
        ).decode((String, String, Int64).self) {
            order.append(id)
            (rows[id], versions[id]) = (row, content)
        }
        let stale = order.filter { previous.rowVersions[$0] != rows[$0] || previous.group(id: $0) == nil }
        var read: [String: StickerGroup] = [:]
        if !stale.isEmpty {
            for try await row in try await connection.query(
                "SELECT \(unescaped: groupColumns), g.xmin::text FROM sticker_groups g WHERE g.id = ANY(\(stale))",
                logger: logger)
            {
                let group = try Self.group(row)
                read[group.id] = group
                rows[group.id] = try row.makeRandomAccess()[groupColumnCount].decode(String.self)
            }
        }
        for id in order {
            guard var group = read[id] ?? previous.group(id: id) else { continue }
            group.position = groups.count
            groups.append(group)
        }
        return (groups, versions, rows)
    }

    /// Visible groups with their `content_version` and `xmin`: now, as the schedule last applied made them
    /// (`published`), or at `moment`, as the admin's choices and the schedules say.
    static func visibleGroups(at moment: Date?) -> PostgresQuery {
        guard let moment else {
            return """
                SELECT \(unescaped: groupColumns), g.content_version, g.xmin::text FROM sticker_groups g WHERE g.published
                ORDER BY g.position, g.name, g.id
                """
        }
        return """
            SELECT \(unescaped: groupColumns), g.content_version, g.xmin::text FROM sticker_groups g
            WHERE g.listed AND in_schedule(g.publish_at, g.unpublish_at, \(moment)) ORDER BY g.position, g.name, g.id
            """
    }
}
