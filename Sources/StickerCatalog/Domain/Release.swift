import Foundation

/// A kept release: a catalog revision clients saw, when it was made, by whom, and what it changed.
public struct Release: Sendable, Equatable, Codable {
    public var revision: Int64
    public var releasedAt: Date
    /// The admin token's name; `schedule` for a boundary; `stickerd` for the service's own work (a renditions rebuild).
    public var author: String
    /// For a restore: the release it brought back.
    public var restoredFrom: Int64?
    /// Nil for the oldest kept release: what came before it is forgotten (or was never kept).
    public var summary: ReleaseSummary?

    public init(revision: Int64, releasedAt: Date, author: String, restoredFrom: Int64?, summary: ReleaseSummary?) {
        (self.revision, self.releasedAt, self.author, self.restoredFrom, self.summary) = (revision, releasedAt, author, restoredFrom, summary)
    }
}

/// What a release changed that clients see, against the release before it.
public struct ReleaseSummary: Sendable, Equatable, Codable {
    public struct Groups: Sendable, Equatable, Codable {
        public var added: [String], changed: [String], removed: [String]
        /// Whether groups that stayed changed places.
        public var reordered: Bool
    }
    public struct Stickers: Sendable, Equatable, Codable {
        public var added: Int, changed: Int, removed: Int
        /// The groups whose stickers changed order.
        public var reorderedIn: [String]
    }
    public struct Filters: Sendable, Equatable, Codable {
        public var added: [String], changed: [String], removed: [String]
    }
    public var groups: Groups
    public var stickers: Stickers
    public var filters: Filters
}

/// The outcome of restoring a release.
public struct RestoredRelease: Sendable, Equatable {
    /// The catalog's revision afterwards: a new release, or the current one when nothing differed.
    public var revision: Int64
    /// Whether anything differed from the release restored.
    public var changed: Bool

    public init(revision: Int64, changed: Bool) {
        (self.revision, self.changed) = (revision, changed)
    }
}

/// Who writes the catalog in the current task, recorded as the author of the release a write makes: set for an
/// admin's request by the HTTP layer; nil for the service's own work.
public enum ReleaseAuthor {
    @TaskLocal public static var name: String?
}
