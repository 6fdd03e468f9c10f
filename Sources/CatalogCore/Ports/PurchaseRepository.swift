import Foundation
import Purchases

/// Deliveries, transactions, bindings and the audit, as the purchase side needs them stored.
package protocol PurchaseRepository: Sendable {
    /// The user's stable purchase token (StoreKit's appAccountToken), made on first use.
    func purchaseToken(user: String) async throws -> UUID
    /// Stores `delivery` raw, then applies the event `verdict` holds (binding it to `delivery.user` for a client's
    /// transaction), or quarantines it with the refusal.
    func receive(_ delivery: Delivery, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt
    /// A stored delivery with what a replay needs to check it again.
    func storedDelivery(id: Int64) async throws -> (Delivery, status: WebhookStatus)?
    /// Applies stored delivery `id` again with a fresh `verdict`: a quarantined one that now passes enters the inbox.
    func replay(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt
    /// Inbox deliveries still `received` (never applied) that arrived before `date`, oldest first.
    func stalledDeliveries(receivedBefore date: Date, limit: Int) async throws -> [Int64]
    /// Applies stalled delivery `id` with a fresh `verdict`, unless a twin already did; quarantines it if refused.
    func resume(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt
    /// Every transaction the user owns, active or not.
    func purchases(user: String) async throws -> [PurchaseRecord]
    /// The user's transactions that may entitle now (not revoked, not expired); what manifests need.
    func activePurchases(user: String) async throws -> [PurchaseRecord]
    /// The user's audit, newest first, before audit id `before`.
    func audit(user: String, before: Int64?, limit: Int) async throws -> [AuditEntry]
    /// Stored deliveries, newest first, optionally of one status, before id `before`.
    func webhookEvents(status: WebhookStatus?, before: Int64?, limit: Int) async throws -> [WebhookEvent]
    func webhookEvent(id: Int64) async throws -> WebhookEvent?
}

/// An admin's grants and revocations. `keeping`: the answer kept in the write's transaction for its `Idempotency-Key`,
/// if it has one.
package protocol EntitlementAdministration: Sendable {
    /// An admin's grant of `productId` to `user` until `expiresAt` (nil: no end); every transaction the user then owns.
    func grant(
        user: String, productId: String, expiresAt: Date?, admin: String,
        keeping answer: IdempotentWrite<[PurchaseRecord]>?
    ) async throws -> [PurchaseRecord]
    /// An admin's revocation of every active transaction of `productId` the user owns: how many there were, and every
    /// transaction the user then owns.
    func revoke(
        user: String, productId: String, admin: String,
        keeping answer: IdempotentWrite<(revoked: Int, purchases: [PurchaseRecord])>?
    ) async throws -> (revoked: Int, purchases: [PurchaseRecord])
}
