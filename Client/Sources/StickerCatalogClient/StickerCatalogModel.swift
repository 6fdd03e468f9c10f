#if canImport(Observation)
    import Foundation
    import Observation

    /// The synced catalog for SwiftUI: `catalog` and `status` change on the main actor as syncs land, so a view that
    /// reads them redraws. Run `follow()` in a `.task` modifier: it syncs, stays connected and stops when the view
    /// goes.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Observable
    public final class StickerCatalogModel {
        /// The catalog as last synced; nil before a first sync.
        public private(set) var catalog: SyncedCatalog?
        /// Up to date, syncing (with progress) or offline (with the error).
        public private(set) var status: SyncStatus
        @ObservationIgnored public let sync: StickerSync

        public init(sync: StickerSync) {
            self.sync = sync
            (catalog, status) = (sync.snapshot, sync.status)
        }

        /// Follows the service (`StickerSync.follow`) and mirrors its catalog and status here, until cancelled.
        public func follow() async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [sync] in await sync.follow() }
                group.addTask { [sync] in for await catalog in sync.snapshots { await self.show(catalog) } }
                group.addTask { [sync] in for await status in sync.statuses { await self.show(status) } }
                await group.next()
                group.cancelAll()
            }
        }

        private func show(_ catalog: SyncedCatalog?) { self.catalog = catalog }
        private func show(_ status: SyncStatus) { self.status = status }
    }
#endif
