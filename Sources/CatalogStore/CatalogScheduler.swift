import CatalogCore
import Foundation
import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Makes scheduled groups and stickers appear and leave at their moments with no admin request: every replica asks
/// PostgreSQL to apply the schedule (`apply_schedule`, sql/0013_schedules.sql) at each boundary it knows of and at
/// least every `interval` (to learn of boundaries set since), so a boundary is live within about a second on every
/// replica; the first replica to ask flips the rows and raises the revision once, and NOTIFY tells the others as for
/// any change. It asks on a connection of its own, as the revision listener listens on one: a tick every second
/// neither competes with requests for the pool nor sets off the pool's probe when PostgreSQL is away.
package final class CatalogScheduler: Service, Sendable {
    package let endpoint: DatabaseEndpoint
    package let clock: any ScheduleClock
    package let logger: Logger
    package let interval: TimeInterval
    /// The next boundary, as the last schedule applied named it: no answer is cached past it.
    package let nextBoundary = NextBoundary()
    /// Set once migrations are applied (`begin()`): before, there is no schedule to apply.
    private let started = Atomic<Bool>(false)
    /// How far this replica's clock runs ahead of PostgreSQL's, in seconds, as the last schedule applied measured it.
    private let lead = Gauge(label: "schedule_clock_lead_seconds")

    package init(endpoint: DatabaseEndpoint, clock: any ScheduleClock, logger: Logger, interval: TimeInterval = 1) {
        (self.endpoint, self.clock, self.logger, self.interval) = (endpoint, clock, logger, interval)
    }

    /// Lets `run` begin applying schedules.
    package func begin() {
        started.store(true, ordering: .releasing)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            while !started.load(ordering: .acquiring) {
                do { try await Task.sleep(for: .milliseconds(100)) } catch { return }
            }
            var connection: PostgresConnection?
            var failures = 0
            var warned = false
            while !Task.isCancelled {
                let now = clock.now()
                do {
                    if connection == nil || connection?.isClosed == true {
                        connection = try await endpoint.connect(applicationName: "stickerd scheduler", logger: logger)
                    }
                    let (next, databaseNow) = try await Self.apply(
                        at: now, maxLead: clock.maxLead, on: connection!, logger: logger)
                    // A clock ahead of the database's by more than it is believed sees the database's boundaries by
                    // its own time: shifted by its lead, so that it neither wakes early and applies back to back (a
                    // boundary already past by its clock, which the database caps) nor answers as if one had passed.
                    let ahead = clock.now().timeIntervalSince(databaseNow)
                    lead.record(ahead)
                    let skewed = clock.maxLead.map { ahead > $0 } ?? false
                    if skewed, !warned {
                        warned = true
                        logger.warning(
                            "This replica's clock runs ahead of PostgreSQL's: schedules follow the database's",
                            metadata: ["seconds ahead": "\(Int(ahead.rounded()))"])
                    }
                    let boundary = skewed ? next?.addingTimeInterval(ahead) : next
                    nextBoundary.set(boundary)
                    if failures > 0 {
                        logger.info("Applying schedules again", metadata: ["after failures": "\(failures)"])
                    }
                    failures = 0
                    let wake = now.addingTimeInterval(interval)
                    try await clock.sleep(until: boundary.map { min($0, wake) } ?? wake)
                } catch {
                    guard !Task.isCancelled else { break }
                    // PostgreSQL away: a new connection after a backoff with jitter in real time (the database's
                    // time to come back, not the schedule's), one warning per streak.
                    if failures == 0 {
                        logger.warning("Could not apply schedules", metadata: ["error": "\(String(reflecting: error))"])
                    }
                    failures += 1
                    try? await connection?.close()
                    connection = nil
                    let backoff = min(30, interval * Double(1 << min(failures, 5))) * .random(in: 0.5...1)
                    do { try await Task.sleep(for: .milliseconds(Int64(backoff * 1000))) } catch { break }
                }
            }
            try? await connection?.close()
        }
    }

    /// Flips what `moment` makes visible or hidden (one revision, whichever replica asks first), `moment` believed at
    /// most `maxLead` seconds ahead of the database's clock (nil: believed); the next boundary, and the database's
    /// time once it was applied.
    package static func apply(
        at moment: Date, maxLead: TimeInterval?, on connection: PostgresConnection, logger: Logger
    ) async throws -> (next: Date?, databaseNow: Date) {
        let lead = maxLead.map { "\($0) seconds" }
        let rows = try await connection.query(
            "SELECT apply_schedule(\(moment), \(lead)::interval), clock_timestamp()", logger: logger)
        for try await (next, now) in rows.decode((Date?, Date).self) { return (next, now) }
        return (nil, Date())
    }
}
