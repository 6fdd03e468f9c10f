import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import TestSupport
import Testing

/// The entitlement rules a review found wrong, through HTTP on a real database: admin revocations that hold, grace
/// periods, upgrades, events dated in the future, and a binding racing a notification.
@Suite struct EntitlementRuleAPITests {
    /// `user`'s purchase token, for StoreKit's appAccountToken.
    static func token(_ client: some TestClientProtocol, _ user: String) async throws -> String? {
        try await client.execute(uri: "/v1/me/purchase-token", method: .get, headers: try await Purchasing.user(user))
            .json["purchaseToken"] as? String
    }

    @Test func anAdminRevocationHoldsUntilAnAdminGrantsAgain() async throws {
        try await withApp(options: try await Purchasing.options()) { client, _ in
            // Setup: ola subscribes; an admin revokes the product.
            let ola = try await Purchasing.user("ola")
            let now = Date()
            var subscription = AppStore.Transaction(
                transactionId: "900", originalTransactionId: "900", purchaseDate: millis(now),
                expiresDate: millis(now, plus: 86_400), appAccountToken: try await Self.token(client, "ola"),
                signedDate: millis(now))
            _ = try await AppleWebhookAPITests.post(client, try await AppStore.notification("SUBSCRIBED", subscription))
            #expect(try await Purchasing.held(client, ola) == [AppStore.Transaction.defaultProduct])
            let revoked = try await client.execute(
                uri: "/v1/admin/users/ola/entitlements/\(AppStore.Transaction.defaultProduct)", method: .delete,
                headers: admin)
            #expect(revoked.status == .ok)
            // Action: ola toggles auto-renew, and Apple signs the transaction afresh, unrevoked, newer than the
            // revocation. (Signed after the revocation returned: a busy suite once took over a minute between the two.)
            subscription.signedDate = millis(Date(), plus: 1)
            let toggled = try await AppleWebhookAPITests.post(
                client, try await AppStore.notification("DID_CHANGE_RENEWAL_STATUS", subscription))
            // Check: still revoked, and the audit says which event was overruled; an admin's grant ends the hold.
            #expect(toggled.status == .ok)
            #expect(try await Purchasing.held(client, ola).isEmpty)
            #expect(try await Purchasing.audit(client, user: "ola") == ["grant", "revoke", "overruled"])
            let granted = try await client.execute(
                uri: "/v1/admin/users/ola/entitlements", method: .post, headers: admin,
                body: Body.json(["productId": AppStore.Transaction.defaultProduct]))
            #expect(granted.status == .created)
            #expect(try await Purchasing.held(client, ola) == [AppStore.Transaction.defaultProduct])
        }
    }

