import Foundation
import Purchases
import Synchronization

/// The products each user holds, kept in memory (an LRU bounded by bytes) so that a signed-in client's manifest costs
/// no SQL: read once per user however many requests miss at once, forgotten when the user's entitlements change
/// (`EntitlementChanges`: a commit here or a NOTIFY from another replica) or when one of them can change by itself
/// (a subscription expiring).
final class EntitlementCache: Sendable {
    private struct Held: Sendable {
        /// Product ids, sorted.
        let products: [String]
        /// When this must be read again without any event (the next expiry); nil: not by itself.
        let until: Date?
    }

    private struct State {
        var held: ByteLRU<String, Held>
        /// Bumped by every change, so a read that began before one is not kept.
        var generation = 0
    }

    let repository: any PurchaseRepository
    let sandbox: SandboxPolicy
    private let state: Mutex<State>
    private let reads = SingleFlight<String, [String]>()

    init(repository: any PurchaseRepository, changes: EntitlementChanges, sandbox: SandboxPolicy, capacity: Int = 16 << 20) {
        (self.repository, self.sandbox) = (repository, sandbox)
        state = Mutex(State(held: ByteLRU(capacity: capacity)))
        changes.observe { [weak self] user in self?.forget(user) }
    }

    /// The products `user` holds now, sorted.
    func products(of user: String, now: Date = Date()) async throws -> [String] {
        if let held = state.withLock({ $0.held.value(for: user) }), held.until.map({ $0 > now }) ?? true { return held.products }
        return try await reads.run(user) { [self] in
            let generation = state.withLock { $0.generation }
            let records = try await repository.activePurchases(user: user)
            let sandbox = sandbox.counts(for: user)
            let products = Entitlements.held(records, at: now, sandbox: sandbox).map(\.productId)
            let held = Held(products: products, until: Entitlements.nextChange(records, after: now, sandbox: sandbox))
            state.withLock { state in
                if state.generation == generation {
                    state.held.insert(held, for: user, cost: user.utf8.count + products.reduce(64) { $0 + $1.utf8.count + 16 })
                }
            }
            return products
        }
    }

    /// Forgets `user`'s products, or everyone's for nil.
    func forget(_ user: String?) {
        state.withLock { state in
            state.generation += 1
            if let user { state.held.remove(user) } else { state.held.removeAll() }
        }
    }
}

extension EntitlementCache {
    /// The products the signed-in user holds; none for anonymous clients.
    func held(by context: AppRequestContext) async throws -> [String] {
        guard let user = context.user else { return [] }
        return try await products(of: user)
    }
}
