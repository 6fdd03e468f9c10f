import Foundation

/// The time schedules are judged by: the system's in service, a test's that moves only when told.
package protocol ScheduleClock: Sendable {
    func now() -> Date
    /// How far ahead of PostgreSQL's clock this clock's moments are believed: a replica whose clock runs fast must not
    /// publish early. Nil believes it (a test's clock, hours ahead on purpose).
    var maxLead: TimeInterval? { get }
    /// Returns at `deadline` or soon after; throws when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock.
package struct SystemScheduleClock: ScheduleClock {
    package init() {}

    package func now() -> Date { Date() }

    /// NTP keeps replicas within milliseconds; two seconds is a clock that is wrong.
    package var maxLead: TimeInterval? { 2 }

    package func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
    }
}
