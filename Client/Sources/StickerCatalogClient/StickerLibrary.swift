import Foundation
import Logging
import OpenAPIRuntime

/// A library of groups for catalogs too large to keep whole: the user browses the group index (covers only), previews a
/// group (its thumbnails, in a cache of at most `SyncOptions.cacheBudget` bytes, least recently used out first) and
/// installs the groups they want, which are kept on disk, whole, and in sync. A sync asks the service once whether any
/// installed group changed (`GET /v1/groups?ids=`, usually a 304), then fetches only the groups whose `version` moved
/// and only their new images. A group the user may no longer see (unpublished, outside its audience, a premium group
/// refunded) leaves the installed set and is reported.
///
/// The folder is its own, not a `StickerSync`'s: `library.json`, the installed groups' images in `files/` and the
/// cache's in `cache/files/`. An app and its extension may share it: every change is read, merged and written under
/// the folder's lock, and images being installed count as in use, so one process never removes another's.
public actor StickerLibrary {
    /// What one sync, install or uninstall did.
    public struct Report: Sendable, Equatable {
        /// Installed groups fetched again because their version moved.
        public var changedGroups: [String] = []
        /// Installed groups no longer available (unpublished, outside the audience, locked after a refund).
        public var removedGroups: [String] = []
        public var filesDownloaded = 0
        public var bytesDownloaded = 0
        public var filesRemoved = 0
        /// Images that could not be had, by digest: the next sync tries them again.
        public var failedFiles: [String: StickerClientError] = [:]

        public init() {}

        /// Whether it did nothing: no group changed or left, no file fetched or removed.
        public var isEmpty: Bool { self == Report() }
    }

    /// Where the installed groups' images are kept.
    public nonisolated let folder: LocalCatalog
    /// Where previews' thumbnails and the index's covers are kept, within `options.cacheBudget`.
    nonisolated let cache: LocalCatalog
    public nonisolated let view: CatalogView
    public nonisolated let options: SyncOptions
    let service: CatalogService
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger
    /// The running install's or sync's downloads, by bytes: `ProgressView(library.progress)`.
    public nonisolated let progress = Progress(totalUnitCount: 0)

    /// As `StickerSync.init`: `transport` replaces how requests are sent, `sleep` how waits are waited.
    public init(
        service: URL, folder: LocalCatalog, view: CatalogView = CatalogView(), credentials: Credentials? = nil,
        options: SyncOptions = SyncOptions(), logger: Logger = StickerSync.silent,
        transport: (any ClientTransport)? = nil, middlewares: [any ClientMiddleware] = [],
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        let middleware = ServiceMiddleware(
            credentials: credentials, attempts: max(options.attempts, 1), backoff: options.backoff,
            sleep: sleep, userAgent: "StickerCatalogClient/\(StickerSync.version)",
            facts: ClientFacts(
                folder: folder.directory, platform: options.platform, appVersion: options.appVersion,
                sendsInstallation: options.sendsInstallationID))
        let transport = transport ?? DefaultTransport.pair(options).sync
        self.service = CatalogService(
            base: service, transport: transport, middleware: middleware, middlewares: middlewares)
        (self.folder, self.view, self.options, self.sleep, self.logger) = (folder, view, options, sleep, logger)
        cache = LocalCatalog(directory: folder.directory.appending(path: "cache"))
    }

    /// The groups installed, in the order they were installed, as last fetched (read from disk: another process may
    /// have installed some).
    public nonisolated var installed: [InstalledGroup] { folder.libraryState(view: view.key).installed }

    /// Where the image of `asset` is kept, installed or cached; nil when it is neither (not fetched, or evicted).
    public nonisolated func fileURL(for asset: AssetLink) -> URL? {
        if folder.has(asset) { return folder.fileURL(for: asset) }
        if cache.has(asset) { return cache.fileURL(for: asset) }
        return nil
    }

    /// Downloads `assets` into `catalog`, counted on `progress` and told to `report`.
    func download(
        _ assets: [AssetLink], into catalog: LocalCatalog, report: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) async throws -> Downloads.Outcome {
        let service = self.service
        let downloads = Downloads(
            catalog: catalog, concurrency: max(options.concurrency, 1), largestFile: max(options.largestImage, 0),
            fetch: { asset, sink in try await service.file(asset.url, bytes: asset.bytes, into: sink) })
        let progress = self.progress
        let counter = ProgressCounter(downloads.start(assets)) { shown in
            progress.show(shown)
            report(shown)
        }
        defer { counter.finish() }
        return try await downloads.run(assets, counter: counter)
    }

    /// Runs `body` on the library's state under the folder's lock, and writes what it returns.
    func changing<T: Sendable>(_ body: @escaping @Sendable (inout LibraryState) throws -> T) async throws -> T {
        let (folder, key) = (folder, view.key)
        return try await FolderLock.holding(folder.directory, waitingAtMost: options.lockWait, sleep: sleep) {
            var state = folder.libraryState(view: key)
            let result = try body(&state)
            try folder.saveLibrary(state)
            return result
        }
    }
}