    @Test func theBillingGracePeriodKeepsAccessAndAnUpgradeEndsTheLowerTier() async throws {
        try await withApp(options: try await Purchasing.options()) { client, _ in
            // Setup: pia's renewal failed an hour ago; Apple retries for a week (its renewal info says until when).
            let now = Date()
            let lapsed = AppStore.Transaction(
                transactionId: "910", originalTransactionId: "910", purchaseDate: millis(now, plus: -30 * 86_400),
                expiresDate: millis(now, plus: -3_600), appAccountToken: try await Self.token(client, "pia"),
                signedDate: millis(now))
            let renewal = AppStore.RenewalInfo(
                originalTransactionId: "910", gracePeriodExpiresDate: millis(now, plus: 6 * 86_400),
                signedDate: millis(now))
            // Action
            let failed = try await AppleWebhookAPITests.post(
                client,
                try await AppStore.notification(
                    "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD",
                    lapsed, renewal: renewal))
            // Check
            #expect(failed.status == .ok)
            #expect(
                try await Purchasing.held(client, try await Purchasing.user("pia")) == [
                    AppStore.Transaction.defaultProduct
                ])
            // Setup: raj holds the basic tier, then upgrades; Apple marks the basic transaction upgraded.
            var basic = AppStore.Transaction(
                transactionId: "920", originalTransactionId: "920", purchaseDate: millis(now),
                expiresDate: millis(now, plus: 86_400), appAccountToken: try await Self.token(client, "raj"),
                signedDate: millis(now, plus: -10))
            _ = try await AppleWebhookAPITests.post(client, try await AppStore.notification("SUBSCRIBED", basic))
            basic.isUpgraded = true
            basic.signedDate = millis(now)
            var pro = basic
            (pro.transactionId, pro.productId, pro.isUpgraded) = ("921", "com.example.pro", nil)
            // Action
            _ = try await AppleWebhookAPITests.post(
                client, try await AppStore.notification("DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", basic))
            _ = try await AppleWebhookAPITests.post(client, try await AppStore.notification("DID_RENEW", pro))
            // Check: only the higher tier is held.
            #expect(try await Purchasing.held(client, try await Purchasing.user("raj")) == ["com.example.pro"])
        }
    }

    @Test func revenueCatBillingIssueKeepsAccessThroughItsGracePeriod() async throws {
        try await withApp(options: try await Purchasing.options()) { client, _ in
            let now = Date()
            let event: [String: Any] = [
                "id": "rc-bi", "type": "BILLING_ISSUE", "app_user_id": "quin", "product_id": Purchasing.product,
                "transaction_id": "rc-t", "purchased_at_ms": millis(now, plus: -30 * 86_400),
                "expiration_at_ms": millis(now, plus: -60), "grace_period_expiration_at_ms": millis(now, plus: 86_400),
                "event_timestamp_ms": millis(now), "environment": "PRODUCTION",
            ]
            // Action
            let response = try await PurchaseWebhookAPITests.send(
                client, Purchasing.revenueCat(event), to: "revenuecat")
            // Check
            #expect(response.status == .ok)
            #expect(try await Purchasing.held(client, try await Purchasing.user("quin")) == [Purchasing.product])
        }
    }

    @Test func anEventDatedInTheFutureIsRefusedSoItCannotMakeLaterOnesStale() async throws {
        try await withApp(options: try await Purchasing.options()) { client, _ in
            let sam = try await Purchasing.user("sam")
            let now = Date()
            // Setup: a purchase, then an event that claims to be from next year.
            #expect(
                try await PurchaseWebhookAPITests.send(
                    client,
                    Purchasing.generic(
                        PurchaseWebhookAPITests.event("p1", "purchase", user: "sam", transaction: "t-sam", at: now))
                ).status == .ok)
            let future = try await PurchaseWebhookAPITests.send(
                client,
                Purchasing.generic(
                    PurchaseWebhookAPITests.event(
                        "p2", "purchase", user: "sam", transaction: "t-sam", at: now + 365 * 86_400)))
            // Action: the refund, dated now.
            let refund = try await PurchaseWebhookAPITests.send(
                client,
                Purchasing.generic(
                    PurchaseWebhookAPITests.event("p3", "refund", user: "sam", transaction: "t-sam", at: now + 1)))
            // Check: the future event was refused; the refund applied.
            #expect(future.status == .badRequest && future.problemCode == "invalid_event")
            #expect(refund.status == .ok && refund.json["status"] as? String == "applied")
            #expect(try await Purchasing.held(client, sam).isEmpty)
        }
    }

    @Test func aBindingMadeWhileANotificationCommitsAdoptsIt() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            let now = Date()
            let renewal = AppStore.Transaction(
                transactionId: "801", originalTransactionId: "800", purchaseDate: millis(now),
                expiresDate: millis(now, plus: 86_400), signedDate: millis(now))
            let original = AppStore.Transaction(
                transactionId: "800", originalTransactionId: "800", purchaseDate: millis(now, plus: -86_400),
                expiresDate: millis(now, plus: -1), signedDate: millis(now))
            let notification = try await AppStore.notification("DID_RENEW", renewal)
            let posted = try await AppStore.mint(original)
            let bob = try await Purchasing.user("bob")
            try await db.withConnection { blocker in
                // Setup: a second connection holds an uncommitted row with the renewal's key, so the notification's
                // apply stops at its write, after it looked for a binding and found none.
                try await blocker.query("BEGIN", logger: TestDatabase.logger)
                try await blocker.query(
                    """
                    INSERT INTO purchases (source, environment, transaction_id, original_transaction_id, product_id, purchased_at,
                                           revocation_as_of, as_of) VALUES ('apple', 'sandbox', '801', '800', 'x', now(), now(), now())
                    """, logger: TestDatabase.logger)
                async let notified = AppleWebhookAPITests.post(client, notification)
                try await Self.waitForLockWait(db, query: "INSERT INTO purchases")
                // Action: bob posts the original transaction (binding the subscription) while the notification waits.
                async let bound = AppleBindingAPITests.postTransaction(client, posted, as: bob)
                try await Task.sleep(for: .milliseconds(300))
                try await blocker.query("ROLLBACK", logger: TestDatabase.logger)
                let (n, b) = try await (notified, bound)
                #expect(n.status == .ok && b.status == .ok)
            }
            // Check: the renewal is bob's, not an orphan waiting for its next event.
            #expect(try await db.count("SELECT count(*) FROM purchases WHERE user_id IS NULL") == 0)
            #expect(try await Purchasing.held(client, bob) == [AppStore.Transaction.defaultProduct])
        }
    }

    /// Waits until some backend running `query` waits on a lock.
    static func waitForLockWait(_ db: DatabasePool, query: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let waiting = try await db.count(
                """
                SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%\(query)%' AND datname = current_database()
                """)
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("nothing waited on a lock running \(query)")
    }
}
