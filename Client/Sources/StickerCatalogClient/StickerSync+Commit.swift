import Foundation

extension StickerSync {
    /// Commits `manifest` under the folder's lock, held for this alone: saves it (and what can be shown of it while
    /// `failed` files are missing) as the local catalog, then removes files unnamed for longer than the grace period.
    /// What is on disk is read again under the lock, as another process (an app's extension) may have committed or
    /// purged since this sync began: a newer catalog it committed is kept, and a file it purged that this catalog
    /// names is pending, for the next sync to fetch. The revision committed, and how many files were removed.
    func commit(_ manifest: Manifest, failed: Set<String>, etag: String?) async throws -> (revision: Int, removed: Int)
    {
        try await FolderLock.holding(folder.directory, waitingAtMost: options.lockWait, sleep: sleep) {
            try await self.commitHolding(manifest, failed: failed, etag: etag)
        }
    }

    /// `commit`, with the folder's lock held.
    private func commitHolding(
        _ manifest: Manifest, failed: Set<String>, etag: String?
    ) throws -> (revision: Int, removed: Int) {
        let previous = folder.state(unlessStill: known)
        let sameView = previous?.view == view.key ? previous : nil
        if let sameView, sameView.manifest.revision > manifest.revision {
            known = sameView
            logger.info(
                "another process committed a newer catalog", metadata: ["revision": "\(sameView.manifest.revision)"])
            shown.set(folder.snapshot(sameView))
            return (sameView.manifest.revision, 0)
        }
        let now = Date()
        // A `.part` older than any sync may last is a leftover of a killed one.
        let longest = max(options.deadline, options.firstSyncDeadline).seconds
        let stored = folder.storedDigests(removingPartsBefore: now - longest - 3600)
        folder.removeLeftovers(before: now - longest - 3600)
        let failed = failed.union(manifest.assets.keys.filter { !stored.contains($0) })
        let showing =
            failed.isEmpty
            ? nil
            : manifest.holding(back: failed, previous: sameView.map { $0.shown ?? $0.manifest }, onDisk: folder.has)
        let named = Set(manifest.assets.keys).union(showing.map { Array($0.assets.keys) } ?? [])
        var unreferenced: [String: Date] = [:]
        for digest in stored where !named.contains(digest) {
            unreferenced[digest] = previous?.unreferencedSince[digest] ?? now
        }
        let doomed = unreferenced.filter { now.timeIntervalSince($0.value) >= options.purgeGrace }.keys
        for digest in doomed { unreferenced[digest] = nil }
        if options.excludeFromBackup, previous == nil { folder.excludeFromBackup() }
        let state = LocalCatalog.State(
            view: view.key, etag: etag, manifest: manifest, shown: showing,
            failed: failed.isEmpty ? nil : failed.sorted(),
            unreferencedSince: unreferenced, syncedAt: now)
        known = try folder.save(state)
        shown.set(folder.snapshot(state))
        // Only once the catalog that no longer names them is in place.
        for digest in doomed { folder.remove(sha256: digest) }
        return (manifest.revision, doomed.count)
    }
}
