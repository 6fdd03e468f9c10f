import Foundation

/// The time schedules are judged by: the system's in service, a test's that moves only when told.
public protocol ScheduleClock: Sendable {
    func now() -> Date
    /// Returns at `deadline` or soon after; throws when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock.
public struct SystemScheduleClock: ScheduleClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
    }
}
