import CatalogCore
import Foundation
import Purchases

extension UnimplementedPort: PurchaseRepository, EntitlementAdministration, QuarantineCounter {
    package func purchaseToken(user: String) async throws -> UUID {
        throw Self.fail("PurchaseRepository.purchaseToken")
    }
    package func receive(_ d: Delivery, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt {
        throw Self.fail("PurchaseRepository.receive")
    }
    package func storedDelivery(id: Int64) async throws -> (Delivery, status: WebhookStatus)? {
        throw Self.fail("PurchaseRepository.storedDelivery")
    }
    package func replay(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt {
        throw Self.fail("PurchaseRepository.replay")
    }
    package func stalledDeliveries(receivedBefore date: Date, limit: Int) async throws -> [Int64] {
        throw Self.fail("PurchaseRepository.stalledDeliveries")
    }
    package func resume(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt {
        throw Self.fail("PurchaseRepository.resume")
    }
    package func purchases(user: String) async throws -> [PurchaseRecord] {
        throw Self.fail("PurchaseRepository.purchases")
    }
    package func activePurchases(user: String) async throws -> [PurchaseRecord] {
        throw Self.fail("PurchaseRepository.activePurchases")
    }
    package func audit(user: String, before: Int64?, limit: Int) async throws -> [AuditEntry] {
        throw Self.fail("PurchaseRepository.audit")
    }
    package func webhookEvents(status: WebhookStatus?, before: Int64?, limit: Int) async throws -> [WebhookEvent] {
        throw Self.fail("PurchaseRepository.webhookEvents")
    }
    package func webhookEvent(id: Int64) async throws -> WebhookEvent? {
        throw Self.fail("PurchaseRepository.webhookEvent")
    }
    package func grant(
        user: String, productId: String, expiresAt: Date?, admin: String,
        keeping a: IdempotentWrite<[PurchaseRecord]>?
    ) async throws -> [PurchaseRecord] { throw Self.fail("EntitlementAdministration.grant") }
    package func revoke(
        user: String, productId: String, admin: String,
        keeping a: IdempotentWrite<(revoked: Int, purchases: [PurchaseRecord])>?
    ) async throws -> (revoked: Int, purchases: [PurchaseRecord]) {
        throw Self.fail("EntitlementAdministration.revoke")
    }
    package func quarantineSize() async throws -> Int { throw Self.fail("QuarantineCounter.quarantineSize") }
}

extension UnimplementedPort: UsageRepository, IdempotencyRepository, DatabaseHealth {
    package func write(_ chunk: UsageChunk, perSourceHour: Int) async throws -> UsageChunkWrite {
        throw Self.fail("UsageRepository.write")
    }
    package func scores() async throws -> StickerScores { throw Self.fail("UsageRepository.scores") }
    package func stats(_ query: UsageStatsQuery) async throws -> UsageStats { throw Self.fail("UsageRepository.stats") }
    package func pruneUsage(olderThan age: Duration) async throws -> Int {
        throw Self.fail("UsageRepository.pruneUsage")
    }
    package func keptAnswer(for key: IdempotencyKey) async throws -> KeptAnswer? {
        throw Self.fail("IdempotencyRepository.keptAnswer")
    }
    /// Health is read by readiness and gauges, which a route test may reach: a database that is down, not a failure.
    package var isAvailable: Bool { false }
    package var connections: (inUse: Int, waiting: Int) { (0, 0) }
    package var keepsUp: Bool { false }
    package func migrationsApplied() async throws -> Bool { throw Self.fail("DatabaseHealth.migrationsApplied") }
}
