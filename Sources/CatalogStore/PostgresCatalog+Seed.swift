import CatalogCore
import PostgresNIO
import StickerImage

extension PostgresCatalog: CatalogSeeding {
    /// Stores `seed` if the catalog has no group yet, in one transaction under the migration lock: replicas started
    /// together load it once, and a failure part-way leaves nothing behind. True when this call loaded it.
    /// Its transaction may take longer than a request's statement timeout: hundreds of images and their renditions,
    /// written at start-up, when several replicas on a busy machine may be starting at once.
    package func loadIfEmpty(_ seed: CatalogSeed) async throws -> Bool {
        try await write(timeout: .seconds(120)) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Migrator.lockKey))", logger: logger)
            guard
                try await connection.first(
                    "SELECT NOT EXISTS (SELECT 1 FROM sticker_groups)", as: Bool.self, logger: logger) == true
            else {
                return false
            }
            for group in seed.groups {
                try await insertGroup(connection, group.draft)
                for item in group.items {
                    _ = try await insertSticker(
                        connection, into: group.draft.id, item.draft, image: item.info.storedBytes, info: item.info,
                        renditions: item.renditions)
                }
            }
            for filter in seed.filters { _ = try await upsertFilter(connection, filter) }
            return true
        }
    }
}
