import CatalogCore
import CatalogServices
import Foundation
import NIOCore
import Synchronization
import TestSupport
import Testing

/// What the change feed spends on cursors, with the change log in memory: a `through` past the snapshot pages up to
/// the snapshot; a cursor the change log cannot answer costs one read per revision however often it comes; the page
/// cache's byte bound counts the compressed copies its pages hold.
@Suite struct ChangeFeedCostTests {
    /// A change log in memory, counting its reads: it keeps revisions `horizon` to `current`, where revision r changed
    /// group gr.
    final class MemoryChangeLog: ChangeLogReader, Sendable {
        let horizon: Int64, current: Int64
        private let count = Atomic<Int>(0)
        var reads: Int { count.load(ordering: .relaxed) }

        init(horizon: Int64, current: Int64) { (self.horizon, self.current) = (horizon, current) }

        func changes(since: Int64, stamp: Int64, through: Int64) async throws -> CatalogChanges? {
            count.add(1, ordering: .relaxed)
            guard since >= horizon, since <= current else { return nil }
            var changes = CatalogChanges()
            for revision in stride(from: since + 1, through: through, by: 1) { changes.groups.insert("g\(revision)") }
            changes.openBefore = changes.groups  // every group here is open to everyone
            return changes
        }
    }

    /// A feed on a replica at revision 4 (20 groups, g0 to g19) over a database at revision 10 keeping history from 3.
    static func feed(capacity: Int = 8 << 20) -> (feed: ChangeFeed, log: MemoryChangeLog) {
        let manifests = ManifestService(
            reader: SnapshotReader(SampleCatalog.snapshot(revision: 4)), revision: CatalogRevision(),
            linker: AssetLinker(publicBaseURL: nil))
        let log = MemoryChangeLog(horizon: 3, current: 10)
        return (ChangeFeed(manifests: manifests, log: log, capacity: capacity), log)
    }

    /// A cursor of the default view, as an anonymous client's.
    static func cursor(since: Int64, through: Int64? = nil) -> ChangeCursor {
        let view = ManifestQuery().unlocking([], signedUntil: nil, facts: .none).normalized(
            for: SampleCatalog.snapshot(revision: 4))
        return ChangeCursor(
            since: since, stamp: 0, through: through, view: ChangeCursor.fingerprint(view), products: [])
    }

    @Test func aThroughPastTheSnapshotPagesUpToTheSnapshot() async throws {
        // Setup
        let (feed, log) = Self.feed()
        var bodies: [CachedBody] = []
        // Action: cursors paging from 3 up to revisions this replica has not seen (5 to 24).
        for through in Int64(5)...24 {
            guard
                case .page(let page) = try await feed.page(
                    view: ManifestQuery(), viewer: .anyone, cursor: Self.cursor(since: 3, through: through),
                    limit: 50)
            else {
                Issue.record("not a page")
                return
            }
            bodies.append(page.body)
        }
        // Check: one read, one build; the groups changed up to the snapshot; the next cursor at the snapshot's
        // revision.
        let page = try JSONDecoder().decode(
            ManifestChanges.self, from: Data(bodies[0].identity.bytes.readableBytesView))
        let next = try ChangeCursor(encoded: page.cursor, key: feed.cursorKey)
        #expect(log.reads == 1)
        #expect(bodies.allSatisfy { $0 === bodies[0] })
        #expect(page.groups.map(\.id) == ["g4"] && !page.moreComing)
        #expect(next.since == 4 && next.through == nil)
    }

    @Test func aCursorTheChangeLogCannotAnswerCostsOneReadPerRevision() async throws {
        // Setup
        let (feed, log) = Self.feed()
        func page(_ cursor: ChangeCursor) async throws -> ChangeFeed.Answer {
            try await feed.page(view: ManifestQuery(), viewer: .anyone, cursor: cursor, limit: 50)
        }
        for _ in 0..<10 {
            // Action: ahead of the database (a future a restore took away).
            await #expect(throws: ChangeFeed.expired) { try await page(Self.cursor(since: 12)) }
        }
        // Check
        #expect(log.reads == 1)
        for _ in 0..<10 {
            // Action: ahead of this replica, not of the database.
            guard case .notModified = try await page(Self.cursor(since: 6)) else {
                Issue.record("not a 304")
                return
            }
        }
        // Check
        #expect(log.reads == 2)
        for through in [Int64(1), 2, 3, 4, 1, 2, 3, 4, nil, nil] {
            // Action: older than the history kept, paging up to various revisions.
            await #expect(throws: ChangeFeed.expired) { try await page(Self.cursor(since: 1, through: through)) }
        }
        // Check
        #expect(log.reads == 3)
        // Action: this replica hears of a restore (a new epoch): what the log answered before is asked again, once.
        feed.manifests.revision.rewind(to: 4)
        for _ in 0..<3 { await #expect(throws: ChangeFeed.expired) { try await page(Self.cursor(since: 12)) } }
        for _ in 0..<3 { _ = try await page(Self.cursor(since: 6)) }
        // Check
        #expect(log.reads == 5)
    }

    @Test func thePageCacheCountsTheCompressedCopiesItHolds() async throws {
        // Setup
        let (feed, _) = Self.feed()
        guard
            case .page(let page) = try await feed.page(
                view: ManifestQuery(), viewer: .anyone, cursor: Self.cursor(since: 3), limit: 50)
        else {
            Issue.record("not a page")
            return
        }
        let plain = feed.cachedBytes
        let (tight, _) = Self.feed(capacity: plain + 64)
        guard
            case .page(let tightPage) = try await tight.page(
                view: ManifestQuery(), viewer: .anyone, cursor: Self.cursor(since: 3), limit: 50)
        else {
            Issue.record("not a page")
            return
        }
        // Action
        _ = try await feed.compressed(page, .gzip)
        _ = try await feed.compressed(page, .brotli)
        _ = try await tight.compressed(tightPage, .gzip)
        // Check: the cache is charged for what it holds; one that no longer fits its bound is let go.
        #expect(feed.cachedBytes == page.body.cost && page.body.cost > plain)
        #expect(tight.cachedBytes == 0)
    }
}
