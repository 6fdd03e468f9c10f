import StickerCatalogAPI

// The service's answers as openapi.yaml defines them (StickerCatalogAPI, generated): the client names them after the
// domain rather than writing them a second time. Decoding ignores fields this version does not know.

/// The groups and stickers a view of the catalog shows, in display order, and the cursor the change feed picks up from.
public typealias Manifest = Components.Schemas.Manifest
/// A group as the view shows it; a locked (premium) group lists its cover and no stickers.
public typealias ManifestGroup = Components.Schemas.ManifestGroup
public typealias ManifestSticker = Components.Schemas.ManifestSticker
/// An image: where to fetch it, its true size, and the digest and byte count a download must match.
public typealias AssetLink = Components.Schemas.AssetLink
/// One page of the group index (`StickerSync.groupIndex`): groups without their stickers, and the cursor of the next.
public typealias GroupIndexPage = Components.Schemas.GroupIndexPage
/// A group as the index lists it: its cover at the view's size, how many stickers, whether locked, and its `version`,
/// which moves whenever the group as this view shows it changes.
public typealias GroupSummary = Components.Schemas.GroupSummary
/// One page of search results, best first; `next` asks for the page after it.
public typealias SearchPage = Components.Schemas.SearchPage
/// A sticker found: its texts in the view's locale, its group, and its pictures as the manifest gives them (none when
/// `locked`: a premium group the user does not hold, which `productId` sells).
public typealias SearchResult = Components.Schemas.SearchResult
/// What the user did with a sticker, for `StickerSync.record(_:sticker:)`: sent it, saw it in a grid, tapped it to
/// preview it.
public typealias UsageAction = Components.Schemas.UsageAction
/// One page of `GET /v1/manifest/changes`.
typealias ManifestChanges = Components.Schemas.ManifestChanges

// Ids are stable and unique (a manifest or page that repeats one is refused): SwiftUI's `ForEach` takes these as they
// are.
extension ManifestGroup: Identifiable {}
extension GroupSummary: Identifiable {}
extension ManifestSticker: Identifiable {}
extension SearchResult: Identifiable {}

extension Manifest {
    /// Every image the manifest names (stickers, thumbnails, covers), by digest.
    public var assets: [String: AssetLink] {
        var all: [String: AssetLink] = [:]
        for group in groups {
            if let cover = group.cover { all[cover.sha256] = cover }
            for sticker in group.stickers {
                (all[sticker.asset.sha256], all[sticker.thumbnail.sha256]) = (sticker.asset, sticker.thumbnail)
            }
        }
        return all
    }

    /// This manifest with a change-feed page applied: each group listed replaces its copy, removed ones go, and the
    /// groups follow the page's order (a group the order names but this copy lacks arrives on a later page: on the
    /// last page, one still missing is a lie, refused, as is a result that names a sticker twice).
    func applying(_ page: ManifestChanges) throws -> Manifest {
        var byId = Dictionary(groups.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for group in page.groups { byId[group.id] = group }
        for id in page.removedGroups { byId[id] = nil }
        var next = self
        (next.revision, next.cursor, next.groups) = (page.revision, page.cursor, page.order.compactMap { byId[$0] })
        if !page.moreComing, next.groups.count != page.order.count {
            throw StickerClientError.invalidAnswer("a change page whose order names a group neither kept nor sent")
        }
        try next.check()
        return next
    }
}

// Values the service chooses are open (openapi.yaml's "Evolution"): a later service may add a size class, a scale or
// a trending window, and an app already shipped must go on syncing. Each comes as the generated `anyOf` of the values
// this version knows and any value of the type; `known` is nil for one it does not.

/// A size class as the service states it.
public typealias ServedSizeClass = Components.Schemas.ServedSizeClass
/// A display scale as the service states it.
public typealias ServedScale = Components.Schemas.ServedScale

extension Components.Schemas.ServedSizeClass {
    /// The size class, when this version of the library knows it; nil for one added to the service since.
    public var known: StickerSize? { value1 }
    /// Its name as the service sent it (`small`, or one this version does not know).
    public var name: String { value2 ?? value1?.rawValue ?? "" }
}

extension Components.Schemas.ServedScale {
    /// The scale, when this version of the library knows it.
    public var known: DisplayScale? { (value2 ?? value1?.rawValue).flatMap(DisplayScale.init(rawValue:)) }
    /// The scale as the service sent it.
    public var value: Int { value2 ?? value1?.rawValue ?? 0 }
}
