import Foundation

/// Where a sync stands, for a status line or a spinner.
public enum SyncStatus: Sendable {
    /// Nothing synced into the folder yet, and no sync running.
    case notSynced
    /// A sync is running; `progress` counts the files it fetches.
    case syncing(SyncProgress)
    /// The last sync completed; `pendingFiles` failed and are retried by the next one.
    case upToDate(revision: Int, at: Date, pendingFiles: Int)
    /// The last try failed with `error` (the catalog on disk stays usable).
    case offline(any Error, since: Date)
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

    /// 0 to 1, by bytes (1 when nothing is to fetch).
    public var fraction: Double { totalBytes == 0 ? 1 : Double(bytes) / Double(totalBytes) }
}
