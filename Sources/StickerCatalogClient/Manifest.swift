import Foundation

// The service's answers as a client reads them (openapi.yaml: Manifest, ManifestGroup, ManifestChanges). Decoding
// ignores fields this version does not know, so a newer service does not break an older app.

/// The groups and stickers a view of the catalog shows, in display order, and the cursor the change feed picks up from.
public struct Manifest: Codable, Sendable, Equatable {
    public var revision: Int64
    public var cursor: String
    public var groups: [ManifestGroup]
}

/// A group as the view shows it; a locked (premium) group lists its cover and no stickers.
public struct ManifestGroup: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var sizeClass: String
    public var flags: [String]
    public var position: Int
    public var locked: Bool
    public var productId: String?
    public var cover: AssetLink?
    public var stickers: [ManifestSticker]
}

public struct ManifestSticker: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// The accessibility text (Messages' `localizedDescription`).
    public var description: String
    public var flags: [String]
    public var keywords: [String]
    public var emoji: [String]
    public var animated: Bool
    public var asset: AssetLink
    public var thumbnail: AssetLink
}

/// An image: where to fetch it (a path on the service or an absolute URL; premium ones signed and expiring), its
/// true size, and the digest and byte count a download must match.
public struct AssetLink: Codable, Sendable, Equatable {
    public var url: String
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var sha256: String
    public var animated: Bool
}

/// One page of `GET /v1/manifest/changes`.
struct ManifestChanges: Codable, Sendable {
    var revision: Int64
    var cursor: String
    var moreComing: Bool
    var groups: [ManifestGroup]
    var removedGroups: [String]
    var removedStickers: [String]
    var order: [String]
}

extension Manifest {
    /// Every image the manifest names (stickers, thumbnails, covers), by digest.
    public var assets: [String: AssetLink] {
        var all: [String: AssetLink] = [:]
        for group in groups {
            if let cover = group.cover { all[cover.sha256] = cover }
            for sticker in group.stickers { (all[sticker.asset.sha256], all[sticker.thumbnail.sha256]) = (sticker.asset, sticker.thumbnail) }
        }
        return all
    }

    /// This manifest with a change-feed page applied: each group listed replaces its copy, removed ones go, and the
    /// groups follow the page's order (a group the order names but this copy lacks arrives on a later page).
    func applying(_ page: ManifestChanges) -> Manifest {
        var byId = Dictionary(groups.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for group in page.groups { byId[group.id] = group }
        for id in page.removedGroups { byId[id] = nil }
        return Manifest(revision: page.revision, cursor: page.cursor, groups: page.order.compactMap { byId[$0] })
    }
}
