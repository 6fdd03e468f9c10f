import Foundation

/// Where a sync stands, for a status line or a spinner.
public enum SyncStatus: Sendable, Equatable {
    /// Nothing synced into the folder yet, and no sync running.
    case notSynced
    /// A sync is running; `progress` counts the files it fetches.
    case syncing(SyncProgress)
    /// The last sync completed; `pendingFiles` failed and are retried by the next one.
    case upToDate(revision: Int, at: Date, pendingFiles: Int)
    /// The last try failed with `error` (the catalog on disk stays usable).
    case offline(any Error, since: Date)

    /// Two statuses are equal when they say the same; two errors are, when they describe the same (`any Error` is not
    /// `Equatable`).
    public static func == (lhs: SyncStatus, rhs: SyncStatus) -> Bool {
        switch (lhs, rhs) {
        case (.notSynced, .notSynced): true
        case (.syncing(let a), .syncing(let b)): a == b
        case (.upToDate(let a, let at, let pending), .upToDate(let b, let bt, let bpending)):
            a == b && at == bt && pending == bpending
        case (.offline(let a, let since), .offline(let b, let bsince)):
            since == bsince && UnderlyingError(a) == UnderlyingError(b)
        default: false
        }
    }
}

/// Files and bytes a sync has fetched of those it needs.
public struct SyncProgress: Sendable, Equatable {
    public var files = 0
    public var totalFiles = 0
    public var bytes = 0
    public var totalBytes = 0

    public init(files: Int = 0, totalFiles: Int = 0, bytes: Int = 0, totalBytes: Int = 0) {
        (self.files, self.totalFiles, self.bytes, self.totalBytes) = (files, totalFiles, bytes, totalBytes)
    }

    /// 0 to 1, by bytes (1 when nothing is to fetch), never outside it whatever the counts say.
    public var fraction: Double { totalBytes <= 0 ? 1 : min(max(Double(bytes) / Double(totalBytes), 0), 1) }
}
