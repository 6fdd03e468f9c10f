import Foundation

extension StickerSync {
    /// One sync, under the folder's lock.
    func syncing() async throws -> Report {
        let key = view.key
        // Nothing new is the common case: one 304 from the change feed, no manifest read, nothing written. A page is
        // kept for the catch-up below. Files that failed last time are tried again, changes or not.
        var first: (cursor: String, page: ManifestChanges)?
        if let mark = folder.bookmark(), mark.view == key, (mark.pending ?? 0) == 0,
            mark.oldestUnreferenced.map({ Date().timeIntervalSince($0) < options.purgeGrace }) ?? true
        {
            do {
                guard let page = try await service.changes(view, since: mark.cursor) else {
                    // Another process (an app's extension) may have synced this folder since the catalog held in
                    // memory was read: read it again, only then (a catalog not yet read stays unread).
                    if let held = shown.loaded, held?.revision != mark.revision { shown.set(folder.load()) }
                    return Report(
                        revision: mark.revision, incremental: true, changedGroups: [], removedGroups: [],
                        filesDownloaded: 0,
                        bytesDownloaded: 0, filesRemoved: 0)
                }
                first = (mark.cursor, page)
            } catch StickerClientError.refused(410, _, _) {}
        }
        let previous = folder.state(unlessStill: known)
        known = previous
        var incremental = false
        var update: (manifest: Manifest, etag: String?, changed: Set<String>, removed: Set<String>)
        let sameView = previous?.view == key ? previous : nil
        if let sameView,
            let caughtUp = try await catchUp(
                sameView.manifest, first: first?.cursor == sameView.manifest.cursor ? first?.page : nil)
        {
            (update, incremental) = ((caughtUp.manifest, nil, caughtUp.changed, caughtUp.removed), true)
        } else {
            // After a 410 the ETag held is of the expired catalog: a 304 to it would keep that cursor forever.
            update = try await wholeManifest(previous: nil, against: sameView, notBefore: previous?.manifest.revision)
        }
        // Files the catalog held names are durable (a barrier came before it); any other file already here was written
        // by a sync that did not reach its commit, and is believed only once its bytes hash to its digest.
        let confirmed =
            previous.map { state in
                Set(state.manifest.assets.keys).union(state.shown.map { Array($0.assets.keys) } ?? [])
                    .subtracting(state.failed ?? [])
            } ?? []
        var missing = missingFiles(update.manifest, confirmed: confirmed)
        logger.debug(
            "catalog read", metadata: ["revision": "\(update.manifest.revision)", "missing": "\(missing.count)"])
        var outcome = try await download(
            missing, of: update.manifest, etag: update.etag, firstSync: sameView == nil)
        var fetched = missing.count - outcome.failed.count
        let signed = Set(missing.filter { $0.url.contains("sig=") }.map(\.sha256))
        if !outcome.refused.isDisjoint(with: signed) {
            // Signed URLs expired while we held them: a fresh manifest signs them again (once; a 403 for a URL that
            // carries no signature is that file's failure, not a reason to read the whole manifest again).
            update = try await wholeManifest(previous: nil, against: sameView, notBefore: previous?.manifest.revision)
            (missing, incremental) = (missingFiles(update.manifest, confirmed: confirmed), false)
            let again = try await download(missing, of: update.manifest, etag: update.etag, firstSync: false)
            (outcome.bytes, outcome.failed) = (outcome.bytes + again.bytes, again.failed)
            fetched += missing.count - again.failed.count
        }
        // Cancelled: nothing is committed, whatever the downloads made of it.
        try Task.checkCancellation()
        for (digest, error) in outcome.failed {
            logger.warning(
                "a file could not be had; its sticker waits for the next sync",
                metadata: ["sha256": "\(digest)", "error": "\(Redaction.describe(error))"])
        }
        let failed = Set(outcome.failed.keys)
        logger.debug("files fetched", metadata: ["files": "\(fetched)", "failed": "\(failed.count)"])
        let (revision, removed) = try await commit(update.manifest, failed: failed, etag: update.etag)
        logger.info(
            "synced",
            metadata: [
                "revision": "\(revision)", "files": "\(fetched)",
                "bytes": "\(outcome.bytes)", "failed": "\(failed.count)", "purged": "\(removed)",
            ])
        return Report(
            revision: revision, incremental: incremental, changedGroups: update.changed.sorted(),
            removedGroups: update.removed.sorted(), filesDownloaded: fetched, bytesDownloaded: outcome.bytes,
            filesRemoved: removed, failedFiles: outcome.failed)
    }

