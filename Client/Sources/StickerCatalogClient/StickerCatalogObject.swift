#if canImport(Combine)
    import Combine
    import Foundation

    /// `StickerCatalogModel` for SwiftUI on iOS 16, where `@Observable` is not available: the same catalog and status,
    /// published as an `ObservableObject` (`@StateObject`, `@ObservedObject`). Creating one reads nothing from disk on
    /// the main actor; run `follow()` in a `.task` modifier.
    @MainActor
    public final class StickerCatalogObject: ObservableObject {
        /// The catalog as last synced; nil before a first sync, and until the one on disk has been read.
        @Published public private(set) var catalog: SyncedCatalog?
        /// Up to date, syncing (with progress) or offline (with the error).
        @Published public private(set) var status: SyncStatus
        public let sync: StickerSync

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

        private func showFirst(_ first: SyncedCatalog?) {
            if catalog == nil { catalog = first }
        }
    }
#endif
