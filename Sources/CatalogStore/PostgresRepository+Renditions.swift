import CatalogCore
import Foundation
import PostgresNIO
import StickerImage

extension PostgresRepository {
    /// The renditions of the images `sources`, by source digest, read `sourcesPerQuery` sources a query.
    package func fetchRenditions(
        _ connection: PostgresConnection, sources: [String]
    ) async throws -> [String: [StickerRendition]] {
        var found: [String: [StickerRendition]] = [:]
        for start in stride(from: 0, to: sources.count, by: Self.sourcesPerQuery) {
            let some = Array(sources[start..<min(start + Self.sourcesPerQuery, sources.count)])
            let rows = try await connection.query(
                """
                SELECT r.source_sha256, r.edge, r.still, r.format, a.sha256, a.width, a.height, octet_length(a.bytes), a.animated, a.frames,
                       a.duration_ms, a.loops, a.format
                FROM renditions r JOIN assets a ON a.sha256 = r.asset_sha256
                WHERE r.source_sha256 = ANY(\(some)) ORDER BY r.source_sha256, r.format, r.edge, r.still
                """, logger: logger)
            for try await row in rows {
                var cells = PostgresCells(row)
                let source = try cells.next(String.self)
                let rendition = StickerRendition(
                    edge: try cells.next(), still: try cells.next(), format: try Self.format(&cells),
                    asset: try Self.asset(&cells))
                found[source, default: []].append(rendition)
            }
        }
        return found
    }

    /// Sources whose renditions one query reads (a few hundred rows). An answer long enough that PostgresNIO pauses its
    /// row stream (the reader behind the socket) is one a PostgreSQL restart can reset while paused, and PostgresNIO
    /// 1.33 then stops the process on a precondition (`RowStreamStateMachine.channelReadComplete`, as
    /// async-http-client#450 fixed for its own); short answers are read whole before they pause. The soak's restarts
    /// found it.
    static var sourcesPerQuery: Int { 64 }

    /// Stores the renditions of image `source` (their bytes as assets, then their rows), replacing older ones, and
    /// records the version of the code that made them. The source's row is locked first, so that a sticker going away
    /// meanwhile is seen (and the new renditions are dated unused with it), whichever commits first.
    package func storeRenditions(
        _ connection: PostgresConnection, source: String, _ renditions: [Rendition]
    ) async throws {
        try await connection.query("SELECT 1 FROM assets WHERE sha256 = \(source) FOR UPDATE", logger: logger)
        var replaced: [String] = []
        for try await sha in try await connection.query(
            "SELECT asset_sha256 FROM renditions WHERE source_sha256 = \(source)", logger: logger
        ).decode(String.self) {
            replaced.append(sha)
        }
        var made: [String] = []
        for rendition in renditions {
            let sha = sha256Hex(rendition.bytes)
            made.append(sha)
            try await connection.query(
                """
                INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops, format)
                VALUES (\(sha), \(ByteBuffer(bytes: rendition.bytes)), \(rendition.width), \(rendition.height), \(rendition.animated),
                        \(rendition.frames), \(rendition.durationMs), \(rendition.loops), \(rendition.format.rawValue))
                ON CONFLICT (sha256) DO UPDATE SET unreferenced_since = NULL
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO renditions (source_sha256, edge, still, format, asset_sha256)
                VALUES (\(source), \(rendition.edge), \(rendition.still), \(rendition.format.rawValue), \(sha))
                ON CONFLICT (source_sha256, edge, still, format) DO UPDATE SET asset_sha256 = EXCLUDED.asset_sha256
                """, logger: logger)
        }
        try await connection.query(
            "UPDATE assets SET renditions_version = \(Renditions.version) WHERE sha256 = \(source)", logger: logger)
        // Renditions replaced by new ones are garbage from now on, unless something else still shows them; so are new
        // ones of an image no sticker shows any more (a rebuild that finished after its last sticker went away).
        try await connection.query(
            """
            UPDATE assets a SET unreferenced_since = now()
            WHERE a.sha256 = ANY(\(replaced + made)) AND a.unreferenced_since IS NULL
              AND NOT EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
              AND NOT EXISTS (SELECT 1 FROM renditions r JOIN stickers s ON s.asset_sha256 = r.source_sha256 WHERE r.asset_sha256 = a.sha256)
            """, logger: logger)
    }

    /// The rendition version of a stored image, nil when it is not stored: an upload of an image whose renditions
    /// are current does not make them again.
    package func renditionsVersion(sha256: String) async throws -> Int? {
        try await read { connection in
            try await connection.first(
                "SELECT renditions_version FROM assets WHERE sha256 = \(sha256)", as: Int.self, logger: logger)
        }
    }
}
