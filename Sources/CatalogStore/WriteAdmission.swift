import CatalogCore
import Synchronization

/// Bounds the catalog writes that hold a connection at once, taken before a connection is leased. Every write takes
/// the schedule lock first (`PostgresStore.write`), and a restore holds it exclusively for seconds at 10,000 stickers:
/// without this bound each write waiting on it held a pooled connection, and a burst of console writes left client
/// reads none (503s). Past `permits`, writes wait here, in memory, first come first served, at most `wait`; past
/// `maxWaiting` waiters, or past that wait, a write is a fast 503 `DatabaseUnavailable` with `Retry-After`.
package final class WriteAdmission: Sendable {
    package let permits: Int
    package let maxWaiting: Int
    package let wait: Duration

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var held = 0
        var waiters: [Waiter] = []
        var ids: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A quarter of the pool by default: the rest stays for reads.
    package init(
        permits: Int = max(1, DatabasePool.defaultMaximumConnections / 4), maxWaiting: Int = 256,
        wait: Duration = .seconds(15)
    ) {
        (self.permits, self.maxWaiting, self.wait) = (max(1, permits), maxWaiting, wait)
    }

    /// Writes holding a permit, and waiting for one (for tests and metrics).
    package var usage: (held: Int, waiting: Int) { state.withLock { ($0.held, $0.waiters.count) } }

    /// Runs `body` holding a permit.
    package func run<T>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        let id = try state.withLock { state throws -> UInt64? in
            if state.held < permits {
                state.held += 1
                return nil
            }
            guard state.waiters.count < maxWaiting else { throw Self.refusal("\(maxWaiting) writes are waiting") }
            state.ids += 1
            return state.ids
        }
        guard let id else { return }
        let timer = Task { [wait] in
            try await Task.sleep(for: wait)
            abandon(id, with: Self.refusal("a write waited \(wait) for its turn (a restore running?)"))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let admitted = state.withLock { state in
                    // A permit given back since the first look, with no one queued: take it.
                    if state.held < permits {
                        state.held += 1
                        return true
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if admitted { continuation.resume() }
            }
        } onCancel: {
            abandon(id, with: CancellationError())
        }
    }

    /// Hands the permit to the first waiter, else gives it back.
    private func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.held -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }

    /// Takes waiter `id` out of the queue, if still there, failing it with `error`.
    private func abandon(_ id: UInt64, with error: any Error) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    private static func refusal(_ why: String) -> DatabaseUnavailable {
        DatabaseUnavailable(reason: "catalog writes are bounded: \(why)")
    }
}
