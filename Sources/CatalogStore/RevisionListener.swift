import CatalogCore
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Keeps this replica's catalog revision current. It LISTENs on a connection of its own (TCP keepalive on) and, on
/// that same connection, reads the stored revision every `pollInterval` with a deadline of `pollTimeout`: lost
/// notifications are caught up within `pollInterval`, and a connection that stopped answering (half-open) is closed
/// and replaced. So a replica that can reach PostgreSQL serves a manifest at most about 5 s behind
/// (poll interval + deadline + reconnect delay), usually at once.
package final class RevisionListener: Service, Sendable {
    package let endpoint: DatabaseEndpoint
    package let revision: CatalogRevision
    package let logger: Logger
    package let pollInterval: Duration
    package let pollTimeout: Duration
    package let reconnectDelay = Duration.milliseconds(500)
    /// Told whose entitlements changed (NOTIFY on `entitlements`), and that everyone's may have after a reconnection.
    package let entitlementChanges: EntitlementChanges?
    /// When the stored revision was last read, for `/readyz`.
    private let lastContact = Mutex<ContinuousClock.Instant?>(nil)
    /// A stored revision read below the one known, waiting for the next poll to confirm it (one read could be a poll
    /// that started before a commit whose NOTIFY came first).
    private let behind = Mutex<Int64?>(nil)

    package init(
        endpoint: DatabaseEndpoint, revision: CatalogRevision, logger: Logger,
        entitlementChanges: EntitlementChanges? = nil,
        pollInterval: Duration = .seconds(2), pollTimeout: Duration = .seconds(2)
    ) {
        (self.endpoint, self.revision, self.logger, self.entitlementChanges) = (
            endpoint, revision, logger, entitlementChanges
        )
        (self.pollInterval, self.pollTimeout) = (pollInterval, pollTimeout)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                do {
                    try await listenAndPoll()
                } catch {
                    guard !Task.isCancelled else {
                        logger.debug("Revision listener stopped")
                        return
                    }
                    logger.warning(
                        "Revision listener lost its connection; reconnecting",
                        metadata: ["error": "\(String(reflecting: error))"])
                    try? await Task.sleep(for: reconnectDelay)
                }
            }
        }
    }

    /// True when the stored revision was read within the last few poll intervals.
    package var isCurrent: Bool {
        lastContact.withLock { $0.map { .now - $0 < pollInterval * 3 + pollTimeout } ?? false }
    }

    private func listenAndPoll() async throws {
        logger.debug("Revision listener connecting")
        let connection = try await endpoint.connect(applicationName: "stickerd revision listener", logger: logger)
        logger.debug("Revision listener connected")
        do {
            // A shutdown closes the connection at once, which ends LISTEN and any poll under way whatever state the
            // driver is in: waiting on them to unwind by cancellation alone, a full test suite's app once never
            // stopped.
            try await withTaskCancellationHandler {
                try await listenAndPoll(on: connection)
            } onCancel: { [logger] in
                logger.debug("Revision listener cancelled; closing its connection")
                connection.close().whenComplete { _ in }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    /// LISTENs and polls on `connection` until one of them ends (the connection is lost, or the task cancelled).
    private func listenAndPoll(on connection: PostgresConnection) async throws {
        defer { logger.debug("Revision listener's tasks ended") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                try await connection.listen(on: "catalog_revision") { notifications in
                    logger.debug("Revision listener listening")
                    for try await notification in notifications {
                        // "revision:stamp" (a database migrated before stamps sends the revision alone).
                        let parts = notification.payload.split(separator: ":").map { Int64($0) }
                        if let next = parts.first ?? nil {
                            revision.advance(to: next, stamp: parts.count == 2 ? parts[1] ?? 0 : 0)
                        }
                    }
                }
                logger.debug("Revision listener stopped listening on catalog_revision")
            }
            if let entitlementChanges {
                group.addTask { [logger] in
                    try await connection.listen(on: "entitlements") { notifications in
                        // Notifications sent while no listener was connected are lost: everyone's are read
                        // again, spread over EntitlementChanges.refreshWindow (not all at once).
                        entitlementChanges.changed(user: nil)
                        for try await notification in notifications {
                            entitlementChanges.changed(user: notification.payload)
                        }
                    }
                    logger.debug("Revision listener stopped listening on entitlements")
                }
            }
            group.addTask { [self] in
                do {
                    while true {
                        try await poll(connection)
                        try await Task.sleep(for: pollInterval)
                    }
                } catch {
                    logger.debug("Revision listener's poll ended", metadata: ["error": "\(error)"])
                    throw error
                }
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Reads the stored revision, closing the connection when it does not answer within `pollTimeout`. Raced, not
    /// awaited in a task group: a query sent once the connection has closed is never answered nor failed (PostgresNIO
    /// writes it without a promise), and a group waiting for it held test apps' shutdowns for good (in full suites).
    private func poll(_ connection: PostgresConnection) async throws {
        do {
            try await race(
                { [self] in
                    do {
                        let rows = try await connection.query(
                            "SELECT revision, stamp FROM catalog_revision", logger: logger)
                        for try await (current, stamp) in rows.decode((Int64, Int64).self) {
                            observe(stored: current, stamp: stamp)
                        }
                    } catch let error as PSQLError where ["42P01", "42703"].contains(error.serverInfo?[.sqlState]) {
                        // Not migrated yet: nothing to catch up on.
                    }
                },
                watchdog: { [pollTimeout] in
                    try await Task.sleep(for: pollTimeout)
                    throw DatabaseUnavailable(
                        reason: "the revision listener's connection did not answer within \(pollTimeout)")
                })
        } catch {
            try? await connection.close()
            throw error
        }
        lastContact.withLock { $0 = .now }
    }

    /// Follows the stored revision. One that stays below the revision known for two polls in a row means the database
    /// went back (a restore, a failover that lost commits): every cache must read it again, or this replica would
    /// serve its old manifest until the stored revision overtook it.
    package func observe(stored: Int64, stamp: Int64 = 0) {
        guard stored < revision.current else {
            behind.withLock { $0 = nil }
            revision.advance(to: stored, stamp: stamp)
            return
        }
        let confirmed = behind.withLock { behind in
            defer { behind = behind == nil ? stored : nil }
            return behind != nil
        }
        guard confirmed else { return }
        logger.warning(
            "The catalog revision went back; reading the catalog again",
            metadata: ["known": "\(revision.current)", "stored": "\(stored)"])
        revision.rewind(to: stored, stamp: stamp)
    }
}
