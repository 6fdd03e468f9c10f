import Foundation
import PostgresNIO

extension PostgresCatalog: CatalogReader {
    /// Reads the visible catalog in one repeatable-read transaction, so the revision matches the rows.
    public func snapshot() async throws -> CatalogSnapshot {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            let revision = try await connection.first("SELECT revision FROM catalog_revision", as: Int64.self, logger: logger) ?? 0
            var groups: [StickerGroup] = []
            for try await row in try await connection.query("""
                SELECT \(unescaped: Self.groupColumns) FROM sticker_groups g WHERE g.published ORDER BY g.position, g.name, g.id
                """, logger: logger) {
                groups.append(try Self.group(row))
            }
            let stickers = try await fetchStickers(connection, """
                SELECT \(unescaped: Self.stickerColumns) FROM stickers s JOIN assets a ON a.sha256 = s.asset_sha256
                JOIN sticker_groups g ON g.id = s.group_id WHERE g.published ORDER BY s.position, s.created_at, s.id
                """)
            var filters: [String: StickerFilter] = [:]
            for try await (name, title, flags) in try await connection.query(
                "SELECT name, title, required_flags FROM filters", logger: logger).decode((String, String, [String]).self) {
                filters[name] = StickerFilter(name: name, title: title, flags: flags)
            }
            return CatalogSnapshot(revision: revision, groups: groups, stickers: Dictionary(grouping: stickers, by: \.groupId), filters: filters)
        }
    }

    public func assetBytes(sha256: String) async throws -> [UInt8]? {
        try await read { connection in
            try await connection.first("SELECT bytes FROM assets WHERE sha256 = \(sha256)", as: ByteBuffer.self, logger: logger)
                .map { Array(buffer: $0) }
        }
    }
}
