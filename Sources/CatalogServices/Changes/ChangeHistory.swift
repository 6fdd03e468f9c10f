import CatalogCore
import Synchronization

/// The change log as the change feed reads it: each span of revisions read once however many ask, and a revision the
/// log cannot answer from (older than the history kept, or ahead of the database) remembered until this replica's
/// revision moves, so a crowd resending one such cursor costs one read on the primary, not one each.
package final class ChangeHistory: Sendable {
    /// Revisions `since` to `through` as the database held them in one epoch (a restore may rewrite them).
    private struct Span: Hashable, Sendable {
        package let epoch: Int
        package let since: Int64
        package let stamp: Int64
        package let through: Int64
    }

    /// A revision the log could not answer from, as judged at one revision (and epoch) of this replica: a commit can
    /// bring the database up to a cursor from a replica ahead, and a restore can take a revision away.
    private struct Refusal: Hashable, Sendable {
        package let epoch: Int
        package let revision: Int64
        package let since: Int64
        package let stamp: Int64
    }

    package let log: any ChangeLogReader
    /// Change-log answers by revision span: every stream and client that was current before a commit asks the same.
    private let spans = Mutex(ByteLRU<Span, CatalogChanges>(capacity: 1 << 20))
    private let reads = SingleFlight<Span, CatalogChanges?>()
    private let refusals = Mutex(ByteLRU<Refusal, Bool>(capacity: 256 << 10))

    package init(log: any ChangeLogReader) {
        self.log = log
    }

    /// What changed after `since` (stamped `stamp`) up to `through`, or nil when the log cannot answer from `since`;
    /// `epoch` and `revision` say where this replica stands, for as long as a refusal is kept.
    package func changes(
        since: Int64, stamp: Int64, through: Int64, epoch: Int, revision: Int64
    ) async throws -> CatalogChanges? {
        let span = Span(epoch: epoch, since: since, stamp: stamp, through: through)
        if let kept = spans.withLock({ $0.value(for: span) }) { return kept }
        let refusal = Refusal(epoch: epoch, revision: revision, since: since, stamp: stamp)
        if refusals.withLock({ $0.value(for: refusal) }) != nil { return nil }
        return try await reads.run(span) { [self] in
            guard let changes = try await log.changes(since: since, stamp: stamp, through: through) else {
                refusals.withLock { $0.insert(true, for: refusal, cost: 64) }
                return nil
            }
            let cost = 64 + (changes.groups.count + changes.deletedStickers.count * 2 + changes.filters.count) * 64
            spans.withLock { $0.insert(changes, for: span, cost: cost) }
            return changes
        }
    }
}
