import Synchronization

/// The open event streams of this replica, bounded: each is woken when the catalog revision moves (a commit here, or
/// another replica's NOTIFY through the listener) and when its user's entitlements change. A wake-up carries nothing;
/// the stream asks the change feed what it means for its view, and pending wake-ups coalesce into one.
final class EventHub: Sendable {
    struct Subscription: Sendable {
        let id: UInt64
        let wakeUps: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
    }

    /// Holds a stream's place in the hub until released or dropped.
    final class Slot: Sendable {
        let hub: EventHub
        let subscription: Subscription

        init(hub: EventHub, subscription: Subscription) { (self.hub, self.subscription) = (hub, subscription) }
        func release() { hub.unsubscribe(subscription) }
        deinit { release() }
    }

    let limit: Int
    private let streams = Mutex<[UInt64: (user: String?, continuation: AsyncStream<Void>.Continuation)]>([:])
    private let ids = Atomic<UInt64>(0)

    init(limit: Int, revision: CatalogRevision, entitlements: EntitlementChanges) {
        self.limit = limit
        revision.watch { [weak self] _ in self?.wake { _ in true } }
        entitlements.observe { [weak self] user in self?.wake { user == nil || $0 == user } }
    }

    /// Streams open now.
    var count: Int { streams.withLock { $0.count } }

    /// A new stream for `user` (nil: anonymous), or nil when `limit` are open.
    func subscribe(user: String?) -> Subscription? {
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = ids.add(1, ordering: .relaxed).newValue
        let added = streams.withLock { streams in
            guard streams.count < limit else { return false }
            streams[id] = (user, continuation)
            return true
        }
        return added ? Subscription(id: id, wakeUps: wakeUps, continuation: continuation) : nil
    }

    func unsubscribe(_ subscription: Subscription) {
        streams.withLock { _ = $0.removeValue(forKey: subscription.id) }
        subscription.continuation.finish()
    }

    private func wake(_ which: (String?) -> Bool) {
        for stream in streams.withLock({ Array($0.values) }) where which(stream.user) { stream.continuation.yield() }
    }
}
