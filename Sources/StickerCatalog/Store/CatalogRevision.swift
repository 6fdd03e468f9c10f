import Synchronization

/// The newest catalog revision this replica knows of; it only grows.
public final class CatalogRevision: Sendable {
    private let value: Atomic<Int64>

    public init(_ initial: Int64 = 0) {
        value = Atomic(initial)
    }

    public var current: Int64 { value.load(ordering: .acquiring) }

    /// Moves to `revision` unless a newer one is already known.
    public func advance(to revision: Int64) {
        var seen = value.load(ordering: .relaxed)
        while seen < revision {
            let (exchanged, original) = value.compareExchange(expected: seen, desired: revision, ordering: .acquiringAndReleasing)
            if exchanged { return }
            seen = original
        }
    }
}
