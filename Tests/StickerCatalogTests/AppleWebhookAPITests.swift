import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Purchases
import TestSupport
import Testing

/// App Store Server Notifications V2 through HTTP, on a real database: Apple's vectors, then minted notifications.
@Suite struct AppleWebhookAPITests {
    static func post(
        _ client: some TestClientProtocol, _ body: [UInt8], environment: String = "sandbox"
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/webhooks/apple/\(environment)", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(bytes: body))
    }

    @Test(.enabled(if: AppStore.vectorsAvailable, "needs Apple's vectors in ../shared/testdata/appstore"))
    func applesVectorsAreAnsweredAndKept() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            // Action
            let test = try await Self.post(client, AppStore.body(try AppStore.signed("testNotification")))
            let wrongBundle = try await Self.post(client, AppStore.body(try AppStore.signed("wrongBundleId")))
            let noX5C = try await Self.post(client, AppStore.body(try AppStore.signed("missingX5CHeaderClaim")))
            let production = try await Self.post(
                client, AppStore.body(try AppStore.signed("testNotification")), environment: "production")
            var jws = Array(try AppStore.signed("testNotification").utf8)
            jws[jws.count - 5] = jws[jws.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let flipped = try await Self.post(client, AppStore.body(String(decoding: jws, as: UTF8.self)))
            // Check
            #expect(test.status == .ok && test.json["status"] as? String == "ignored")
            #expect(
                wrongBundle.status == .unprocessableContent && wrongBundle.problemCode == "wrong_app_or_environment")
            #expect(noX5C.status == .unauthorized && noX5C.problemCode == "invalid_signature")
            #expect(production.status == .unprocessableContent)
            #expect(flipped.status == .unauthorized)
            #expect(try await db.count("SELECT count(*) FROM purchases") == 0)
            #expect(try await db.count("SELECT count(*) FROM webhook_events WHERE quarantined") == 4)
            #expect(
                try await db.count("SELECT count(*) FROM webhook_events WHERE NOT quarantined AND status = 'ignored'")
                    == 1)
            let listed = try await client.execute(
                uri: "/v1/admin/webhook-events?status=unauthorized", method: .get, headers: admin)
            #expect((listed.json["events"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test func duplicatesAreHarmlessAndReusedIdsConflict() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            let uuid = "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6"
            let test = AppStore.body(
                try await AppStore.mint(
                    AppStore.Notification(
                        notificationType: "TEST", notificationUUID: uuid,
                        data: .init(), signedDate: millis())))
            _ = try await Self.post(client, test)
            let again = try await Self.post(client, test)
            let transaction = AppStore.Transaction(
                transactionId: "9", originalTransactionId: "9", purchaseDate: millis(), signedDate: millis())
            let reused = try await Self.post(
                client,
                try await AppStore.notification(
                    "ONE_TIME_CHARGE", transaction,
                    uuid: uuid))
            #expect(again.status == .ok && again.json["duplicate"] as? Bool == true)
            #expect(reused.status == .conflict && reused.problemCode == "event_conflict")
            #expect(
                try await db.count(
                    "SELECT count(*) FROM webhook_events WHERE event_id = '9ad56bd2-0bc6-42e0-af24-fd996d87a1e6'") == 2)
            #expect(try await db.count("SELECT count(*) FROM purchases") == 0)
        }
    }

    @Test func grantRevokeRestoreRenewAndExpire() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            // Setup: alice's purchase token goes to StoreKit as appAccountToken.
            let alice = try await Purchasing.user("alice")
            let token =
                try await client.execute(uri: "/v1/me/purchase-token", method: .get, headers: alice).json[
                    "purchaseToken"] as? String
            let start = Date()
            func transaction(
                _ id: String, signed: TimeInterval, expires: Date = Date() + 86_400, revoked: Bool = false
            ) -> AppStore.Transaction {
                AppStore.Transaction(
                    transactionId: id, originalTransactionId: "100", purchaseDate: millis(start),
                    expiresDate: millis(expires),
                    revocationDate: revoked ? millis(start, plus: signed) : nil, revocationReason: revoked ? 0 : nil,
                    appAccountToken: token, signedDate: millis(start, plus: signed))
            }
            // Action and check, step by step.
            let bought = try await Self.post(
                client,
                try await AppStore.notification("SUBSCRIBED", subtype: "INITIAL_BUY", transaction("100", signed: 1)))
            #expect(bought.json["status"] as? String == "applied")
            #expect(try await Purchasing.held(client, alice) == [AppStore.Transaction.defaultProduct])
            let refund = try await AppStore.notification("REFUND", transaction("100", signed: 20, revoked: true))
            _ = try await Self.post(client, refund)
            #expect(try await Purchasing.held(client, alice).isEmpty)
            _ = try await Self.post(
                client, try await AppStore.notification("REFUND_REVERSED", transaction("100", signed: 30)))
            #expect(try await Purchasing.held(client, alice) == [AppStore.Transaction.defaultProduct])
            // The refund again, and an older revocation arriving late: neither changes anything.
            #expect(try await Self.post(client, refund).json["duplicate"] as? Bool == true)
            let late = try await Self.post(
                client, try await AppStore.notification("REVOKE", transaction("100", signed: 10, revoked: true)))
            #expect(late.json["status"] as? String == "stale")
            #expect(try await Purchasing.held(client, alice) == [AppStore.Transaction.defaultProduct])
            // A renewal is a transaction of its own; its expiry ends the entitlement without any event. It lasts long
            // enough for the two posts and the check before it ends, which took over 3 s on a busy machine (the wait
            // runs beside the rest of the suite, so a long one costs the run little).
            let renewalEnds = Date() + 45
            _ = try await Self.post(
                client,
                try await AppStore.notification("DID_RENEW", transaction("101", signed: 40, expires: renewalEnds)))
            _ = try await Self.post(
                client,
                try await AppStore.notification(
                    "EXPIRED", subtype: "VOLUNTARY", transaction("100", signed: 50, expires: start)))
            #expect(try await Purchasing.held(client, alice) == [AppStore.Transaction.defaultProduct])
            try await Task.sleep(for: .seconds(max(0, renewalEnds.timeIntervalSinceNow) + 0.2))
            #expect(try await Purchasing.held(client, alice).isEmpty)
            #expect(
                try await Purchasing.audit(client, user: "alice") == [
                    "grant", "revoke", "restore", "stale", "grant", "expire",
                ])
            await #expect(throws: (any Error).self) {
                try await db.execute("UPDATE entitlement_audit SET action = 'grant'")
            }
            await #expect(throws: (any Error).self) { try await db.execute("DELETE FROM entitlement_audit") }
        }
    }

    @Test(arguments: [SandboxPolicy.nobody, .listed(["iggy"]), PurchaseConfiguration().sandbox])
    func onlyProductionPurchasesUnlockForUnlistedUsers(policy: SandboxPolicy) async throws {
        let purchases = try await Purchasing.options()
        try await withApp(options: {
            purchases(&$0)
            $0.purchases.sandbox = policy
        }) { client, _ in
            // Setup: two users, each with a purchase token for StoreKit.
            let (ida, ivo) = (try await Purchasing.user("ida"), try await Purchasing.user("ivo"))
            func token(_ user: HTTPFields) async throws -> String? {
                try await client.execute(uri: "/v1/me/purchase-token", method: .get, headers: user).json[
                    "purchaseToken"] as? String
            }
            let sandbox = AppStore.Transaction(
                transactionId: "300", originalTransactionId: "300", purchaseDate: millis(),
                expiresDate: millis(plus: 86_400), appAccountToken: try await token(ida), signedDate: millis())
            var production = sandbox
            (production.transactionId, production.originalTransactionId) = ("301", "301")
            (production.environment, production.appAccountToken) = ("Production", try await token(ivo))
            // Action
            let fromSandbox = try await Self.post(client, try await AppStore.notification("ONE_TIME_CHARGE", sandbox))
            let fromProduction = try await Self.post(
                client, try await AppStore.notification("ONE_TIME_CHARGE", production), environment: "production")
            // Check: both are stored and applied; only the production one unlocks.
            #expect(fromSandbox.status == .ok && fromSandbox.json["status"] as? String == "applied")
            #expect(fromProduction.status == .ok && fromProduction.json["status"] as? String == "applied")
            #expect(try await Purchasing.held(client, ida).isEmpty)
            #expect(try await Purchasing.held(client, ivo) == [AppStore.Transaction.defaultProduct])
        }
    }

    @Test func productionNotificationsMustNameOurApp() async throws {
        let purchases = try await Purchasing.options()
        // Setup: a production purchase, signed for another app id, for ours, and for ours with no app id configured.
        let transaction = AppStore.Transaction(
            transactionId: "400", originalTransactionId: "400", purchaseDate: millis(),
            environment: "Production", signedDate: millis())
        @Sendable func notification(appId: Int64?) async throws -> [UInt8] {
            AppStore.body(
                try await AppStore.mint(
                    AppStore.Notification(
                        notificationType: "ONE_TIME_CHARGE",
                        data: .init(
                            appAppleId: appId, environment: "Production",
                            signedTransactionInfo: try await AppStore.mint(transaction)),
                        signedDate: transaction.signedDate)))
        }
        try await withApp(options: purchases) { client, _ in
            // Action and check
            let other = try await Self.post(client, try await notification(appId: 42), environment: "production")
            let missing = try await Self.post(client, try await notification(appId: nil), environment: "production")
            let ours = try await Self.post(
                client, try await notification(appId: AppStore.appId), environment: "production")
            #expect(other.status == .unprocessableContent && other.problemCode == "wrong_app_or_environment")
            #expect(missing.status == .unprocessableContent && missing.problemCode == "wrong_app_or_environment")
            #expect(ours.status == .ok && ours.json["status"] as? String == "orphaned")
        }
        try await withApp(options: {
            purchases(&$0)
            $0.purchases.apple?.appAppleId = nil
        }) { client, _ in
            let unconfigured = try await Self.post(
                client, try await notification(appId: AppStore.appId), environment: "production")
            #expect(
                unconfigured.status == .unprocessableContent && unconfigured.problemCode == "wrong_app_or_environment")
        }
    }

    @Test func aListedTestersSandboxPurchaseUnlocksAndNoOneElses() async throws {
        let purchases = try await Purchasing.options()
        try await withApp(options: {
            purchases(&$0)
            $0.purchases.sandbox = .listed(["reviewer"])
        }) { client, _ in
            // Setup: App Review's demo account and a TestFlight tester each buy in the sandbox.
            for (user, id) in [("reviewer", "500"), ("tester", "501")] {
                let token =
                    try await client.execute(
                        uri: "/v1/me/purchase-token", method: .get, headers: try await Purchasing.user(user)
                    )
                    .json["purchaseToken"] as? String
                let transaction = AppStore.Transaction(
                    transactionId: id, originalTransactionId: id, purchaseDate: millis(),
                    appAccountToken: token, signedDate: millis())
                // Action
                #expect(
                    try await Self.post(client, try await AppStore.notification("ONE_TIME_CHARGE", transaction)).status
                        == .ok)
            }
            // Check
            #expect(
                try await Purchasing.held(client, try await Purchasing.user("reviewer")) == [
                    AppStore.Transaction.defaultProduct
                ])
            #expect(try await Purchasing.held(client, try await Purchasing.user("tester")).isEmpty)
        }
    }

    @Test func aNotificationOrTransactionWithoutEnvironmentIsRefused() async throws {
        let purchases = try await Purchasing.options()
        try await withApp(options: purchases) { client, _ in
            // Setup: a production purchase whose notification, or whose transaction, states no environment.
            let transaction = AppStore.Transaction(
                transactionId: "600", originalTransactionId: "600", purchaseDate: millis(),
                environment: nil, signedDate: millis())
            var stated = transaction
            stated.environment = "Production"
            let bare = AppStore.body(
                try await AppStore.mint(
                    AppStore.Notification(
                        notificationType: "ONE_TIME_CHARGE",
                        data: .init(environment: nil, signedTransactionInfo: try await AppStore.mint(stated)),
                        signedDate: stated.signedDate)))
            let innerBare = AppStore.body(
                try await AppStore.mint(
                    AppStore.Notification(
                        notificationType: "ONE_TIME_CHARGE",
                        data: .init(
                            environment: "Production", signedTransactionInfo: try await AppStore.mint(transaction)),
                        signedDate: transaction.signedDate)))
            // Action and check: neither passes as production; nor does a client's post of the bare transaction.
            for body in [bare, innerBare] {
                let response = try await Self.post(client, body, environment: "production")
                #expect(response.status == .unprocessableContent && response.problemCode == "wrong_app_or_environment")
            }
            let posted = try await client.execute(
                uri: "/v1/purchases/apple/transactions", method: .post, headers: try await Purchasing.user("una"),
                body: Body.json(["signedTransaction": try await AppStore.mint(transaction)]))
            #expect(posted.status == .unprocessableContent && posted.problemCode == "wrong_app_or_environment")
        }
    }
}
