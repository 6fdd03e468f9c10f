import CatalogCore
import CatalogServices
import Foundation
import Purchases
import Synchronization
import Testing

/// After the revision listener reconnects (everyone's entitlements may have changed), users are read again and
/// their streams woken spread over the refresh window, not all in the same instant.
@Suite struct EntitlementRefreshTests {
    /// A purchase store that holds nothing and counts the reads of active purchases.
    final class CountingPurchases: PurchaseRepository {
        let reads = Atomic<Int>(0)
        struct Unused: Error {}

        func activePurchases(user: String) async throws -> [PurchaseRecord] {
            reads.add(1, ordering: .relaxed)
            return []
        }

        func purchaseToken(user: String) async throws -> UUID { throw Unused() }
        func receive(_ delivery: Delivery, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt {
            throw Unused()
        }
        func storedDelivery(id: Int64) async throws -> (Delivery, status: WebhookStatus)? { throw Unused() }
        func replay(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt { throw Unused() }
        func stalledDeliveries(receivedBefore date: Date, limit: Int) async throws -> [Int64] { throw Unused() }
        func resume(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt { throw Unused() }
        func purchases(user: String) async throws -> [PurchaseRecord] { throw Unused() }
        func audit(user: String, before: Int64?, limit: Int) async throws -> [AuditEntry] { throw Unused() }
        func webhookEvents(status: WebhookStatus?, before: Int64?, limit: Int) async throws -> [WebhookEvent] {
            throw Unused()
        }
        func webhookEvent(id: Int64) async throws -> WebhookEvent? { throw Unused() }
    }

    /// When each stream woke, after the blip.
    /// When each stream woke, and whose it is.
    final class Wakes: Sendable {
        let seen = Mutex<[(user: String?, at: Duration)]>([])
    }

    let users = (0..<200).map { "user-\($0)" }

    @Test func aBlipRereadsEachUserAtTheirOwnMomentNotAllAtOnce() async throws {
        // Setup: 200 users' products in memory.
        let (repository, changes) = (CountingPurchases(), EntitlementChanges(refreshWindow: .seconds(30)))
        let cache = EntitlementCache(repository: repository, changes: changes, sandbox: .nobody)
        for user in users { _ = try await cache.products(of: user) }
        #expect(repository.reads.load(ordering: .relaxed) == 200)
        // Action: the listener reconnects; every user asks at once.
        changes.changed(user: nil)
        let blip = Date()
        for user in users { _ = try await cache.products(of: user, now: blip) }
        // Check: almost nobody is read at the blip, about half by the middle of the window, everyone by its end.
        #expect(repository.reads.load(ordering: .relaxed) - 200 < 10)
        for user in users { _ = try await cache.products(of: user, now: blip + 15) }
        #expect((60...140).contains(repository.reads.load(ordering: .relaxed) - 200))
        for user in users { _ = try await cache.products(of: user, now: blip + 31) }
        #expect(repository.reads.load(ordering: .relaxed) == 400)
        // Each user once per blip: read again, they stay until the next change.
        for user in users { _ = try await cache.products(of: user, now: blip + 40) }
        #expect(repository.reads.load(ordering: .relaxed) == 400)
        // One user's own change still forgets them at once.
        changes.changed(user: "user-7")
        _ = try await cache.products(of: "user-7")
        #expect(repository.reads.load(ordering: .relaxed) == 401)
    }

    @Test func overdueAndPrunedKeepEveryBlipThatCanStillMatter() {
        let t = Date(timeIntervalSince1970: 1_000_000)
        #expect(!EntitlementCache.overdue(read: t, blips: [t + 10], offset: 5, now: t + 14))
        #expect(EntitlementCache.overdue(read: t, blips: [t + 10], offset: 5, now: t + 15))
        #expect(!EntitlementCache.overdue(read: t + 11, blips: [t + 10], offset: 5, now: t + 60))
        // A read older than a settled blip is overdue even while a newer blip's window runs.
        #expect(EntitlementCache.overdue(read: t, blips: [t + 10, t + 100], offset: 20, now: t + 101))
        #expect(EntitlementCache.pruned([t, t + 10, t + 50, t + 90], window: 30, now: t + 100) == [t + 50, t + 90])
    }

    @Test func aBlipWakesSignedInStreamsSpreadOverTheWindow() async throws {
        // Setup: 40 signed-in streams and 5 anonymous ones.
        let changes = EntitlementChanges(refreshWindow: .seconds(2))
        let hub = EventHub(
            limits: .init(total: 100, perUser: 8, perAddress: 100), revision: CatalogRevision(), entitlements: changes)
        let signedIn = try (0..<40).map { try hub.subscribe(user: "user-\($0)", address: .unknown) }
        let anonymous = try (0..<5).map { _ in try hub.subscribe(user: nil, address: .unknown) }
        let start = ContinuousClock.now
        let woken = Wakes()
        for (subscription, user) in zip(
            signedIn + anonymous, (0..<40).map { "user-\($0)" } + [String?](repeating: nil, count: 5))
        {
            Task {
                for await _ in subscription.wakeUps {
                    woken.seen.withLock { $0.append((user, .now - start)) }
                    break
                }
            }
        }
        // Action
        changes.changed(user: nil)
        // Waits for the 40, then a little more for any anonymous one that should not come. (Minutes: in a full suite
        // beside a CPU hog, the task that wakes them first ran 58 s late, then woke three before the minute was up.)
        let deadline = ContinuousClock.now + .seconds(240)
        while woken.seen.withLock({ $0.count }) < 40, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(300))
        // Check: every signed-in stream woke once, none before its user's moment of the window (a busy machine can
        // only make one later), and those moments spread over the window; anonymous ones were left alone.
        let seen = woken.seen.withLock { $0 }
        #expect(
            seen.count == 40 && Set(seen.compactMap(\.user)).count == 40,
            "\(seen.count) woke after \(ContinuousClock.now - start): \(seen.map { "\($0.user ?? "anonymous") at \($0.at)" })"
        )
        for (user, at) in seen {
            let offset = changes.refreshOffset(user: try #require(user))
            #expect(at >= offset, "\(user ?? "") woke at \(at), before its moment \(offset)")
        }
        let offsets = (0..<40).map { changes.refreshOffset(user: "user-\($0)") }
        #expect(offsets.max()! - offsets.min()! > .seconds(1))
        for subscription in signedIn + anonymous { hub.unsubscribe(subscription) }
        #expect(hub.count == 0)
    }
}
