import Foundation

extension StickerSync {
    /// The signed-in user's purchase token: pass it to StoreKit as `appAccountToken`, so Apple's notifications
    /// name this user.
    /// - Throws: `StickerClientError` when the service refuses or sends no token.
    public func appAccountToken() async throws -> UUID {
        let text = try await service.purchaseToken()
        guard let token = UUID(uuidString: text) else { throw StickerClientError.invalidAnswer("a purchase token that is not a UUID") }
        return token
    }

    /// Hands the service a StoreKit 2 signed transaction after a purchase, then syncs at once, so the group unlocks
    /// without waiting for Apple's notification. The signed JWS is `VerificationResult.jwsRepresentation` (not
    /// `Transaction.jsonRepresentation`, which is the unsigned payload).
    /// - Throws: `StickerClientError.refused` when the service does not accept the transaction.
    @discardableResult
    public func submit(signedTransaction: String) async throws -> Report {
        try await service.submit(signedTransaction: signedTransaction)
        return try await sync()
    }

    /// Restore purchases: every transaction StoreKit holds for the user (`jwsRepresentation`s), then one sync.
    @discardableResult
    public func restore(signedTransactions: [String]) async throws -> Report {
        for transaction in signedTransactions { try await service.submit(signedTransaction: transaction) }
        return try await sync()
    }
}
