import Foundation
import Logging
import PostgresNIO

/// The catalog in PostgreSQL: every repository protocol, in raw SQL with bound parameters.
public struct PostgresCatalog: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Told the new revision after every committed write, so this replica sees its own changes at once.
    let revision: CatalogRevision

    public init(client: PostgresClient, revision: CatalogRevision, logger: Logger) {
        self.client = client
        self.revision = revision
        self.logger = logger
    }

    /// Runs `body` in a transaction that `begin` opens, rolling back on any error and rethrowing it unchanged.
    func transaction<T: Sendable>(_ begin: PostgresQuery = "BEGIN", _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withConnection { connection in
                try await connection.inTransaction(begin, logger: logger) { try await body(connection) }
            }
        } catch {
            throw Self.problem(for: error) ?? error
        }
    }

    /// A write transaction: afterwards the in-memory revision moves to what the write produced.
    func write<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let (value, newRevision) = try await transaction { connection in
            let value = try await body(connection)
            let rows = try await connection.query("SELECT revision FROM catalog_revision", logger: logger)
            let newRevision = try await rows.decode(Int64.self).first { _ in true } ?? 0
            return (value, newRevision)
        }
        revision.advance(to: newRevision)
        return value
    }

    /// Maps constraint violations that validation could not foresee (races between admins) to problems.
    static func problem(for error: any Error) -> Problem? {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return nil }
        let detail = error.serverInfo?[.detail] ?? error.serverInfo?[.message] ?? "constraint violated"
        switch state {
        case "23505": return .conflict(detail)
        case "23503", "23514", "22001": return .validationFailed("request", detail)
        default: return nil
        }
    }

    /// JSON text for a jsonb column.
    static func json(_ value: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A jsonb column read as text.
    static func dictionary(_ text: String) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]) ?? [:]
    }
}
