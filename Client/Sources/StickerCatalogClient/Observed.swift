import Foundation

/// A value that changes over time: read at once, or followed as an `AsyncStream` that starts with the current value
/// and keeps only the newest one a slow reader has not taken. The first value is made at the first ask (reading a
/// catalog from disk costs more than a sync with nothing new).
final class Observed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Held while the first value is made, never with `lock`: a reader of `loaded` or a `set` never waits for a decode.
    private let making = NSLock()
    private var current: Value?
    private let initial: @Sendable () -> Value
    private var readers: [UUID: AsyncStream<Value>.Continuation] = [:]

    init(_ initial: @escaping @Sendable () -> Value) {
        self.initial = initial
    }

    /// The current value, made at the first ask (once, however many ask at once).
    var value: Value {
        if let current = loaded { return current }
        return making.withLock {
            if let current = loaded { return current }
            let value = initial()
            // A value set while this one was made is newer: it stays.
            return lock.withLock {
                if current == nil { current = value }
                return current!
            }
        }
    }

    /// The value if it has been made, without making it or waiting for it to be made.
    var loaded: Value? { lock.withLock { current } }

    func set(_ value: Value) {
        lock.withLock {
            current = value
            for reader in readers.values { reader.yield(value) }
        }
    }

    private func forget(_ id: UUID) {
        lock.withLock { _ = readers.removeValue(forKey: id) }
    }

    /// The current value, then every new one, until the reader stops.
    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.forget(id) }
        let first = value
        lock.withLock {
            readers[id] = continuation
            continuation.yield(current ?? first)
        }
        return stream
    }
}
