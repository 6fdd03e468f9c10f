import Foundation

extension StickerSync {
    /// The signed-in user's purchase token: pass it to StoreKit as `appAccountToken`, so Apple's notifications
    /// name this user.
    /// - Throws: `StickerClientError` when the service refuses or sends no token.
    public func appAccountToken() async throws -> UUID {
        let text = try await service.purchaseToken()
        guard let token = UUID(uuidString: text) else {
            throw StickerClientError.invalidAnswer("a purchase token that is not a UUID")
        }
        return token
    }

    /// Hands the service a StoreKit 2 signed transaction after a purchase (or a restore) and returns once the service
    /// holds it, without syncing: a running `follow()` hears of the unlock on its stream, or call `sync()`. The signed
    /// JWS is `VerificationResult.jwsRepresentation` (not `Transaction.jsonRepresentation`, the unsigned payload).
    /// Finish the StoreKit transaction only after this returns.
    /// - Throws: `StickerClientError.refused` when the service does not accept the transaction.
    public func acknowledge(signedTransaction: String) async throws {
        try await service.submit(signedTransaction: signedTransaction)
    }
}
