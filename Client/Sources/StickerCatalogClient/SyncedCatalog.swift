import Foundation

/// A complete sync as an app shows it: the manifest, in display order, and where each picture is on disk. Stickers
/// whose new files could not be fetched show their previous version, or are left out until a later sync fetches them.
public struct SyncedCatalog: Sendable {
    public let manifest: Manifest
    public let syncedAt: Date
    /// Files the last sync could not fetch; the next sync tries them again.
    public let pendingFiles: Int
    let folder: LocalCatalog

    public var revision: Int { manifest.revision }
    public var groups: [ManifestGroup] { manifest.groups }

    /// Where the file of `asset` is kept.
    public func fileURL(for asset: AssetLink) -> URL {
        folder.fileURL(for: asset)
    }
}
