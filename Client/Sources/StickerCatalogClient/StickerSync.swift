import Foundation
import OpenAPIRuntime

/// Keeps a directory in sync with a StickerCatalog service for one view: the manifest the first time (and when a
/// cursor expires), the change feed after; the files downloaded, checked and kept before the new `catalog.json`
/// replaces the old one in one rename, so a reader never sees half a sync, and a killed sync resumes where it was
/// (files already kept are not fetched again). Files no longer named go after `purgeGrace`, never while named.
public actor StickerSync {
    /// What one sync did.
    public struct Report: Sendable, Equatable {
        public var revision: Int
        /// True when the change feed brought the catalog up to date; false when a whole manifest was read.
        public var incremental: Bool
        /// Groups added or changed, and groups gone (a whole manifest lists what differs from the copy before).
        public var changedGroups: [String]
        public var removedGroups: [String]
        public var filesDownloaded: Int
        public var bytesDownloaded: Int
        public var filesRemoved: Int

        public var changed: Bool { !changedGroups.isEmpty || !removedGroups.isEmpty }
    }

    public nonisolated let catalog: LocalCatalog
    public nonisolated let options: SyncOptions
    let service: CatalogService
    let downloads: Downloads
    let sleep: @Sendable (Duration) async throws -> Void

    /// `transport` replaces how requests are sent (tests hand one that answers from memory; the default is
    /// URLSession on Apple platforms and AsyncHTTPClient on Linux); `sleep` how waits are waited (a test's clock).
    public init(service: URL, directory: URL, options: SyncOptions = SyncOptions(), transport: (any ClientTransport)? = nil,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        let middleware = ServiceMiddleware(credentials: options.signIn, attempts: max(options.attempts, 1), backoff: options.backoff,
                                           sleep: sleep, userAgent: "StickerCatalogClient/\(StickerSync.version)")
        let service = CatalogService(base: service, transport: transport ?? DefaultTransport.make(connections: options.concurrency),
                                     middleware: middleware)
        let catalog = LocalCatalog(directory: directory)
        (self.service, self.catalog, self.options, self.sleep) = (service, catalog, options, sleep)
        downloads = Downloads(catalog: catalog, concurrency: max(options.concurrency, 1)) { asset in
            try await service.file(asset.url, bytes: asset.bytes)
        }
    }

    /// This library's version, sent in `User-Agent`.
    public static let version = "0.2.0"

    /// The sync under way, which a second call joins: two syncs of one folder could commit out of order.
    private var running: Task<Report, any Error>?

    /// Brings the directory up to date; `progress` hears (files done, files to fetch). A call while a sync runs joins
    /// it; another process syncing the same folder (an app and its extension) is waited for. Cancelling the call
    /// cancels the sync, which then commits nothing.
    /// - Throws: `StickerClientError`, or `CancellationError`.
    public func sync(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> Report {
        if let running { return try await running.value }
        let task = Task { try await FolderLock.holding(catalog.directory) { try await self.syncOnce(progress: progress) } }
        running = task
        defer { running = nil }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    private func syncOnce(progress: @escaping @Sendable (Int, Int) -> Void) async throws -> Report {
        let view = options.viewKey
        // Nothing new is the common case: one 304 from the change feed, no manifest read, nothing written. A page is
        // kept for the catch-up below.
        var first: (cursor: String, page: ManifestChanges)?
        if let mark = catalog.bookmark(), mark.view == view, mark.oldestUnreferenced.map({ Date().timeIntervalSince($0) < options.purgeGrace }) ?? true {
            do {
                guard let page = try await service.changes(options, since: mark.cursor) else {
                    return Report(revision: mark.revision, incremental: true, changedGroups: [], removedGroups: [], filesDownloaded: 0,
                                  bytesDownloaded: 0, filesRemoved: 0)
                }
                first = (mark.cursor, page)
            } catch StickerClientError.refused(410, _, _) {}
        }
        let previous = try catalog.state()
        var incremental = false
        var update: (manifest: Manifest, etag: String?, changed: Set<String>, removed: Set<String>)
        let sameView = previous?.view == view ? previous : nil
        if let sameView, let caughtUp = try await catchUp(sameView.manifest, first: first?.cursor == sameView.manifest.cursor ? first?.page : nil) {
            (update, incremental) = ((caughtUp.manifest, nil, caughtUp.changed, caughtUp.removed), true)
        } else {
            // After a 410 the ETag held is of the expired catalog: a 304 to it would keep that cursor forever.
            update = try await wholeManifest(previous: nil, against: sameView)
        }
        var missing = update.manifest.assets.values.filter { !catalog.has($0) }.sorted { $0.sha256 < $1.sha256 }
        var bytes: Int
        do {
            bytes = try await downloads.run(missing, progress: progress)
        } catch StickerClientError.refused(let status, _, _) where status == 403 || status == 410 {
            // Signed URLs expired while we held them: a fresh manifest signs them again.
            update = try await wholeManifest(previous: nil, against: previous)
            (missing, incremental) = (update.manifest.assets.values.filter { !catalog.has($0) }, false)
            bytes = try await downloads.run(missing, progress: progress)
        }
        let removed = try keep(update.manifest, etag: update.etag, view: view, previous: previous)
        return Report(revision: update.manifest.revision, incremental: incremental, changedGroups: update.changed.sorted(),
                      removedGroups: update.removed.sorted(), filesDownloaded: missing.count, bytesDownloaded: bytes, filesRemoved: removed)
    }

    /// Pages of the change feed applied to `manifest`; nil when the cursor expired (410) or the feed would take more
    /// than `maxPages` pages (the whole manifest is then cheaper, and an endless `moreComing` cannot hold a sync).
    private func catchUp(_ manifest: Manifest, first: ManifestChanges?) async throws -> (manifest: Manifest, changed: Set<String>, removed: Set<String>)? {
        var (current, changed, removed) = (manifest, Set<String>(), Set<String>())
        var first = first
        for _ in 0..<max(options.maxPages, 1) {
            let page: ManifestChanges?
            do {
                if let kept = first { (page, first) = (kept, nil) } else { page = try await service.changes(options, since: current.cursor) }
            } catch StickerClientError.refused(410, _, _) {
                return nil
            }
            guard let page else { return (current, changed, removed) }
            // A replica behind, or a service restored from an older backup: never go back to an older catalog.
            guard page.revision >= current.revision else { throw StickerClientError.invalidAnswer("a change feed page older than the catalog held") }
            current = current.applying(page)
            changed.formUnion(page.groups.map(\.id))
            removed.formUnion(page.removedGroups)
            if !page.moreComing { return (current, changed, removed) }
        }
        return nil
    }

    /// The whole manifest (304 keeps `previous`), with what differs from `against` (or `previous`).
    private func wholeManifest(previous: LocalCatalog.State?, against: LocalCatalog.State? = nil)
        async throws -> (manifest: Manifest, etag: String?, changed: Set<String>, removed: Set<String>) {
        let answer = try await service.manifest(options, etag: previous?.etag)
        guard case .value(let manifest, let etag) = answer else {
            guard let previous else { throw StickerClientError.invalidAnswer("304 to a request without If-None-Match") }
            return (previous.manifest, previous.etag, [], [])
        }
        let before = Dictionary((against ?? previous)?.manifest.groups.map { ($0.id, $0) } ?? [], uniquingKeysWith: { $1 })
        let changed = Set(manifest.groups.filter { before[$0.id] != $0 }.map(\.id))
        let removed = Set(before.keys).subtracting(manifest.groups.map(\.id))
        return (manifest, etag, changed, removed)
    }

    /// Saves `manifest` as the local catalog, then removes files unnamed for longer than the grace period; how many.
    private func keep(_ manifest: Manifest, etag: String?, view: String, previous: LocalCatalog.State?) throws -> Int {
        let now = Date()
        let named = Set(manifest.assets.keys)
        var unreferenced: [String: Date] = [:]
        for digest in catalog.storedDigests() where !named.contains(digest) {
            unreferenced[digest] = previous?.unreferencedSince[digest] ?? now
        }
        let doomed = unreferenced.filter { now.timeIntervalSince($0.value) >= options.purgeGrace }.keys
        for digest in doomed { unreferenced[digest] = nil }
        try catalog.save(LocalCatalog.State(view: view, etag: etag, manifest: manifest, unreferencedSince: unreferenced, syncedAt: now))
        // Only once the catalog that no longer names them is in place.
        for digest in doomed { catalog.remove(sha256: digest) }
        return doomed.count
    }
}
