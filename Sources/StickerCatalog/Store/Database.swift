import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// Where the catalog lives: the server `DATABASE_URL` names, or else an embedded cluster under the data folder.
public struct Database: Sendable {
    public let configuration: PostgresClient.Configuration
    /// The embedded cluster, when one is in use; stop it on shutdown.
    public let embedded: EmbeddedPostgres?
    /// Where the database is, without credentials, for logs.
    public let description: String

    /// Uses `databaseURL` when given, else starts (or joins) the embedded cluster in `dataDirectory`.
    public static func open(databaseURL: String?, dataDirectory: String, logger: Logger) throws -> Database {
        if let databaseURL, !databaseURL.isEmpty {
            let (configuration, description) = try parse(databaseURL)
            return Database(configuration: configuration, embedded: nil, description: description)
        }
        let embedded = EmbeddedPostgres(directory: dataDirectory, logger: logger)
        return Database(configuration: try embedded.start(), embedded: embedded,
                        description: "embedded PostgreSQL in \(embedded.directory.path)")
    }

    /// Parses `postgres://user:password@host:port/database?sslmode=...`; `?host=/dir` selects a Unix socket folder.
    public static func parse(_ url: String) throws -> (PostgresClient.Configuration, String) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme) else {
            throw DatabaseURLError(reason: "it must look like postgres://user:password@host:5432/database")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        let user = components.percentEncodedUser?.removingPercentEncoding ?? "postgres"
        let password = components.percentEncodedPassword?.removingPercentEncoding
        let database = String(components.path.dropFirst()).removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        if let socketFolder = query["host"], socketFolder.hasPrefix("/") {
            let port = components.port ?? 5432
            return (PostgresClient.Configuration(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user,
                                                 password: password, database: database),
                    "\(socketFolder) (socket), database \(database ?? user)")
        }
        guard let host = components.host, !host.isEmpty else { throw DatabaseURLError(reason: "it names no host") }
        let tls: PostgresClient.Configuration.TLS = switch query["sslmode"] ?? "prefer" {
        case "disable": .disable
        case "require", "verify-ca", "verify-full": .require(TLSConfiguration.postgres(verify: query["sslmode"] != "require"))
        default: .prefer(TLSConfiguration.postgres(verify: false))
        }
        let configuration = PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                         password: password, database: database, tls: tls)
        return (configuration, "\(host):\(components.port ?? 5432), database \(database ?? user)")
    }
}

public struct DatabaseURLError: Error, CustomStringConvertible {
    let reason: String
    public var description: String { "DATABASE_URL is not usable: \(reason)." }
}

extension TLSConfiguration {
    /// Client TLS; `verify` checks the server's certificate against the system's roots.
    static func postgres(verify: Bool) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !verify { tls.certificateVerification = .none }
        return tls
    }
}

/// Runs `body` while `client` runs, then shuts the client down: for commands and tests that are not a server.
public func withRunning<T: Sendable>(_ client: PostgresClient, _ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        return try await body(client)
    }
}
