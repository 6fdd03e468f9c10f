import Synchronization

/// One computation per key at a time: callers that ask while it runs await its result instead of starting their own,
/// so a hundred requests missing the cache at once cost one database read or one build.
/// The work runs in a task of its own, so a caller that goes away does not cancel it for the others.
package final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let running = Mutex<[Key: Task<Value, any Error>]>([:])

    package init() {}

    package func run(_ key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = running.withLock { running in
            if let task = running[key] { return task }
            // The entry is removed by the task itself, after this lock is released.
            let task = Task {
                defer { self.finished(key) }
                return try await work()
            }
            running[key] = task
            return task
        }
        return try await task.value
    }

    private func finished(_ key: Key) {
        _ = running.withLock { $0.removeValue(forKey: key) }
    }
}