    /// Files `manifest` names that are not on disk, in the order a screen needs them (`Manifest.downloadOrder`); a
    /// file not `confirmed` counts as on disk only when its bytes hash to its digest (`LocalCatalog.verified`).
    private func missingFiles(_ manifest: Manifest, confirmed: Set<String>) -> [AssetLink] {
        let present = folder.fileNames()
        return manifest.downloadOrder.filter { asset in
            guard present.contains(LocalCatalog.fileName(asset)) else { return true }
            return confirmed.contains(asset.sha256) ? !folder.has(asset) : !folder.verified(asset)
        }
    }

    /// Pages of the change feed applied to `manifest`; nil when the cursor expired (410) or the feed would take more
    /// than `maxPages` pages (the whole manifest is then cheaper, and an endless `moreComing` cannot hold a sync).
    private func catchUp(
        _ manifest: Manifest, first: ManifestChanges?
    ) async throws -> (manifest: Manifest, changed: Set<String>, removed: Set<String>)? {
        var (current, changed, removed) = (manifest, Set<String>(), Set<String>())
        var first = first
        var sent = Set<String>()
        for _ in 0..<max(options.maxPages, 1) {
            let page: ManifestChanges?
            do {
                if let kept = first {
                    (page, first) = (kept, nil)
                } else {
                    page = try await service.changes(view, since: current.cursor)
                }
            } catch StickerClientError.refused(410, _, _) {
                return nil
            }
            guard let page else { return (current, changed, removed) }
            // A replica behind, or a service restored from an older backup: never go back to an older catalog.
            guard page.revision >= current.revision else {
                throw StickerClientError.invalidAnswer("a change feed page older than the catalog held")
            }
            try page.check(sent: &sent)
            current = try current.applying(page)
            changed.formUnion(page.groups.map(\.id))
            removed.formUnion(page.removedGroups)
            if !page.moreComing { return (current, changed, removed) }
        }
        return nil
    }

    /// The whole manifest (304 keeps `previous`), with what differs from `against` (or `previous`); one older than
    /// revision `notBefore` (the catalog held) is refused, as the change feed's pages are: a replica behind, or a
    /// service restored from an older backup, must not start the purge countdown of newer files.
    private func wholeManifest(
        previous: LocalCatalog.State?, against: LocalCatalog.State? = nil, notBefore: Int? = nil
    )
        async throws -> (manifest: Manifest, etag: String?, changed: Set<String>, removed: Set<String>)
    {
        let answer = try await service.manifest(view, etag: previous?.etag)
        guard case .value(let manifest, let etag) = answer else {
            guard let previous else { throw StickerClientError.invalidAnswer("304 to a request without If-None-Match") }
            return (previous.manifest, previous.etag, [], [])
        }
        try manifest.check()
        if let notBefore, manifest.revision < notBefore {
            throw StickerClientError.invalidAnswer(
                "a manifest at revision \(manifest.revision), older than the catalog held (\(notBefore))")
        }
        let before = Dictionary(
            (against ?? previous)?.manifest.groups.map { ($0.id, $0) } ?? [], uniquingKeysWith: { $1 })
        let changed = Set(manifest.groups.filter { before[$0.id] != $0 }.map(\.id))
        let removed = Set(before.keys).subtracting(manifest.groups.map(\.id))
        return (manifest, etag, changed, removed)
    }
}
