import Foundation

extension StickerSync {
    /// The signed-in user's purchase token: pass it to StoreKit as `appAccountToken`, so Apple's notifications
    /// name this user.
    public func appAccountToken() async throws -> UUID {
        let answer = try await http.get("/v1/me/purchase-token")
        guard answer.status == 200 else { throw answer.refusal }
        let object = (try JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        guard let text = object?["purchaseToken"] as? String, let token = UUID(uuidString: text) else {
            throw StickerClientError.refused(status: answer.status, code: nil, detail: "no purchaseToken in the answer")
        }
        return token
    }

    /// Hands the service a StoreKit 2 signed transaction (`Transaction.jsonRepresentation`'s JWS) after a purchase,
    /// then syncs at once, so the group unlocks without waiting for Apple's notification.
    @discardableResult
    public func submit(signedTransaction: String) async throws -> Report {
        try await post(signedTransaction)
        return try await sync()
    }

    /// Restore purchases: every transaction StoreKit holds for the user, then one sync.
    @discardableResult
    public func restore(signedTransactions: [String]) async throws -> Report {
        for transaction in signedTransactions { try await post(transaction) }
        return try await sync()
    }

    private func post(_ signedTransaction: String) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["signedTransaction": signedTransaction])
        let answer = try await http.post("/v1/purchases/apple/transactions", json: body)
        guard answer.status == 200 else { throw answer.refusal }
    }
}
