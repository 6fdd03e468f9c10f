import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps a directory in sync with a StickerCatalog service for one view: the manifest the first time (and when a
/// cursor expires), the change feed after; the files downloaded, checked and kept before the new `catalog.json`
/// replaces the old one in one rename, so a reader never sees half a sync, and a killed sync resumes where it was
/// (files already kept are not fetched again). Files no longer named go after `purgeGrace`, never while named.
public actor StickerSync {
    /// What one sync did.
    public struct Report: Sendable, Equatable {
        public var revision: Int64
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
    let http: ServiceHTTP
    let downloads: Downloads

    /// `fetch` replaces how a file's bytes are fetched (tests use it to hand back corrupt ones).
    public init(service: URL, directory: URL, options: SyncOptions = SyncOptions(),
                fetch: (@Sendable (URL) async throws -> (status: Int, body: Data))? = nil) {
        let http = ServiceHTTP(base: service, token: options.userToken, attempts: options.attempts, concurrency: options.concurrency)
        let catalog = LocalCatalog(directory: directory)
        (self.http, self.catalog, self.options) = (http, catalog, options)
        downloads = Downloads(catalog: catalog, concurrency: max(options.concurrency, 1), fetch: fetch ?? { url in
            let answer = try await http.file(url)
            return (answer.status, answer.body)
        }, resolve: { http.url($0) })
    }

    /// Brings the directory up to date; `progress` hears (files done, files to fetch).
    public func sync(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> Report {
        let previous = try catalog.state()
        let view = options.viewQuery
        var incremental = false
        var update: (manifest: Manifest, etag: String?, changed: Set<String>, removed: Set<String>)
        if let previous, previous.view == view, let caughtUp = try await catchUp(previous.manifest) {
            (update, incremental) = ((caughtUp.manifest, nil, caughtUp.changed, caughtUp.removed), true)
        } else {
            update = try await wholeManifest(previous: previous?.view == view ? previous : nil)
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

    /// Pages of the change feed applied to `manifest`; nil when the cursor expired (410).
    private func catchUp(_ manifest: Manifest) async throws -> (manifest: Manifest, changed: Set<String>, removed: Set<String>)? {
        var (current, changed, removed) = (manifest, Set<String>(), Set<String>())
        while true {
            let view = options.viewQuery
            let answer = try await http.get("/v1/manifest/changes?since=\(current.cursor)" + (view.isEmpty ? "" : "&" + view))
            switch answer.status {
            case 304: return (current, changed, removed)
            case 410: return nil
            case 200:
                let page = try JSONDecoder().decode(ManifestChanges.self, from: answer.body)
                current = current.applying(page)
                changed.formUnion(page.groups.map(\.id))
                removed.formUnion(page.removedGroups)
                if !page.moreComing { return (current, changed, removed) }
            default: throw answer.refusal
            }
        }
    }

    /// The whole manifest (304 keeps `previous`), with what differs from `against` (or `previous`).
    private func wholeManifest(previous: LocalCatalog.State?, against: LocalCatalog.State? = nil)
        async throws -> (manifest: Manifest, etag: String?, changed: Set<String>, removed: Set<String>) {
        let view = options.viewQuery
        let answer = try await http.get("/v1/manifest" + (view.isEmpty ? "" : "?" + view),
                                        headers: previous?.etag.map { ["If-None-Match": $0] } ?? [:])
        if answer.status == 304, let previous { return (previous.manifest, previous.etag, [], []) }
        guard answer.status == 200 else { throw answer.refusal }
        let manifest = try JSONDecoder().decode(Manifest.self, from: answer.body)
        let before = Dictionary((against ?? previous)?.manifest.groups.map { ($0.id, $0) } ?? [], uniquingKeysWith: { $1 })
        let changed = Set(manifest.groups.filter { before[$0.id] != $0 }.map(\.id))
        let removed = Set(before.keys).subtracting(manifest.groups.map(\.id))
        return (manifest, answer.header("ETag"), changed, removed)
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
