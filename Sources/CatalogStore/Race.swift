import Synchronization

/// Runs `work` against `watchdog`, whichever ends first: `work`'s value or error, or the error `watchdog` throws
/// (a watchdog that returns leaves `work` to finish). The loser is cancelled and never awaited, unlike a task
/// group's children, so a library call that ignores cancellation (a lease on a pool stopped by a PostgreSQL restart)
/// cannot hold the request that made it. Cancelling the caller ends the race with `CancellationError`.
package func race<T: Sendable>(
    _ work: @escaping @Sendable () async throws -> T,
    watchdog: @escaping @Sendable () async throws -> Void
) async throws -> T {
    let race = Race<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let tasks = [
                Task { race.finish(await Result(catching: work)) },
                Task {
                    do { try await watchdog() } catch { race.finish(.failure(error)) }
                },
            ]
            race.begin(continuation, tasks: tasks)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

private final class Race<T: Sendable>: Sendable {
    private struct State {
        package var continuation: CheckedContinuation<T, any Error>?
        package var result: Result<T, any Error>?
        package var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits with `continuation`, unless the race already ended (its tasks were quick, or the caller cancelled).
    package func begin(_ continuation: CheckedContinuation<T, any Error>, tasks: [Task<Void, Never>]) {
        let ended = state.withLock { state -> Result<T, any Error>? in
            state.tasks = tasks
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let ended {
            continuation.resume(with: ended)
            tasks.forEach { $0.cancel() }
        }
    }

    /// The first call decides; later ones are ignored.
    package func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock {
            state -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard state.result == nil else { return (nil, []) }
            state.result = result
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        continuation?.resume(with: result)
        tasks.forEach { $0.cancel() }
    }
}

extension Result where Failure == any Error {
    package init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
