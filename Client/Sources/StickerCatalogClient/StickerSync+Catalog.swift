import StickerCatalogAPI

/// One page of trending stickers, most sent first; `next` asks for the page after it.
public typealias TrendingPage = Components.Schemas.TrendingPage
/// `day` (the default) or `week`.
public typealias TrendWindow = Components.Parameters.TrendWindow
/// A filter the catalog defines (`chocoholic`), with its title and the flags it selects.
public typealias StickerFilter = Components.Schemas.StickerFilter
/// What the signed-in user holds: each product, until when, and the transactions that grant it.
public typealias EntitlementList = Components.Schemas.EntitlementList

// What an app asks besides its synced catalog, with this sync's sign-in (`Credentials`), retries (503 and 429 after
// their Retry-After, lost connections with backoff) and facts (platform, app version, installation), in its view.
extension StickerSync {
    /// The stickers people send most in this sync's view, over `window`: one page of at most `limit` (1-100); pass
    /// the page's `next` as `after` for the one after it. Locked results come with their `productId` and no pictures.
    public func trending(
        _ window: TrendWindow? = nil, limit: Int? = nil, after cursor: String? = nil
    ) async throws -> TrendingPage {
        try await service.trending(window, view: view, limit: limit, cursor: cursor)
    }

    /// The filters the catalog defines, for a picker of modes ("chocoholic").
    public func filters() async throws -> [StickerFilter] {
        try await service.filters()
    }

    /// What the signed-in user holds.
    /// - Throws: `StickerClientError.refused` (401) without `Credentials` or with a token the service refuses.
    public func entitlements() async throws -> EntitlementList {
        try await service.entitlements()
    }

    /// One group as this sync's view shows it, with all its stickers (none when it is locked; a group of more than
    /// 500 comes in pages, fetched one after the other): to show a group before the catalog holding it is synced, or
    /// one a filter leaves out. Nothing is stored.
    /// - Throws: `StickerClientError.refused` (404) for a group the caller may not see.
    public func group(_ id: ManifestGroup.ID) async throws -> ManifestGroup {
        try await service.group(id, view: view)
    }

    /// One page of the group index as this sync's view shows it: the groups the caller may see, in catalog order,
    /// each with its cover and `version`, without their stickers; for catalogs too large for one manifest (the service
    /// answers `GET /v1/manifest` with 413 `manifest_too_large` past 32,768 stickers by default).
    /// - Parameters:
    ///   - q: only groups whose name or id contains it, case and accents aside.
    ///   - limit: groups a page, 1 to 500 (the service's default is 100).
    ///   - cursor: the previous page's `next`; nil for the first page.
    /// - Throws: `StickerClientError.refused` (410 `cursor_expired`) for a cursor the service cannot read: start again.
    public func groupIndex(
        matching q: String? = nil, limit: Int? = nil, after cursor: String? = nil
    ) async throws
        -> GroupIndexPage
    {
        try await service.groupIndex(view, q: q, limit: limit, cursor: cursor)
    }
}
