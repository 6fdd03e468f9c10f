/// Every port the service's routes reach the outside through, as the composition root hands them to `buildRouter`:
/// the store's repositories in production, `CatalogPorts.unimplemented` (TestSupport) with the few a test needs
/// overridden when routes are tested without a database (as isowords does with its `DatabaseClient`).
package struct CatalogPorts: Sendable {
    package var groups: any GroupRepository
    package var stickers: any StickerRepository
    package var filters: any FilterRepository
    package var reader: any CatalogReader
    package var schedule: any CatalogSchedule
    package var releases: any ReleaseRepository
    package var adminTokens: any AdminTokenRepository
    package var changes: any ChangeLogReader
    package var idempotency: any IdempotencyRepository
    package var purchases: any PurchaseRepository & EntitlementAdministration & QuarantineCounter
    package var usage: any UsageRepository
    package var health: any DatabaseHealth
    /// The newest catalog revision known, moved by the store's reads and its listener.
    package var revision: CatalogRevision
    /// Entitlement changes the store announces (its commits and other replicas' notifications).
    package var entitlementChanges: EntitlementChanges

    package init(
        groups: any GroupRepository, stickers: any StickerRepository, filters: any FilterRepository,
        reader: any CatalogReader, schedule: any CatalogSchedule, releases: any ReleaseRepository,
        adminTokens: any AdminTokenRepository, changes: any ChangeLogReader, idempotency: any IdempotencyRepository,
        purchases: any PurchaseRepository & EntitlementAdministration & QuarantineCounter, usage: any UsageRepository,
        health: any DatabaseHealth, revision: CatalogRevision, entitlementChanges: EntitlementChanges
    ) {
        (self.groups, self.stickers, self.filters, self.reader, self.schedule) = (
            groups, stickers, filters, reader, schedule
        )
        (self.releases, self.adminTokens, self.changes, self.idempotency) = (
            releases, adminTokens, changes, idempotency
        )
        (self.purchases, self.usage, self.health, self.revision) = (purchases, usage, health, revision)
        self.entitlementChanges = entitlementChanges
    }
}

/// What readiness and the gauges ask of the database: whether it answers, how busy its pool is, whether the revision
/// listener keeps up, and whether the schema is the one this build migrates to.
package protocol DatabaseHealth: Sendable {
    var isAvailable: Bool { get }
    var connections: (inUse: Int, waiting: Int) { get }
    var keepsUp: Bool { get }
    func migrationsApplied() async throws -> Bool
}
