import Foundation

/// A value that changes over time: read at once, or followed as an `AsyncStream` that starts with the current value
/// and keeps only the newest one a slow reader has not taken. The first value is made at the first ask (reading a
/// catalog from disk costs more than a sync with nothing new).
final class Observed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value?
    private let initial: @Sendable () -> Value
    private var readers: [UUID: AsyncStream<Value>.Continuation] = [:]

    init(_ initial: @escaping @Sendable () -> Value) {
        self.initial = initial
    }

    var value: Value { lock.withLock { made() } }

    /// The value if it has been made, without making it.
    var loaded: Value? { lock.withLock { current } }

    /// The current value (the lock held).
    private func made() -> Value {
        if let current { return current }
        let value = initial()
        current = value
        return value
    }

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
        lock.withLock {
            readers[id] = continuation
            continuation.yield(made())
        }
        return stream
    }
}
