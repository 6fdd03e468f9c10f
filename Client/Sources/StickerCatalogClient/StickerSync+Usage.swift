import Foundation
import Logging

extension StickerSync {
    /// Records that the user `action`ed `sticker` (a `ManifestSticker`'s id), for the service's counts (trending:
    /// the service keeps how often, never who). Returns at once, waiting for neither the disk nor the network, so a
    /// grid may call it from `onAppear`. The event is kept in the folder (`usage.json`: at most 1,000 events, the
    /// oldest dropped first when full; those over 48 hours old dropped too) and sent in batches of up to 100 with the
    /// next sync that succeeds, or a minute later; a failure is tried again after the usual backoff, and a batch the
    /// service refuses as malformed is dropped. Nothing is kept when `SyncOptions.recordsUsage` is off, nor for an id
    /// that is not a UUID.
    public nonisolated func record(_ action: UsageAction, sticker: ManifestSticker.ID) {
        usage.record(action, sticker: sticker)
    }

    /// The recorder of a sync of `folder`: its queue file in the folder, its requests through `service`, each tried
    /// once (the recorder waits between tries itself, on the sync's clock).
    static func usageRecorder(
        _ service: CatalogService, folder: LocalCatalog, options: SyncOptions,
        sleep: @escaping @Sendable (Duration) async throws -> Void, logger: Logger
    ) -> UsageRecorder {
        UsageRecorder(
            queue: UsageQueue(folder: folder.directory, lockWait: options.lockWait, sleep: sleep),
            enabled: options.recordsUsage, backoff: options.backoff, sleep: sleep, logger: logger,
            send: { events in
                try await ServiceMiddleware.$singleAttempt.withValue(true) { try await service.recordUsage(events) }
            })
    }
}
