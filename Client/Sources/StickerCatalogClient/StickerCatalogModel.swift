#if canImport(Observation)
    import Foundation
    import Observation

    /// The synced catalog for SwiftUI on iOS 17 and later (`StickerCatalogObject` on iOS 16): `catalog` and `status`
    /// change on the main actor as syncs land, so a view that reads them redraws. Creating one reads nothing from disk
    /// on the main actor: `catalog` is nil until the catalog held on disk has been read in the background (a few
    /// frames at 10,000 stickers). Run `follow()` in a `.task` modifier: it syncs, stays connected and stops when the
    /// view goes.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Observable
    public final class StickerCatalogModel {
        /// The catalog as last synced; nil before a first sync, and until the one on disk has been read.
        public private(set) var catalog: SyncedCatalog?
        /// Up to date, syncing (with progress) or offline (with the error).
        public private(set) var status: SyncStatus
        @ObservationIgnored public let sync: StickerSync

        public init(sync: StickerSync) {
            self.sync = sync
            (catalog, status) = (sync.heldSnapshot, sync.status)
            if catalog == nil { sync.loadSnapshot { [weak self] in self?.showFirst($0) } }
        }

        /// Follows the service (`StickerSync.follow`) and mirrors its catalog and status here, until cancelled.
        public func follow() async {
            await sync.mirror(
                catalog: { [weak self] in self?.catalog = $0 }, status: { [weak self] in self?.status = $0 })
        }

        /// Records that the user sent, saw or tapped `sticker` (`StickerSync.record(_:sticker:)`): returns at once,
        /// waiting for neither the disk nor the network; the service hears of it with the next sync or a minute later.
        public func record(_ action: UsageAction, sticker: ManifestSticker.ID) {
            sync.record(action, sticker: sticker)
        }

        /// The catalog read from disk, unless `follow()` brought one first.
        private func showFirst(_ first: SyncedCatalog?) {
            if catalog == nil { catalog = first }
        }
    }
#endif
