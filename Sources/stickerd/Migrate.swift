import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending database migrations and exit.",
        discussion: "Safe to run while other replicas start: migrations are applied under an advisory lock.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let logger = try database.logger("stickerd.migrate")
        let applied = try await database.withPool(logger: logger) { pool in
            try await Migrator().migrate(pool, logger: logger).map { "\($0.version) \($0.name)" }
        }
        print(applied.isEmpty ? "Database is up to date." : "Applied: " + applied.joined(separator: ", "))
    }
}
