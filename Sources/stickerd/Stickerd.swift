import ArgumentParser

@main
struct Stickerd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stickerd",
        abstract: "StickerCatalog: dynamic sticker catalogs for iMessage, Android and web chat apps.",
        discussion: """
            Without DATABASE_URL, stickerd keeps its own PostgreSQL cluster under --data-dir (needs the postgresql \
            package). Environment: DATABASE_URL, STICKER_ADMIN_TOKEN, STICKER_PUBLIC_BASE_URL, LOG_LEVEL.
            """,
        subcommands: [
            Serve.self, Migrate.self, Token.self, Validate.self, RenditionsCommand.self, Garbage.self,
            ExportCommand.self, DemoArtCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}
