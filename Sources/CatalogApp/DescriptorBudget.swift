import CatalogStore
import Foundation
import NIOCore

/// The file descriptors `stickerd serve` may need at once, against its RLIMIT_NOFILE: a connection per event stream
/// and per upload, each database pool's connections and the revision listener's, and `reserve` for the rest (health
/// probes and ordinary requests, the process's own files, its event loops, an embedded cluster's pipes). Streams are
/// bounded so that they cannot take the descriptors health checks need; that holds only if the bound fits.
package struct DescriptorBudget: Sendable, Equatable {
    package var streams: Int
    package var uploads: Int
    package var databaseConnections: Int

    /// Descriptors kept for everything that is not a stream, an upload or a pool connection: 80 other requests'
    /// connections, and `processReserve`.
    package static let reserve = 80 + processReserve
    /// Descriptors no connection may take: 3 per event loop (its epoll, eventfd and timerfd; a loop per core), and 40
    /// for the process's own files, libdispatch's, the listener, the database probe and an embedded cluster's pipes.
    package static let processReserve = 40 + 3 * System.coreCount

    /// `pools` database pools (the primary's and one per standby) of PostgresNIO's default size, and the listener.
    package init(streams: Int, uploads: Int, pools: Int) {
        (self.streams, self.uploads) = (streams, uploads)
        databaseConnections = pools * DatabasePool.defaultMaximumConnections + 1
    }

    package var needed: Int { streams + uploads + databaseConnections + Self.reserve }

    /// The connections a process with `limit` descriptors may hold at once: all but the database's and the process's
    /// own, so that clients can never exhaust them (`ConnectionLimit`). Within a budget that fits, streams and uploads
    /// leave room for `reserve - processReserve` other connections.
    package func connections(limit: Int) -> Int {
        max(1, limit - databaseConnections - Self.processReserve)
    }

    /// Why the budget does not fit `limit` descriptors, for an operator; nil when it fits.
    package func shortfall(limit: Int) -> String? {
        guard needed > limit else { return nil }
        return
            "stickerd may need \(needed) file descriptors (--max-event-streams \(streams), --max-uploads \(uploads), "
            + "\(databaseConnections) database connections, \(Self.reserve) for other requests and the process) but may open only "
            + "\(limit) (RLIMIT_NOFILE, its hard limit). Raise the limit (ulimit -n, systemd's LimitNOFILE, the container "
            + "runtime's nofile) or lower --max-event-streams to at most \(max(0, limit - needed + streams))."
    }
}
