import CatalogCore
import Synchronization

/// The open event streams of this replica, admitted per replica, per user and per address (`StreamAdmission`): each
/// is woken when the catalog revision moves (a commit here, or another replica's NOTIFY through the listener) and
/// when its user's entitlements change. A wake-up carries nothing; the stream asks the change feed what it means for
/// its view, and pending wake-ups coalesce into one. When everyone's entitlements may have changed (the listener
/// reconnected), each signed-in stream is woken at its user's refresh offset, when the cache reads that user again,
/// rather than all at once.
package final class EventHub: Sendable {
    package struct Subscription: Sendable {
        package let id: UInt64
        package let user: String?
        package let address: ClientAddress
        package let wakeUps: AsyncStream<Void>
        package let continuation: AsyncStream<Void>.Continuation
    }

    /// Holds a stream's place in the hub until released or dropped.
    package final class Slot: Sendable {
        package let hub: EventHub
        package let subscription: Subscription

        package init(hub: EventHub, subscription: Subscription) { (self.hub, self.subscription) = (hub, subscription) }
        package func release() { hub.unsubscribe(subscription) }
        deinit { release() }
    }

    private struct State {
        package var admission: StreamAdmission
        package var streams: [UInt64: (user: String?, continuation: AsyncStream<Void>.Continuation)] = [:]
    }

    package let limits: StreamAdmission.Limits
    private let state: Mutex<State>
    private let ids = Atomic<UInt64>(0)

    package init(limits: StreamAdmission.Limits, revision: CatalogRevision, entitlements: EntitlementChanges) {
        self.limits = limits
        state = Mutex(State(admission: StreamAdmission(limits: limits)))
        revision.watch { [weak self] _ in self?.wake { _ in true } }
        entitlements.observe { [weak self] user in
            if let user { self?.wake { $0 == user } } else { self?.wakeSpread(entitlements) }
        }
    }

    /// Streams open now.
    package var count: Int { state.withLock { $0.streams.count } }

    /// A new stream for `user` (nil: anonymous) from `address`, or the bound it would pass.
    package func subscribe(user: String?, address: ClientAddress) throws(StreamAdmission.Refusal) -> Subscription {
        let id = ids.add(1, ordering: .relaxed).newValue
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let refusal = state.withLock { state -> StreamAdmission.Refusal? in
            do throws(StreamAdmission.Refusal) {
                try state.admission.admit(user: user, address: address)
            } catch {
                return error
            }
            state.streams[id] = (user, continuation)
            return nil
        }
        if let refusal { throw refusal }
        return Subscription(id: id, user: user, address: address, wakeUps: wakeUps, continuation: continuation)
    }

    /// Gives back a stream's place; a second call for the same stream does nothing.
    package func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            guard state.streams.removeValue(forKey: subscription.id) != nil else { return }
            state.admission.release(user: subscription.user, address: subscription.address)
        }
        subscription.continuation.finish()
    }

    private func wake(_ which: (String?) -> Bool) {
        for stream in state.withLock({ Array($0.streams.values) }) where which(stream.user) {
            stream.continuation.yield()
        }
    }

    /// Wakes each signed-in stream just after its user's refresh offset, in one task; anonymous streams hold nothing
    /// that could have changed.
    private func wakeSpread(_ changes: EntitlementChanges) {
        let start = ContinuousClock.now
        let due = state.withLock { state in
            state.streams.values.compactMap { stream in
                stream.user.map { (start + changes.refreshOffset(user: $0) + .milliseconds(10), stream.continuation) }
            }
        }.sorted { $0.0 < $1.0 }
        guard !due.isEmpty else { return }
        Task {
            for (instant, continuation) in due {
                try? await Task.sleep(until: instant, clock: .continuous)
                continuation.yield()
            }
        }
    }
}
