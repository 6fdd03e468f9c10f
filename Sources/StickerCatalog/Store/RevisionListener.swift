import Logging
import PostgresNIO
import ServiceLifecycle

/// Keeps this replica's catalog revision current: LISTEN for other replicas' commits, reconnecting within a second.
struct RevisionListener: Service {
    let client: PostgresClient
    let revision: CatalogRevision
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await listen()
                } catch {
                    guard !Task.isCancelled else { return }
                    logger.warning("Revision listener lost its connection; retrying", metadata: ["error": "\(String(reflecting: error))"])
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    private func listen() async throws {
        try await client.withConnection { connection in
            try await connection.listen(on: "catalog_revision") { notifications in
                // Catch up on whatever was committed while no LISTEN was in place (before the first
                // migration there is nothing to catch up on, and the query fails harmlessly).
                if let rows = try? await connection.query("SELECT revision FROM catalog_revision", logger: logger) {
                    for try await current in rows.decode(Int64.self) { revision.advance(to: current) }
                }
                for try await notification in notifications {
                    if let next = Int64(notification.payload) { revision.advance(to: next) }
                }
            }
        }
    }
}
