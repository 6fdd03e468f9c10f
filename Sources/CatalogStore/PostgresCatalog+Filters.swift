import CatalogCore
import PostgresNIO

extension PostgresCatalog: FilterRepository {
    package func putFilter(_ filter: StickerFilter, keeping answer: IdempotentWrite<Bool>? = nil) async throws -> Bool {
        try await write(keeping: answer) { try await upsertFilter($0, filter) }
    }

    package func upsertFilter(_ connection: PostgresConnection, _ filter: StickerFilter) async throws -> Bool {
        try await connection.first(
            """
            INSERT INTO filters (name, title, required_flags) VALUES (\(filter.name), \(filter.title), \(filter.flags))
            ON CONFLICT (name) DO UPDATE SET title = EXCLUDED.title, required_flags = EXCLUDED.required_flags, updated_at = now()
            RETURNING (xmax = 0)
            """, as: Bool.self, logger: logger) ?? false
    }

    package func deleteFilter(name: String, keeping answer: IdempotentWrite<Bool>? = nil) async throws -> Bool {
        try await write(keeping: answer) { connection in
            try await connection.first(
                "DELETE FROM filters WHERE name = \(name) RETURNING name", as: String.self, logger: logger) != nil
        }
    }
}
