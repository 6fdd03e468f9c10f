import CatalogCore
import Foundation
import PostgresNIO
import StickerImage

/// What `stickerd renditions rebuild` and `stickerd gc` do to the stored images.
extension PostgresMaintenance {
    /// How many images stickers show have renditions older than `version` (or none).
    package func countImagesNeedingRenditions(version: Int) async throws -> Int {
        try await read { connection in
            try await connection.count(
                """
                SELECT count(*) FROM assets a WHERE a.renditions_version < \(version)
                  AND EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
                """, logger: logger)
        }
    }

    /// The next `limit` such images after digest `after`, in digest order: a batch that survives a restart, since
    /// an image rebuilt has the current version and is not listed again.
    package func imagesNeedingRenditions(
        version: Int, after: String, limit: Int
    ) async throws -> [(sha256: String, bytes: [UInt8])] {
        try await read { connection in
            var images: [(String, [UInt8])] = []
            let rows = try await connection.query(
                """
                SELECT a.sha256, a.bytes FROM assets a WHERE a.renditions_version < \(version) AND a.sha256 > \(after)
                  AND EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
                ORDER BY a.sha256 LIMIT \(limit)
                """, logger: logger)
            for try await (sha, bytes) in rows.decode((String, ByteBuffer).self) {
                images.append((sha, Array(buffer: bytes)))
            }
            return images
        }
    }

    /// Replaces the renditions of image `source`, in one transaction.
    package func replaceRenditions(source: String, _ renditions: [Rendition]) async throws {
        try await write { try await storeRenditions($0, source: source, renditions) }
    }

    /// Deletes up to `limit` images (originals and renditions) that no sticker has shown for `grace` and no kept
    /// release shows (`pruneReleases` first): one batch, in a transaction of its own. Images in use by a transaction
    /// (an upload bringing one back) are skipped.
    package func collectGarbage(unusedFor grace: Duration, limit: Int) async throws -> (images: Int, bytes: Int) {
        let seconds = Double(grace.components.seconds)
        return try await write { connection in
            var (images, bytes) = (0, 0)
            let rows = try await connection.query(
                """
                WITH doomed AS (
                    SELECT a.sha256 FROM assets a
                    WHERE a.unreferenced_since < now() - make_interval(secs => \(seconds))
                      AND NOT EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
                      AND NOT EXISTS (SELECT 1 FROM renditions r JOIN stickers s ON s.asset_sha256 = r.source_sha256
                                      WHERE r.asset_sha256 = a.sha256)
                      AND NOT EXISTS (SELECT 1 FROM stickers_history h WHERE h.asset_sha256 = a.sha256)
                      AND NOT EXISTS (SELECT 1 FROM renditions r JOIN stickers_history h ON h.asset_sha256 = r.source_sha256
                                      WHERE r.asset_sha256 = a.sha256)
                    ORDER BY a.unreferenced_since LIMIT \(limit)
                    FOR UPDATE OF a SKIP LOCKED)
                DELETE FROM assets a USING doomed d WHERE a.sha256 = d.sha256 RETURNING octet_length(a.bytes)
                """, logger: logger)
            for try await size in rows.decode(Int.self) { (images, bytes) = (images + 1, bytes + size) }
            return (images, bytes)
        }
    }
}

/// What `PlaceholderFill` does: the placeholder colours of images stored before uploads made them (sql/0020).
extension PostgresMaintenance {
    /// The next `limit` images a sticker shows that have no placeholder, after digest `after`, in digest order.
    package func imagesNeedingPlaceholders(
        after: String, limit: Int
    ) async throws -> [(sha256: String, bytes: [UInt8])] {
        try await read { connection in
            var images: [(String, [UInt8])] = []
            let rows = try await connection.query(
                """
                SELECT a.sha256, a.bytes FROM assets a WHERE a.placeholder IS NULL AND a.sha256 > \(after)
                  AND EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
                ORDER BY a.sha256 LIMIT \(limit)
                """, logger: logger)
            for try await (sha, bytes) in rows.decode((String, ByteBuffer).self) {
                images.append((sha, Array(buffer: bytes)))
            }
            return images
        }
    }

    /// Sets the colours of images that have none, in one transaction (one release, `placeholders`, when clients see
    /// any of them); returns how many it set.
    package func fillPlaceholders(_ colours: [(sha256: String, colour: String)]) async throws -> Int {
        guard !colours.isEmpty else { return 0 }
        let (digests, values) = (colours.map(\.sha256), colours.map(\.colour))
        return try await ReleaseAuthor.$name.withValue("placeholders") {
            try await write { connection in
                try await connection.count("SELECT fill_placeholders(\(digests), \(values))", logger: logger)
            }
        }
    }
}
