import Foundation

/// A value that changes over time: read, or followed as an `AsyncStream` that starts with the current value and keeps
/// only the newest one a slow reader has not taken. The first value is made at the first ask (reading a catalog from
/// disk costs more than a sync with nothing new): `load()` and `stream()` make it off the caller's thread, once however
/// many ask at once, so a caller on the main actor never waits for a decode of 10,000 stickers.
final class Observed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value?
    /// The first value being made, for every caller that asks meanwhile.
    private var making: Task<Value, Never>?
    private let initial: @Sendable () -> Value
    /// Readers, and whether each has been given a value yet (the first is made after a reader starts).
    private var readers: [UUID: (continuation: AsyncStream<Value>.Continuation, given: Bool)] = [:]

    init(_ initial: @escaping @Sendable () -> Value) {
        self.initial = initial
    }

    /// The current value, made on the caller's thread when there is none: for values that cost little to make (a
    /// status from a small bookmark file).
    var value: Value {
        if let current = loaded { return current }
        let made = initial()
        // A value set while this one was made is newer: it stays.
        return lock.withLock {
            if current == nil { current = made }
            return current!
        }
    }

    /// The current value, made off the caller's thread when there is none (one task for every caller).
    func load() async -> Value {
        let task = lock.withLock { () -> Task<Value, Never>? in
            guard current == nil else { return nil }
            if making == nil {
                making = Task.detached(priority: .userInitiated) { [initial] in initial() }
            }
            return making
        }
        guard let task else { return loaded! }
        let made = await task.value
        return lock.withLock {
            if current == nil { current = made }
            making = nil
            return current!
        }
    }

    /// The value if it has been made, without making it or waiting for it to be made.
    var loaded: Value? { lock.withLock { current } }

    func set(_ value: Value) {
        lock.withLock {
            current = value
            for (id, reader) in readers {
                reader.continuation.yield(value)
                readers[id]?.given = true
            }
        }
    }

    private func forget(_ id: UUID) {
        lock.withLock { _ = readers.removeValue(forKey: id) }
    }

    /// The current value, then every new one, until the reader stops. Returns at once: when no value is made yet, the
    /// first comes once `load()` has made it (unless a newer one was set meanwhile).
    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.forget(id) }
        let held = lock.withLock { () -> Value? in
            readers[id] = (continuation, current != nil)
            if let current { continuation.yield(current) }
            return current
        }
        if held == nil {
            Task.detached(priority: .userInitiated) { [self] in
                let first = await load()
                lock.withLock {
                    guard let reader = readers[id], !reader.given else { return }
                    reader.continuation.yield(first)
                    readers[id]?.given = true
                }
            }
        }
        return stream
    }
}
