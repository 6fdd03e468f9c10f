import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation
import Logging

/// Options every command that touches the database shares.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "Folder of the embedded PostgreSQL cluster, used when DATABASE_URL is not set.")
    var dataDir = ".stickerd"

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical (env LOG_LEVEL).")
    var logLevel: String = ProcessInfo.processInfo.environment["LOG_LEVEL"] ?? "info"

    @Option(help: "Log format: text (key=value fields) or json (one object a line, the same fields) (env LOG_FORMAT).")
    var logFormat: String = ProcessInfo.processInfo.environment["LOG_FORMAT"] ?? "text"

    /// A logger at the chosen level and format; bootstraps swift-log once per process.
    func logger(_ label: String) throws -> Logger {
        let (level, format) = (try level(), try format())
        LoggingSystem.bootstrap { label in ConsoleLogHandler(label: label, level: level, format: format) }
        return Logger(label: label)
    }

    func level() throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
            throw ValidationError(
                "--log-level must be one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return level
    }

    func format() throws -> LogFormat {
        guard let format = LogFormat(rawValue: logFormat.lowercased()) else {
            throw ValidationError(
                "--log-format must be one of: \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }

    /// `DATABASE_READ_URL`: comma-separated URLs of hot standbys of DATABASE_URL's primary, for the big reads.
    func readEndpoints() throws -> [DatabaseEndpoint] {
        let urls = (ProcessInfo.processInfo.environment["DATABASE_READ_URL"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard urls.isEmpty || ProcessInfo.processInfo.environment["DATABASE_URL"]?.isEmpty == false else {
            throw ValidationError("DATABASE_READ_URL names standbys of DATABASE_URL's primary: set DATABASE_URL too")
        }
        return try urls.map { try DatabaseEndpoint.parse($0) }
    }

    func open(logger: Logger) throws -> Database {
        let database = try Database.open(
            databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"],
            dataDirectory: dataDir, logger: logger)
        logger.info("Using \(database.description)")
        return database
    }

    /// Runs `body` with a running pool, then stops the pool and any embedded cluster this process owns.
    func withPool<T: Sendable>(logger: Logger, _ body: @Sendable (DatabasePool) async throws -> T) async throws -> T {
        let database = try open(logger: logger)
        defer { database.embedded?.stop() }
        // A command waits for a connection as long as a person would (10 s), not the 1 s a request gets: on a busy
        // machine connecting can take seconds, and failing a `token create` for it helps nobody. Nor does a statement
        // limit meant for requests: `gc` or `rebuild` on a large catalog may run long, and an operator can interrupt
        // them.
        return try await withRunning(
            DatabasePool(
                endpoint: database.endpoint, logger: logger, acquireTimeout: .seconds(10),
                statementTimeout: nil), body)
    }
}
