import PostgresNIO
import Testing
@testable import StickerCatalog

@Suite("Migrations")
struct MigrationTests {
    /// Runs `body` on a fresh, empty database.
    func withEmptyDatabase(_ body: @Sendable (DatabasePool) async throws -> Void) async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false, migrated: false)
        do {
            try await TestDatabase.withPool(endpoint, body)
        } catch {
            await drop()
            throw error
        }
        await drop()
    }

    @Test("The binary carries numbered migrations, starting at 1 without gaps")
    func bundled() {
        #expect(Migration.bundled.map(\.version) == Array(1...Migration.bundled.count))
        #expect(Migration.bundled.first?.name == "catalog")
        #expect(Migration.bundled.first?.sql.contains("CREATE TABLE stickers") == true)
    }

    @Test("Two replicas migrating at once apply each migration exactly once")
    func concurrent() async throws {
        try await withEmptyDatabase { client in
            async let first = Migrator().migrate(client, logger: TestDatabase.logger)
            async let second = Migrator().migrate(client, logger: TestDatabase.logger)
            let (a, b) = try await (first, second)
            #expect(a.count + b.count == Migration.bundled.count)
            #expect(try await client.count("SELECT count(*) FROM schema_migrations") == Migration.bundled.count)
            #expect(try await Migrator().migrate(client, logger: TestDatabase.logger).isEmpty)
            #expect(try await Migrator().isCurrent(client, logger: TestDatabase.logger))
        }
    }

    @Test("An applied migration whose file was edited is refused with a clear error")
    func checksumMismatch() async throws {
        try await withEmptyDatabase { client in
            try await Migrator().migrate(client, logger: TestDatabase.logger)
            let original = Migration.bundled[0]
            let edited = Migration(version: original.version, name: original.name, sql: original.sql + "\n-- an edit\n")
            let migrator = Migrator(migrations: [edited] + Migration.bundled.dropFirst())
            await #expect(throws: MigrationError.checksumMismatch(version: 1, name: "catalog")) {
                try await migrator.migrate(client, logger: TestDatabase.logger)
            }
            #expect(MigrationError.checksumMismatch(version: 1, name: "catalog").description.contains("append-only"))
            #expect(try await !migrator.isCurrent(client, logger: TestDatabase.logger))
        }
    }

    @Test("A database migrated by a newer release is refused")
    func newerDatabase() async throws {
        try await withEmptyDatabase { client in
            try await Migrator().migrate(client, logger: TestDatabase.logger)
            try await client.execute("INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, 'future', 'x')")
            await #expect(throws: MigrationError.unknownVersion(9999)) { try await Migrator().migrate(client, logger: TestDatabase.logger) }
        }
    }
}
