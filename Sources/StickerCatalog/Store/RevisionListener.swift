import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Keeps this replica's catalog revision current. It LISTENs on a connection of its own (TCP keepalive on) and, on
/// that same connection, reads the stored revision every `pollInterval` with a deadline of `pollTimeout`: lost
/// notifications are caught up within `pollInterval`, and a connection that stopped answering (half-open) is closed
/// and replaced. So a replica that can reach PostgreSQL serves a manifest at most about 5 s behind
/// (poll interval + deadline + reconnect delay), usually at once.
final class RevisionListener: Service, Sendable {
    let endpoint: DatabaseEndpoint
    let revision: CatalogRevision
    let logger: Logger
    let pollInterval: Duration
    let pollTimeout: Duration
    let reconnectDelay = Duration.milliseconds(500)
    /// Told whose entitlements changed (NOTIFY on `entitlements`), and that everyone's may have after a reconnection.
    let entitlementChanges: EntitlementChanges?
    /// When the stored revision was last read, for `/readyz`.
    private let lastContact = Mutex<ContinuousClock.Instant?>(nil)
    /// A stored revision read below the one known, waiting for the next poll to confirm it (one read could be a poll
    /// that started before a commit whose NOTIFY came first).
    private let behind = Mutex<Int64?>(nil)

    init(endpoint: DatabaseEndpoint, revision: CatalogRevision, logger: Logger, entitlementChanges: EntitlementChanges? = nil,
         pollInterval: Duration = .seconds(2), pollTimeout: Duration = .seconds(2)) {
        (self.endpoint, self.revision, self.logger, self.entitlementChanges) = (endpoint, revision, logger, entitlementChanges)
        (self.pollInterval, self.pollTimeout) = (pollInterval, pollTimeout)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                do {
                    try await listenAndPoll()
                } catch {
                    guard !Task.isCancelled else { return }
                    logger.warning("Revision listener lost its connection; reconnecting", metadata: ["error": "\(String(reflecting: error))"])
                    try? await Task.sleep(for: reconnectDelay)
                }
            }
        }
    }

    /// True when the stored revision was read within the last few poll intervals.
    var isCurrent: Bool {
        lastContact.withLock { $0.map { .now - $0 < pollInterval * 3 + pollTimeout } ?? false }
    }

    private func listenAndPoll() async throws {
        let connection = try await endpoint.connect(applicationName: "stickerd revision listener", logger: logger)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { [self] in
                    try await connection.listen(on: "catalog_revision") { notifications in
                        for try await notification in notifications {
                            if let next = Int64(notification.payload) { revision.advance(to: next) }
                        }
                    }
                }
                if let entitlementChanges {
                    group.addTask {
                        try await connection.listen(on: "entitlements") { notifications in
                            // Notifications sent while no listener was connected are lost: everyone's are read
                            // again, spread over EntitlementChanges.refreshWindow (not all at once).
                            entitlementChanges.changed(user: nil)
                            for try await notification in notifications { entitlementChanges.changed(user: notification.payload) }
                        }
                    }
                }
                group.addTask { [self] in
                    while true {
                        try await poll(connection)
                        try await Task.sleep(for: pollInterval)
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    /// Reads the stored revision, closing the connection when it does not answer within `pollTimeout`.
    private func poll(_ connection: PostgresConnection) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                do {
                    let rows = try await connection.query("SELECT revision FROM catalog_revision", logger: logger)
                    for try await current in rows.decode(Int64.self) { observe(stored: current) }
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {
                    // Not migrated yet: nothing to catch up on.
                }
                return true
            }
            group.addTask { [self] in
                try await Task.sleep(for: pollTimeout)
                return false
            }
            let answered = try await group.next() ?? false
            group.cancelAll()
            guard answered else {
                try? await connection.close()
                throw DatabaseUnavailable(reason: "the revision listener's connection did not answer within \(pollTimeout)")
            }
            lastContact.withLock { $0 = .now }
        }
    }

    /// Follows the stored revision. One that stays below the revision known for two polls in a row means the database
    /// went back (a restore, a failover that lost commits): every cache must read it again, or this replica would
    /// serve its old manifest until the stored revision overtook it.
    func observe(stored: Int64) {
        guard stored < revision.current else {
            behind.withLock { $0 = nil }
            revision.advance(to: stored)
            return
        }
        let confirmed = behind.withLock { behind in
            defer { behind = behind == nil ? stored : nil }
            return behind != nil
        }
        guard confirmed else { return }
        logger.warning("The catalog revision went back; reading the catalog again",
                       metadata: ["known": "\(revision.current)", "stored": "\(stored)"])
        revision.rewind(to: stored)
    }
}
