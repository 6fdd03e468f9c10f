import Foundation

/// What both SwiftUI models (`StickerCatalogModel`, `StickerCatalogObject`) do, apart from how they publish: their
/// first frame comes from memory alone, the catalog is read from disk off the main actor, and `follow()` is mirrored.
extension StickerSync {
    /// The catalog if it is held in memory already (no disk read, no decode): what a model starts with.
    nonisolated var heldSnapshot: SyncedCatalog? { shown.loaded ?? nil }

    /// Reads the catalog off the caller's actor (at 10,000 stickers `catalog.json` is about 14 MB of JSON) and hands it
    /// to `show` on the main actor.
    @discardableResult
    nonisolated func loadSnapshot(
        then show: @escaping @MainActor @Sendable (SyncedCatalog?) -> Void
    ) -> Task<Void, Never> {
        Task.detached(priority: .userInitiated) { [self] in
            let catalog = await snapshot
            await show(catalog)
        }
    }

    /// Follows the service and hands every catalog and status to `catalog` and `status` on the main actor, until
    /// cancelled.
    nonisolated func mirror(
        catalog: @escaping @MainActor @Sendable (SyncedCatalog?) -> Void,
        status: @escaping @MainActor @Sendable (SyncStatus) -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.follow() }
            group.addTask { for await value in self.snapshots { await catalog(value) } }
            group.addTask { for await value in self.statuses { await status(value) } }
            await group.next()
            group.cancelAll()
        }
    }
}
