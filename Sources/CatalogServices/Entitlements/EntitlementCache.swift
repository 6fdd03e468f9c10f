import CatalogCore
import Foundation
import Purchases
import Synchronization

/// The products each user holds, kept in memory (an LRU bounded by bytes) so that a signed-in client's manifest costs
/// no SQL: read once per user however many requests miss at once, forgotten when the user's entitlements change
/// (`EntitlementChanges`: a commit here or a NOTIFY from another replica) or when one of them can change by itself
/// (a subscription expiring). When everyone's may have changed (the listener reconnected), nothing is dropped: each
/// user's products are read again from their own moment in the refresh window on, so a blip costs a trickle of reads,
/// not one per signed-in user at once.
package final class EntitlementCache: Sendable {
    private struct Held: Sendable {
        /// Product ids, sorted.
        package let products: [String]
        /// When this must be read again without any event (the next expiry); nil: not by itself.
        package let until: Date?
        /// When the read began: a blip after it may have hidden a change.
        package let read: Date
    }

    private struct State {
        package var held: ByteLRU<String, Held>
        /// Bumped by every user's change, so a read that began before one is not kept.
        package var generation = 0
        /// When everyone's entitlements may have changed, as far back as still matters (`pruned`).
        package var blips: [Date] = []
    }

    package let repository: any PurchaseRepository
    package let sandbox: SandboxPolicy
    package let changes: EntitlementChanges
    private let state: Mutex<State>
    private let reads = SingleFlight<String, [String]>()

    package init(
        repository: any PurchaseRepository, changes: EntitlementChanges, sandbox: SandboxPolicy,
        capacity: Int = 16 << 20
    ) {
        (self.repository, self.sandbox, self.changes) = (repository, sandbox, changes)
        state = Mutex(State(held: ByteLRU(capacity: capacity)))
        changes.observe { [weak self] user in self?.forget(user) }
    }

    /// The products `user` holds now, sorted.
    package func products(of user: String, now: Date = Date()) async throws -> [String] {
        let offset = changes.refreshOffset(user: user) / .seconds(1)
        let fresh = state.withLock { state -> [String]? in
            guard let held = state.held.value(for: user), (held.until ?? .distantFuture) > now,
                !Self.overdue(read: held.read, blips: state.blips, offset: offset, now: now)
            else { return nil }
            return held.products
        }
        if let fresh { return fresh }
        return try await reads.run(user) { [self] in
            let generation = state.withLock { $0.generation }
            let records = try await repository.activePurchases(user: user)
            let sandbox = sandbox.counts(for: user)
            let products = Entitlements.held(records, at: now, sandbox: sandbox).map(\.productId)
            let held = Held(
                products: products, until: Entitlements.nextChange(records, after: now, sandbox: sandbox), read: now)
            state.withLock { state in
                if state.generation == generation {
                    state.held.insert(
                        held, for: user, cost: user.utf8.count + products.reduce(64) { $0 + $1.utf8.count + 16 })
                }
            }
            return products
        }
    }

    /// Forgets `user`'s products; for nil, marks everyone's to be read again, each from its refresh offset on.
    package func forget(_ user: String?, now: Date = Date()) {
        let window = changes.refreshWindow / .seconds(1)
        state.withLock { state in
            guard let user else {
                state.blips = Self.pruned(state.blips + [now], window: window, now: now)
                return
            }
            state.generation += 1
            state.held.remove(user)
        }
    }

    /// Whether products read at `read` must be read again at `now`: a blip came after the read, and the user's turn
    /// after it (`offset` seconds) has come.
    package static func overdue(read: Date, blips: [Date], offset: TimeInterval, now: Date) -> Bool {
        blips.contains { read < $0 && now >= $0 + offset }
    }

    /// The blips that can still matter: those within `window` seconds of `now`, and the newest before them (every
    /// offset has passed since it, so it alone decides for reads older than it).
    package static func pruned(_ blips: [Date], window: TimeInterval, now: Date) -> [Date] {
        let settled = blips.filter { $0 <= now - window }.max()
        return (settled.map { [$0] } ?? []) + blips.filter { $0 > now - window }
    }
}
