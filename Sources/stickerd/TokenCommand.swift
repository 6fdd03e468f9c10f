import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation

struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage admin API tokens, or print a user token to try the client API with.",
        subcommands: [Create.self, User.self])

    struct User: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Print an HS256 user token (a JWT signed with STICKER_USER_JWT_SECRET) for trying the client API.",
            discussion: """
                Use it as 'Authorization: Bearer TOKEN' on /v1/manifest, /v1/me/... and /v1/purchases/...; the user id is \
                its sub, and its iss and aud are STICKER_USER_JWT_ISSUER and STICKER_USER_JWT_AUDIENCE when set. Real \
                deployments get user tokens from their own sign-in service, signed with the same secret or an ES256 key \
                listed in STICKER_USER_JWT_PUBLIC_KEYS.
                """)

        @Argument(help: "The user id (the token's sub).")
        var user: String

        @Option(help: "Seconds the token is valid.")
        var lifetime = 3600

        func validate() throws {
            guard (1...255).contains(user.count) else {
                throw ValidationError("the user id must be 1 to 255 characters")
            }
            guard lifetime >= 1 else { throw ValidationError("--lifetime must be at least 1") }
        }

        func run() async throws {
            guard let secret = ProcessInfo.processInfo.environment["STICKER_USER_JWT_SECRET"], secret.count >= 32 else {
                throw ValidationError("set STICKER_USER_JWT_SECRET (at least 32 characters), as for `stickerd serve`")
            }
            let environment = ProcessInfo.processInfo.environment
            print(
                try await UserTokens.sign(
                    user: user, secret: secret, lifetime: TimeInterval(lifetime),
                    issuer: environment["STICKER_USER_JWT_ISSUER"].flatMap { $0.isEmpty ? nil : $0 },
                    audience: environment["STICKER_USER_JWT_AUDIENCE"].flatMap { $0.isEmpty ? nil : $0 }))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an admin token and print it once; only its SHA-256 is stored.",
            discussion:
                "Use it as 'Authorization: Bearer TOKEN' on /v1/admin routes. The database is migrated first if needed."
        )

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
