import Foundation
import PostgresNIO

extension PostgresCatalog: CatalogReader, FilterRepository, AdminTokenRepository {
    /// Reads the visible catalog in one repeatable-read transaction, so the revision matches the rows.
    public func snapshot() async throws -> CatalogSnapshot {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            let revision = try await connection.query("SELECT revision FROM catalog_revision", logger: logger)
                .decode(Int64.self).first { _ in true } ?? 0
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
        let rows = try await client.query("SELECT bytes FROM assets WHERE sha256 = \(sha256)", logger: logger)
        for try await bytes in rows.decode(ByteBuffer.self) { return Array(buffer: bytes) }
        return nil
    }

    public func putFilter(_ filter: StickerFilter) async throws -> Bool {
        try await write { connection in
            let rows = try await connection.query("""
                INSERT INTO filters (name, title, required_flags) VALUES (\(filter.name), \(filter.title), \(filter.flags))
                ON CONFLICT (name) DO UPDATE SET title = EXCLUDED.title, required_flags = EXCLUDED.required_flags, updated_at = now()
                RETURNING (xmax = 0)
                """, logger: logger)
            return try await rows.decode(Bool.self).first { _ in true } ?? false
        }
    }

    public func deleteFilter(name: String) async throws -> Bool {
        try await write { connection in
            let rows = try await connection.query("DELETE FROM filters WHERE name = \(name) RETURNING name", logger: logger)
            return try await rows.decode(String.self).first { _ in true } != nil
        }
    }

    public func adminTokenName(digest: [UInt8]) async throws -> String? {
        let rows = try await client.query("SELECT name FROM admin_tokens WHERE token_sha256 = \(ByteBuffer(bytes: digest))", logger: logger)
        for try await name in rows.decode(String.self) { return name }
        return nil
    }

    public func createAdminToken(name: String, digest: [UInt8]) async throws {
        try await client.query("INSERT INTO admin_tokens (name, token_sha256) VALUES (\(name), \(ByteBuffer(bytes: digest)))", logger: logger)
    }
}
