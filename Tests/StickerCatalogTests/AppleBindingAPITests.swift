import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// Transactions without an appAccountToken: kept as orphans until a signed-in client posts one, then bound to them.
@Suite struct AppleBindingAPITests {
    static func postTransaction(
        _ client: some TestClientProtocol, _ jws: String, as user: HTTPFields
    ) async throws -> TestResponse {
        var headers = user
        headers[.contentType] = "application/json"
        return try await client.execute(
            uri: "/v1/purchases/apple/transactions", method: .post, headers: headers,
            body: ByteBuffer(string: #"{"signedTransaction":"\#(jws)"}"#))
    }

    @Test func anOrphanIsAppliedWhenItsOwnerPostsTheTransaction() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            // Setup: a renewal notification nobody can be named for yet.
            let now = Date()
            let renewal = AppStore.Transaction(
                transactionId: "501", originalTransactionId: "500", purchaseDate: millis(now),
                expiresDate: millis(now, plus: 86_400), signedDate: millis(now))
            let orphan = try await AppleWebhookAPITests.post(
                client, try await AppStore.notification("DID_RENEW", renewal))
            #expect(orphan.json["status"] as? String == "orphaned")
            // Action: bob restores purchases; StoreKit hands him the original transaction.
            let bob = try await Purchasing.user("bob")
            let original = AppStore.Transaction(
                transactionId: "500", originalTransactionId: "500", purchaseDate: millis(now, plus: -86_400),
                expiresDate: millis(now, plus: -1), signedDate: millis(now))
            let posted = try await Self.postTransaction(client, try await AppStore.mint(original), as: bob)
            // Check: the orphaned renewal is bob's now, and the audit says why.
            #expect(posted.status == .ok)
            #expect(try await Purchasing.held(client, bob) == [AppStore.Transaction.defaultProduct])
            #expect(try await db.count("SELECT count(*) FROM purchases WHERE user_id IS NULL") == 0)
            let actions = try await Purchasing.audit(client, user: "bob")
            #expect(actions.filter { $0 == "bind" }.count == 2 && actions.contains("expire"))
            // Later notifications for that subscription find bob through the binding.
            let next = AppStore.Transaction(
                transactionId: "502", originalTransactionId: "500", purchaseDate: millis(now),
                expiresDate: millis(now, plus: 2 * 86_400), signedDate: millis(now, plus: 5))
            #expect(
                try await AppleWebhookAPITests.post(client, try await AppStore.notification("DID_RENEW", next)).json[
                    "status"] as? String == "applied")
            #expect(try await db.count("SELECT count(*) FROM purchases WHERE user_id = 'bob'") == 3)
            // Someone else posting bob's transaction is refused, and changes nothing.
            let carol = try await Purchasing.user("carol")
            let stolen = try await Self.postTransaction(client, try await AppStore.mint(renewal), as: carol)
            #expect(stolen.status == .conflict && stolen.problemCode == "transaction_bound_elsewhere")
            #expect(try await Purchasing.held(client, carol).isEmpty)
            #expect(try await db.count("SELECT count(*) FROM purchase_bindings WHERE user_id = 'carol'") == 0)
            // Without a user token there is no one to bind to.
            let anonymous = try await client.execute(
                uri: "/v1/purchases/apple/transactions", method: .post, body: ByteBuffer(string: "{}"))
            #expect(anonymous.status == .unauthorized && anonymous.problemCode == "invalid_token")
        }
    }

    @Test func everyOrderOfDeliveryEndsTheSame() async throws {
        try await withApp(options: try await Purchasing.options()) { client, db in
            // One subscription's story, delivered in four orders (each to its own transaction id and user).
            let now = Date()
            var random = SplitMix(7)
            var states: [[Int]] = []
            for order in 0..<4 {
                let user = "order\(order)"
                let token =
                    try await client.execute(
                        uri: "/v1/me/purchase-token", method: .get, headers: try await Purchasing.user(user)
                    )
                    .json["purchaseToken"] as? String
                func transaction(signed: TimeInterval, expires: TimeInterval, revoked: Bool) -> AppStore.Transaction {
                    AppStore.Transaction(
                        transactionId: "7\(order)", originalTransactionId: "7\(order)", purchaseDate: millis(now),
                        expiresDate: millis(now, plus: expires),
                        revocationDate: revoked ? millis(now, plus: signed) : nil,
                        appAccountToken: token, signedDate: millis(now, plus: signed))
                }
                var story = [
                    ("SUBSCRIBED", transaction(signed: 1, expires: 3_600, revoked: false)),
                    ("REFUND", transaction(signed: 2, expires: 3_600, revoked: true)),
                    ("REFUND_REVERSED", transaction(signed: 3, expires: 3_600, revoked: false)),
                    ("DID_CHANGE_RENEWAL_STATUS", transaction(signed: 4, expires: 7_200, revoked: false)),
                    ("REVOKE", transaction(signed: 5, expires: 7_200, revoked: true)),
                ]
                story = order == 0 ? story : story.shuffled(using: &random)
                for (type, t) in story {
                    _ = try await AppleWebhookAPITests.post(client, try await AppStore.notification(type, t))
                }
                states.append([
                    try await db.count(
                        """
                        SELECT (revoked_at IS NOT NULL)::int * 1000000 + extract(epoch FROM expires_at - purchased_at)::int FROM purchases
                        WHERE user_id = '\(user)'
                        """)
                ])
            }
            #expect(states.allSatisfy { $0 == [1_007_200] }, "\(states)")
        }
    }
}
