import Foundation

extension StickerSync {
    /// A first sync of at least twice this many files commits once the first this many (covers, then the first groups
    /// whole) have arrived, when that took `SyncOptions.checkpointAfter` or longer, so the app shows them while the rest
    /// comes over a slow link (on a fast one the whole sync ends about as soon, and one commit is cheaper than two).
    static let checkpointFiles = 512

    /// Downloads `missing` (in `Manifest.downloadOrder`), the files of `manifest` not on disk. With `firstSync` and
    /// many files, commits the head first (`checkpointFiles`). When a deadline, a lost network, an outage or a full
    /// disk ends the downloads, what arrived is committed (the rest pending, tried by the next sync) before the error
    /// is thrown: a sync cut short still shows what it got. A cancellation commits nothing.
    func download(
        _ missing: [AssetLink], of manifest: Manifest, etag: String?, firstSync: Bool
    ) async throws -> Downloads.Outcome {
        let counter = ProgressCounter(downloads.start(missing), now: now, report: showing)
        let started = now()
        do {
            var outcome = Downloads.Outcome()
            var rest = missing[...]
            if firstSync, missing.count >= 2 * Self.checkpointFiles {
                outcome = try await downloads.run(Array(rest.prefix(Self.checkpointFiles)), counter: counter)
                rest = rest.dropFirst(Self.checkpointFiles)
                try Task.checkCancellation()
                if now() - started >= options.checkpointAfter {
                    let (revision, _) = try await commit(manifest, failed: Set(outcome.failed.keys), etag: etag)
                    logger.debug(
                        "first groups committed", metadata: ["revision": "\(revision)", "pending": "\(rest.count)"])
                }
            }
            let more = try await downloads.run(Array(rest), counter: counter)
            outcome.bytes += more.bytes
            outcome.failed.merge(more.failed) { $1 }
            counter.finish()
            return outcome
        } catch {
            guard !Task.isCancelled, Self.endsDownloads(error), worthKeeping(manifest, firstSync: firstSync) else {
                throw error
            }
            // The deadline has passed (or the network went): this commit is quick disk work, not held to it.
            do {
                _ = try await SyncDeadline.$current.withValue(nil) {
                    try await commit(manifest, failed: [], etag: etag)
                }
                logger.info("kept what arrived", metadata: ["error": "\(Redaction.describe(error))"])
            } catch {
                logger.notice(
                    "what arrived could not be committed", metadata: ["error": "\(Redaction.describe(error))"])
            }
            throw error
        }
    }

    /// Whether committing `manifest` now shows something: a sticker whose files are both here, or, past a first sync,
    /// what changed (with the previous versions of files still missing). A first sync that got no sticker whole stays
    /// "not synced" rather than commit an empty catalog.
    private func worthKeeping(_ manifest: Manifest, firstSync: Bool) -> Bool {
        !firstSync
            || manifest.groups.contains { group in
                group.stickers.contains { folder.has($0.asset) && folder.has($0.thumbnail) }
            }
    }

    /// Where a download stands, for `status` and `progress` alike (so a status line and a `ProgressView` agree).
    nonisolated var showing: @Sendable (SyncProgress) -> Void {
        { [statusCell, progress] counted in
            statusCell.set(.syncing(counted))
            progress.show(counted)
        }
    }

    /// Whether `error` is one that ends every download of a sync (`Downloads.run`), as opposed to a cancellation or a
    /// refusal of the sync itself.
    static func endsDownloads(_ error: any Error) -> Bool {
        switch error as? StickerClientError {
        case .timedOut, .unavailable, .unreachable, .storage: true
        default: false
        }
    }
}
