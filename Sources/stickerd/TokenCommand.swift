import ArgumentParser
import StickerCatalog

struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage admin API tokens.",
        subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an admin token and print it once; only its SHA-256 is stored.",
            discussion: "Use it as 'Authorization: Bearer TOKEN' on /v1/admin routes. The database is migrated first if needed.")

        @Option(help: "Who or what the token is for; it appears in logs of admin requests.")
        var name: String

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard !name.isEmpty, name.count <= 100 else { throw ValidationError("--name must be 1 to 100 characters") }
        }

        func run() async throws {
            let logger = try database.logger("stickerd.token")
            let (token, digest) = makeAdminToken()
            try await database.withPool(logger: logger) { [name] pool in
                try await Migrator().migrate(pool, logger: logger)
                let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger)
                try await catalog.createAdminToken(name: name, digest: digest)
            }
            logger.info("Created admin token", metadata: ["name": "\(name)"])
            print(token)
        }
    }
}
