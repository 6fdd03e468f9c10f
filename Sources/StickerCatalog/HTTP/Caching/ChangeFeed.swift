import Foundation
import Synchronization

/// The change feed: what changed in a client's view since its cursor, from the manifest service's snapshot and the
/// change log. A cursor at the revision this replica knows, with nothing unlocked or locked since, is answered from
/// memory (304, no read, no build); each page is built once per (snapshot, cursor, view) and kept in an LRU by bytes,
/// so a crowd of clients catching up from one cursor costs one change-log read and one build.
final class ChangeFeed: Sendable {
    enum Answer: Sendable {
        case notModified
        case page(CachedBody)
    }

    private struct Key: Hashable, Sendable {
        let revision: Int64
        let cursor: ChangeCursor
        let query: ManifestQuery
        let limit: Int
    }

    let manifests: ManifestService
    let log: any ChangeLogReader
    private let pages: Mutex<ByteLRU<Key, CachedBody>>
    private let builds = SingleFlight<Key, CachedBody>()

    init(manifests: ManifestService, log: any ChangeLogReader, capacity: Int = 8 << 20) {
        (self.manifests, self.log) = (manifests, log)
        pages = Mutex(ByteLRU(capacity: capacity))
    }

    /// The page after `cursor` for `view` as a user holding `held` sees it, or `notModified` when nothing changed.
    func page(view: ManifestQuery, held: [String], cursor: ChangeCursor, limit: Int, now: Date = Date()) async throws -> Answer {
        let settled = cursor.through == nil && cursor.after == nil
        if settled, cursor.since == manifests.revision.current, let snapshot = manifests.snapshotInMemory(),
           try query(view, held: held, cursor: cursor, snapshot: snapshot, now: now).unlocked == cursor.products {
            return .notModified
        }
        let snapshot = try await manifests.currentSnapshot()
        let query = try query(view, held: held, cursor: cursor, snapshot: snapshot, now: now)
        if settled, cursor.since >= snapshot.revision, query.unlocked == cursor.products {
            // A cursor ahead of this replica: fine if the database has it (this replica catches up within a second),
            // expired if the database went back (a restore took that future away).
            guard try await log.changes(since: cursor.since, through: cursor.since) != nil else { throw Self.expired }
            return .notModified
        }
        let key = Key(revision: snapshot.revision, cursor: cursor, query: query, limit: limit)
        if let kept = pages.withLock({ $0.value(for: key) }) { return .page(kept) }
        let body = try await builds.run(key) { [self, manifests] in
            guard let changes = try await log.changes(since: cursor.since, through: cursor.through ?? snapshot.revision) else {
                throw Self.expired
            }
            let body = try await ManifestWorkers.shared.build {
                let page = try ManifestChanges.build(from: snapshot, query: query, cursor: cursor, changes: changes, limit: limit,
                                                     linker: manifests.linker)
                return CachedBody(json: Array(try JSONEncoder.catalog.encode(page)), personal: true)
            }
            pages.withLock { $0.insert(body, for: key, cost: body.cost) }
            return body
        }
        return .page(body)
    }

    static let expired = CatalogError.cursorExpired(
        "This cursor is older than the change history kept (or from a catalog since restored); fetch the manifest again.")

    /// The view normalised against `snapshot` for what the user holds now; a view other than the cursor's expires it.
    private func query(_ view: ManifestQuery, held: [String], cursor: ChangeCursor, snapshot: CatalogSnapshot,
                       now: Date) throws(CatalogError) -> ManifestQuery {
        let access = ManifestService.Access(held: held, snapshot: snapshot, signer: manifests.linker.signer, now: now)
        let query = view.unlocking(access.products, signedUntil: access.signedUntil).normalized(for: snapshot)
        guard ChangeCursor.fingerprint(query) == cursor.view else {
            throw .cursorExpired("This cursor belongs to another view (filter, flags, size, scale, format or locale); fetch the manifest again.")
        }
        return query
    }
}
