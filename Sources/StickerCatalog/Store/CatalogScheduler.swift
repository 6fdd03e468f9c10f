import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Makes scheduled groups and stickers appear and leave at their moments with no admin request: every replica asks
/// PostgreSQL to apply the schedule at each boundary it knows of and at least every `interval` (to learn of boundaries
/// set since), so a boundary is live within about a second on every replica; the first replica to ask flips the rows
/// and raises the revision once, and NOTIFY tells the others as for any change.
final class CatalogScheduler: Service, Sendable {
    let schedule: any CatalogSchedule
    let clock: any ScheduleClock
    let logger: Logger
    let interval: TimeInterval
    /// The next boundary, as the last schedule applied named it: no answer is cached past it.
    let nextBoundary = NextBoundary()
    /// Set once migrations are applied (`begin()`): before, there is no schedule to apply.
    private let started = Atomic<Bool>(false)

    init(schedule: any CatalogSchedule, clock: any ScheduleClock, logger: Logger, interval: TimeInterval = 1) {
        (self.schedule, self.clock, self.logger, self.interval) = (schedule, clock, logger, interval)
    }

    /// Lets `run` begin applying schedules.
    func begin() {
        started.store(true, ordering: .releasing)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            while !started.load(ordering: .acquiring) {
                do { try await Task.sleep(for: .milliseconds(100)) } catch { return }
            }
            var failures = 0
            while !Task.isCancelled {
                let now = clock.now()
                do {
                    let next = try await schedule.applySchedule(at: now, maxLead: clock.maxLead)
                    nextBoundary.set(next)
                    if failures > 0 { logger.info("Applying schedules again", metadata: ["after failures": "\(failures)"]) }
                    failures = 0
                    let wake = now.addingTimeInterval(interval)
                    try await clock.sleep(until: next.map { min($0, wake) } ?? wake)
                } catch {
                    guard !Task.isCancelled else { return }
                    // PostgreSQL away: try again after a backoff with jitter in real time (the database's time to come
                    // back, not the schedule's), one warning per streak.
                    if failures == 0 { logger.warning("Could not apply schedules", metadata: ["error": "\(String(reflecting: error))"]) }
                    failures += 1
                    let backoff = min(30, interval * Double(1 << min(failures, 5))) * .random(in: 0.5...1)
                    do { try await Task.sleep(for: .milliseconds(Int64(backoff * 1000))) } catch { return }
                }
            }
        }
    }
}

/// The next moment a schedule makes something appear or leave, as this replica last learned it (within a second).
final class NextBoundary: Sendable {
    private let moment = Mutex<Date?>(nil)

    init() {}

    func set(_ next: Date?) { moment.withLock { $0 = next } }

    var value: Date? { moment.withLock { $0 } }
}
