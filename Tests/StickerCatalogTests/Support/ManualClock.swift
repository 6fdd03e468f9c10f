import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Synchronization

/// A schedule clock that moves only when a test says: sleepers wake when it reaches their deadline, or throw when
/// their task is cancelled (an app shutting down).
final class ManualClock: ScheduleClock {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var nextId = 0
    }

    private let state: Mutex<State>

    /// Starts at `now`, by default the current second (whole: dates a test sends as RFC 3339 then name the very
    /// moments the clock moves to, with no rounding of fractions between them).
    init(_ now: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        state = Mutex(State(now: now))
    }

    func now() -> Date { state.withLock { $0.now } }

    /// Believed however far ahead: tests move it hours past the database's clock.
    var maxLead: TimeInterval? { nil }

    /// Moves the clock to `moment` (never back) and wakes whoever sleeps until then.
    func advance(to moment: Date) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, moment)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    func sleep(until deadline: Date) async throws {
        let id = state.withLock { state in
            defer { state.nextId += 1 }
            return state.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now = state.withLock { state -> Bool in
                    guard deadline > state.now, !Task.isCancelled else { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if now {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
