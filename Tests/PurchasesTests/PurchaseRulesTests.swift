import Foundation
import PropertyBased
import Purchases
import TestSupport
import Testing

/// The entitlement rules as plain functions: newest snapshot wins, field by field, whatever the order of arrival.
@Suite struct PurchaseRulesTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func event(
        _ reason: String, at seconds: TimeInterval, expires: TimeInterval? = 30 * 86_400, states: Bool = true,
        revoked: Bool = false, transaction: String = "t1"
    ) -> TransactionSnapshot {
        TransactionSnapshot(
            transactionId: transaction, originalTransactionId: "o1", productId: "premium", userId: "u1",
            purchasedAt: t0, expiresAt: expires.map { t0 + $0 }, statesExpiry: states,
            revokedAt: revoked ? t0 + seconds : nil, asOf: t0 + seconds, reason: reason)
    }

    @Test func grantRevokeRestoreInOrder() throws {
        // Setup
        let purchase = Self.event("purchase", at: 0)
        let refund = Self.event("REFUND", at: 10, revoked: true)
        let reversed = Self.event("REFUND_REVERSED", at: 20)
        // Action
        let (granted, _) = TransactionState.merge(nil, purchase)
        let (revoked, revokedChanged) = TransactionState.merge(granted, refund)
        let (restored, restoredChanged) = TransactionState.merge(revoked, reversed)
        // Check
        let now = Self.t0 + 60
        #expect(TransactionState.isActive(granted, at: now))
        #expect(!TransactionState.isActive(revoked, at: now) && revokedChanged)
        #expect(TransactionState.isActive(restored, at: now) && restoredChanged)
        #expect(TransactionState.action(before: nil, after: granted, changed: true, at: now) == .grant)
        #expect(TransactionState.action(before: granted, after: revoked, changed: true, at: now) == .revoke)
        #expect(TransactionState.action(before: revoked, after: restored, changed: true, at: now) == .restore)
    }

    @Test func anOlderEventArrivingLaterChangesNothing() throws {
        let refund = Self.event("REFUND", at: 10, revoked: true)
        let (record, _) = TransactionState.merge(nil, refund)
        let (after, changed) = TransactionState.merge(record, Self.event("purchase", at: 0))
        #expect(!changed)
        #expect(after == record)
        #expect(TransactionState.action(before: record, after: after, changed: changed, at: Self.t0) == .stale)
    }

    @Test func expiryIsDerivedWhenRead() throws {
        // A lost EXPIRED notification cannot leave access open: past expiresAt the transaction is simply inactive.
        let (record, _) = TransactionState.merge(nil, Self.event("purchase", at: 0, expires: 100))
        #expect(TransactionState.isActive(record, at: Self.t0 + 99))
        #expect(!TransactionState.isActive(record, at: Self.t0 + 100))
        let stored = PurchaseRecord(source: "apple", environment: "production", record: record)
        #expect(Entitlements.nextChange([stored], after: Self.t0 + 1, sandbox: true) == Self.t0 + 100)
    }

    @Test func aRefundOfAnOldRenewalDoesNotEndTheCurrentPeriod() throws {
        // Setup: two periods of one subscription, each its own transaction.
        let old = TransactionState.record(of: [
            Self.event("purchase", at: 0, expires: 30 * 86_400, transaction: "p1"),
            Self.event("REFUND", at: 40 * 86_400, states: false, revoked: true, transaction: "p1"),
        ])!
        let current = TransactionState.record(of: [
            Self.event("DID_RENEW", at: 30 * 86_400, expires: 60 * 86_400, transaction: "p2")
        ])!
        let records = [old, current].map { PurchaseRecord(source: "apple", environment: "production", record: $0) }
        // Action
        let held = Entitlements.held(records, at: Self.t0 + 45 * 86_400, sandbox: true)
        // Check
        #expect(held.map(\.productId) == ["premium"])
        #expect(held.first?.grantedBy.map(\.record.transactionId) == ["p2"])
        #expect(held.first?.expiresAt == Self.t0 + 60 * 86_400)
    }

    @Test func aPurchaseDatedAheadOfOurClockIsHeldAtOnce() throws {
        // The store's clock may run a little ahead: a purchase just made must not look as if it had not begun.
        let record = TransactionState.record(of: [Self.event("purchase", at: 0)])!
        #expect(TransactionState.isActive(record, at: Self.t0 - 2))
    }

    @Test func sandboxPurchasesCountOnlyWhenAllowed() throws {
        let record = TransactionState.record(of: [Self.event("purchase", at: 0)])!
        let sandbox = [PurchaseRecord(source: "apple", environment: "sandbox", record: record)]
        #expect(Entitlements.held(sandbox, at: Self.t0 + 1, sandbox: true).count == 1)
        #expect(Entitlements.held(sandbox, at: Self.t0 + 1, sandbox: false).isEmpty)
    }

    /// The heart of it: any permutation of a transaction's events ends in the same state, ties included.
    @Test func everyOrderOfArrivalEndsInTheSameState() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed)
            let events = Self.randomEvents(&random)
            let expected = TransactionState.record(of: events)
            for _ in 0..<8 {
                let shuffled = events.shuffled(using: &random)
                #expect(TransactionState.record(of: shuffled) == expected, "seed \(seed)")
            }
            // Delivered twice, still the same.
            #expect(TransactionState.record(of: events + events.shuffled(using: &random)) == expected, "seed \(seed)")
        }
    }

    /// 1 to 8 events of one transaction: purchases, renewals with other expiries, refunds, reversals, expiries,
    /// generic refunds that state no period; times drawn from a small range so that ties happen.
    static func randomEvents(_ random: inout SplitMix) -> [TransactionSnapshot] {
        (0..<Int.random(in: 1...8, using: &random)).map { _ in
            let at = TimeInterval(Int.random(in: 0...5, using: &random) * 60)
            let expires = TimeInterval(Int.random(in: 1...4, using: &random) * 86_400)
            switch Int.random(in: 0...4, using: &random) {
            case 0: return event("purchase", at: at, expires: expires)
            case 1: return event("REFUND", at: at, expires: expires, revoked: true)
            case 2: return event("refund", at: at, states: false, revoked: true)
            case 3: return event("REFUND_REVERSED", at: at, states: false)
            default: return event("EXPIRED", at: at, expires: at)
            }
        }
    }

    @Test func theProductFollowsTheNewestEventInAnyOrder() throws {
        // Setup: one subscription id (as Stripe's sub_...) bought as gold, downgraded to silver, then two plan
        // changes signed at the same instant.
        var gold = Self.event("purchase", at: 0)
        var silver = Self.event("plan_change", at: 10)
        (gold.productId, silver.productId) = ("gold", "silver")
        // Action and check: the downgrade wins whichever arrives first.
        #expect(TransactionState.record(of: [gold, silver])?.productId == "silver")
        #expect(TransactionState.record(of: [silver, gold])?.productId == "silver")
        var bronze = silver
        bronze.productId = "bronze"
        #expect(
            TransactionState.record(of: [gold, silver, bronze])?.productId
                == TransactionState.record(of: [bronze, silver, gold])?.productId)
    }
}
