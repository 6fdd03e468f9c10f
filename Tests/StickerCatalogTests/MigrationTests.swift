import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import PostgresNIO
import StickerImage
import Testing

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
            try await client.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, 'future', 'x')")
            await #expect(throws: MigrationError.unknownVersion(9999)) {
                try await Migrator().migrate(client, logger: TestDatabase.logger)
            }
        }
    }
}

@Suite("Loading the demo catalog")
struct DemoLoadTests {
    @Test(
        "Replicas loading the demo at once load it once; a failure part-way leaves nothing, and the next start completes it"
    )
    func oneTransaction() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        try await TestDatabase.withPool(endpoint) { pool in
            let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: TestDatabase.logger)
            var broken = try await DemoCatalog.seed(validator: StickerValidator())
            // The fifth sticker breaks a rule only the database checks: everything before it must go too.
            broken.groups[1].items[1].draft.description = String(repeating: "d", count: 151)
            await #expect(throws: CatalogError.self) { _ = try await catalog.loadIfEmpty(broken) }
            #expect(try await pool.count("SELECT count(*) FROM sticker_groups") == 0)
            #expect(try await pool.count("SELECT count(*) FROM assets") == 0)

            let seed = try await DemoCatalog.seed(validator: StickerValidator())
            let loaded = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { try await catalog.loadIfEmpty(seed) } }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(loaded.filter { $0 }.count == 1)
            #expect(try await pool.count("SELECT count(*) FROM sticker_groups") == 3)
            #expect(try await pool.count("SELECT count(*) FROM stickers") == 9)
            #expect(try await pool.count("SELECT count(*) FROM filters") == 1)
        }
    }
}
