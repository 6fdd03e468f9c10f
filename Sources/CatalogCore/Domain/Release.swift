import Foundation

/// A kept release: a catalog revision clients saw, when it was made, by whom, and what it changed.
package struct Release: Sendable, Equatable, Codable {
    package var revision: Int64
    package var releasedAt: Date
    /// The admin token's name; `schedule` for a boundary; `stickerd` for the service's own work (a renditions rebuild).
    package var author: String
    /// For a restore: the release it brought back.
    package var restoredFrom: Int64?
    /// Nil for the oldest kept release: what came before it is forgotten (or was never kept).
    package var summary: ReleaseSummary?

    package init(revision: Int64, releasedAt: Date, author: String, restoredFrom: Int64?, summary: ReleaseSummary?) {
        (self.revision, self.releasedAt, self.author, self.restoredFrom, self.summary) = (
            revision, releasedAt, author, restoredFrom, summary
        )
    }
}

/// What a release changed that clients see, against the release before it.
package struct ReleaseSummary: Sendable, Equatable, Codable {
    package struct Groups: Sendable, Equatable, Codable {
        package var added: [String], changed: [String], removed: [String]
        /// Whether groups that stayed changed places.
        package var reordered: Bool
        /// Groups that stayed whose audience changed (each is in `changed` too).
        package var audience: [String] = []

        package init(added: [String], changed: [String], removed: [String], reordered: Bool, audience: [String] = []) {
            (self.added, self.changed, self.removed, self.reordered) = (added, changed, removed, reordered)
            self.audience = audience
        }
    }
    package struct Stickers: Sendable, Equatable, Codable {
        package var added: Int, changed: Int, removed: Int
        /// The groups whose stickers changed order.
        package var reorderedIn: [String]

        package init(added: Int, changed: Int, removed: Int, reorderedIn: [String]) {
            (self.added, self.changed, self.removed, self.reorderedIn) = (added, changed, removed, reorderedIn)
        }
    }
    package struct Filters: Sendable, Equatable, Codable {
        package var added: [String], changed: [String], removed: [String]

        package init(added: [String], changed: [String], removed: [String]) {
            (self.added, self.changed, self.removed) = (added, changed, removed)
        }
    }
    package var groups: Groups
    package var stickers: Stickers
    package var filters: Filters

    package init(groups: Groups, stickers: Stickers, filters: Filters) {
        self.groups = groups
        self.stickers = stickers
        self.filters = filters
    }
}

/// The outcome of restoring a release.
package struct RestoredRelease: Sendable, Equatable {
    /// The catalog's revision afterwards: a new release, or the current one when nothing differed.
    package var revision: Int64
    /// Whether anything differed from the release restored.
    package var changed: Bool

    package init(revision: Int64, changed: Bool) {
        (self.revision, self.changed) = (revision, changed)
    }
}

/// Who writes the catalog in the current task, recorded as the author of the release a write makes: set for an
/// admin's request by the HTTP layer; nil for the service's own work.
package enum ReleaseAuthor {
    @TaskLocal package static var name: String?
}
