import ArgumentParser
import StickerCatalog

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending database migrations and exit.",
        discussion: "Safe to run while other replicas start: migrations are applied under an advisory lock.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let logger = try database.logger("stickerd.migrate")
        let applied = try await database.withClient(logger: logger) { client in
            try await Migrator().migrate(client, logger: logger).map { "\($0.version) \($0.name)" }
        }
        print(applied.isEmpty ? "Database is up to date." : "Applied: " + applied.joined(separator: ", "))
    }
}

struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage admin API tokens.",
        subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an admin token and print it once; only its SHA-256 is stored.",
            discussion: "Use it as 'Authorization: Bearer TOKEN' on /v1/admin routes.")

        @Option(help: "Who or what the token is for; it appears in logs of admin requests.")
        var name: String

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard !name.isEmpty, name.count <= 100 else { throw ValidationError("--name must be 1 to 100 characters") }
        }

        func run() async throws {
            let logger = try database.logger("stickerd.token")
            let (token, digest) = makeAdminToken()
            try await database.withClient(logger: logger) { [name] client in
                try await Migrator().migrate(client, logger: logger)
                let catalog = PostgresCatalog(client: client, revision: CatalogRevision(), logger: logger)
                try await catalog.createAdminToken(name: name, digest: digest)
            }
            print(token)
        }
    }
}
