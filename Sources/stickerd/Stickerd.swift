import ArgumentParser
import CatalogStore
import Foundation

@main
struct Stickerd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stickerd",
        abstract: "StickerCatalog: dynamic sticker catalogs for iMessage, Android and web chat apps.",
        discussion: """
            Without DATABASE_URL, stickerd keeps its own PostgreSQL cluster under --data-dir (needs the postgresql \
            package). Environment: DATABASE_URL, STICKER_ADMIN_TOKEN, STICKER_PUBLIC_BASE_URL, LOG_LEVEL.
            """,
        version: version,
        subcommands: [
            Serve.self, Migrate.self, Token.self, Validate.self, RenditionsCommand.self, Garbage.self,
            ExportCommand.self, DemoArtCommand.self,
        ],
        defaultSubcommand: Serve.self
    )

    /// What `--version` prints: the database schema this binary migrates to (the project makes no numbered
    /// releases; the schema is what an operator must match across replicas).
    static let version: String = {
        let last = Migration.bundled.last
        return "stickerd, database schema \(String(format: "%04d", last?.version ?? 0)) (\(last?.name ?? "none"))"
    }()

    /// Parses and runs, after one check ArgumentParser cannot make: `serve` is the default command, so a mistyped
    /// command (`stickerd srve`) would be read as an argument of `serve` ("Unexpected argument 'srve'").
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, let refusal = unknownCommand(first) {
            FileHandle.standardError.write(Data((refusal + "\n").utf8))
            Foundation.exit(64)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// A refusal naming the commands when `word` is neither one nor an option.
    static func unknownCommand(_ word: String) -> String? {
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !word.hasPrefix("-"), !names.contains(word) else { return nil }
        return "Error: '\(word)' is not a stickerd command. Commands: \(names.dropLast().joined(separator: ", ")) "
            + "('stickerd help <command>' for one's options)."
    }
}

/// A failure of a command that its message explains; ArgumentParser prints it and exits 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
