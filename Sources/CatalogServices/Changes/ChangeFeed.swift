import CatalogCore
import Foundation
import Synchronization

/// The change feed: what changed in a client's view since its cursor, from the manifest service's snapshot and the
/// change log. A cursor at the revision this replica knows, with nothing unlocked or locked since, is answered from
/// memory (304, no read, no build); each page is built once per (snapshot, cursor, view) and kept in an LRU by bytes,
/// so a crowd of clients catching up from one cursor costs one change-log read and one build (`ChangeHistory`).
/// Only cursors the service signed reach here (`CursorKey`); even so a `through` past the snapshot is clamped to it.
package final class ChangeFeed: Sendable {
    package enum Answer: Sendable {
        case notModified
        case page(Page)
    }

    /// A page and its place in the cache, which is charged again for each compressed copy made of it.
    package struct Page: Sendable {
        package let body: CachedBody
        package let key: Key
    }

    /// A page's key: the snapshot's point, not its revision alone (a rewind that climbs back to the same number is
    /// another history, whose pages differ).
    package struct Key: Hashable, Sendable {
        package let point: CatalogSnapshot.Point
        package let cursor: ChangeCursor
        package let query: ManifestQuery
        package let limit: Int
    }

    package let manifests: ManifestService
    package let history: ChangeHistory
    private let pages: Mutex<ByteLRU<Key, CachedBody>>
    private let builds = SingleFlight<Key, CachedBody>()
    package let compressions = SingleFlight<ManifestService.CompressionKey, CachedBody.Representation>()

    package init(manifests: ManifestService, log: any ChangeLogReader, capacity: Int = 8 << 20) {
        (self.manifests, history) = (manifests, ChangeHistory(log: log))
        pages = Mutex(ByteLRU(capacity: capacity))
    }

    /// The key cursors are signed with.
    package var cursorKey: CursorKey { manifests.linker.cursorKey }

    /// The page after `cursor` for `view` as `viewer` sees it, or `notModified` when nothing changed.
    package func page(
        view: ManifestQuery, viewer: Viewer, cursor: ChangeCursor, limit: Int,
        now: Date = Date()
    ) async throws -> Answer {
        let settled = cursor.through == nil && cursor.after == nil
        if settled, try isCurrent(view: view, viewer: viewer, cursor: cursor, now: now) {
            return .notModified
        }
        let snapshot = try await manifests.currentSnapshot()
        let query = try query(view, viewer: viewer, cursor: cursor, snapshot: snapshot, now: now)
        try Self.checkStamp(of: cursor, at: snapshot)
        if settled, cursor.since >= snapshot.revision, cursor.sees(as: query) {
            // A cursor ahead of this replica: fine if the database has it (this replica catches up within a second),
            // expired if the database went back (a restore took that future away).
            guard try await changes(since: cursor, through: cursor.since, at: snapshot) != nil else {
                throw Self.expired
            }
            return .notModified
        }
        // Pages run up to the snapshot at most: a `through` from a replica ahead of this one ends at this replica's
        // revision, and the cursor after the last page asks again from there.
        var cursor = cursor
        if let through = cursor.through, through > max(snapshot.revision, cursor.since) {
            cursor.through = max(snapshot.revision, cursor.since)
            cursor.throughStamp = cursor.through == snapshot.revision ? snapshot.stamp : cursor.sinceStamp
        }
        let key = Key(point: snapshot.point, cursor: cursor, query: query, limit: limit)
        if let kept = pages.withLock({ $0.value(for: key) }) { return .page(Page(body: kept, key: key)) }
        let body = try await builds.run(key) { [self, manifests, cursor] in
            guard
                let changes = try await changes(
                    since: cursor, through: cursor.through ?? snapshot.revision, at: snapshot)
            else {
                throw Self.expired
            }
            let body = try await ManifestWorkers.shared.build {
                let page = try ManifestChanges.build(
                    from: snapshot, query: query, cursor: cursor, changes: changes, limit: limit,
                    linker: manifests.linker)
                return CachedBody(json: Array(try JSONEncoder.catalog.encode(page)), personal: true)
            }
            pages.withLock { $0.insert(body, for: key, cost: body.cost) }
            return body
        }
        return .page(Page(body: body, key: key))
    }

    /// Charges the cache for what `page` takes now that a compressed copy was added to it.
    package func recount(_ page: Page) {
        pages.withLock { pages in
            guard pages.peek(page.key) === page.body else { return }
            pages.insert(page.body, for: page.key, cost: page.body.cost)
        }
    }

    /// Bytes the cached pages take, compressed copies included, for tests.
    package var cachedBytes: Int { pages.withLock { $0.totalCost } }

    /// Where `cursor` moves to now, and whether anything in `view` changed on the way (an event stream's question):
    /// nil when nothing is newer. Conservative: a group changed and no longer shown counts, as the client may have had
    /// it.
    package func next(
        view: ManifestQuery, viewer: Viewer, cursor: ChangeCursor, now: Date = Date()
    ) async throws -> (cursor: ChangeCursor, changed: Bool)? {
        if try isCurrent(view: view, viewer: viewer, cursor: cursor, now: now) { return nil }
        let snapshot = try await manifests.currentSnapshot()
        let query = try query(view, viewer: viewer, cursor: cursor, snapshot: snapshot, now: now)
        try Self.checkStamp(of: cursor, at: snapshot)
        let moved = !cursor.sees(as: query)
        guard snapshot.revision > cursor.since || moved else { return nil }
        let next =
            snapshot.revision >= cursor.since
            ? ChangeCursor(revision: snapshot.revision, stamp: snapshot.stamp, query: query)
            : ChangeCursor(revision: cursor.since, stamp: cursor.sinceStamp, query: query)
        guard snapshot.revision > cursor.since else { return (next, true) }
        guard let changes = try await changes(since: cursor, through: snapshot.revision, at: snapshot) else {
            throw Self.expired
        }
        let redefined = query.filter.map(changes.filters.contains) ?? false
        // Only what the caller sees now or could see at the cursor: a change to a restricted group outside its
        // audience wakes no outsider's stream (its timing would say the group is there).
        let seen = changes.groups.union(changes.deletedStickers.values).contains {
            changes.concerns($0, query, admitted: cursor.admitted, in: snapshot)
        }
        return (next, moved || redefined || seen)
    }

    /// Whether `cursor` is at the revision this replica knows with what `viewer` sees, judged from memory
    /// alone (no read, no build); false when that cannot be told without reading.
    private func isCurrent(
        view: ManifestQuery, viewer: Viewer, cursor: ChangeCursor, now: Date
    ) throws(CatalogError) -> Bool {
        guard cursor.since == manifests.revision.current, let snapshot = manifests.snapshotInMemory(),
            snapshot.revision == cursor.since, snapshot.stamp == cursor.sinceStamp
        else {
            return false
        }
        return try cursor.sees(as: query(view, viewer: viewer, cursor: cursor, snapshot: snapshot, now: now))
    }

    /// The change log between two revisions as this replica stands at `snapshot`.
    private func changes(
        since cursor: ChangeCursor, through: Int64, at snapshot: CatalogSnapshot
    ) async throws -> CatalogChanges? {
        try await history.changes(
            since: cursor.since, stamp: cursor.sinceStamp, through: through, epoch: manifests.revision.epoch,
            revision: snapshot.revision)
    }

    /// A cursor at the snapshot's revision with another stamp saw a history the database no longer has (a rewind that
    /// climbed back to its number): it expires without a read.
    private static func checkStamp(of cursor: ChangeCursor, at snapshot: CatalogSnapshot) throws(CatalogError) {
        if cursor.since == snapshot.revision, cursor.sinceStamp != snapshot.stamp { throw expired }
    }

    package static let expired = CatalogError.cursorExpired(
        "This cursor is older than the change history kept (or from a catalog since restored); fetch the manifest again."
    )

    /// The view normalised against `snapshot` for what `viewer` sees now; a view other than the cursor's expires it.
    private func query(
        _ view: ManifestQuery, viewer: Viewer, cursor: ChangeCursor, snapshot: CatalogSnapshot,
        now: Date
    ) throws(CatalogError) -> ManifestQuery {
        let query = viewer.view(view, in: snapshot, signer: manifests.linker.signer, now: now)
        guard ChangeCursor.fingerprint(query) == cursor.view else {
            throw .cursorExpired(
                "This cursor belongs to another view (filter, flags, size, scale, format or locale); fetch the manifest again."
            )
        }
        return query
    }
}
