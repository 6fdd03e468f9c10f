import CatalogCore
import Foundation

/// `GET /v1/trending` as a client asks it: the window, the manifest's view, and the page. All validated.
package struct TrendingRequest: Hashable, Sendable {
    package var window: TrendWindow
    package var view: ManifestQuery
    package var limit: Int
    package var offset: Int

    package init(parameters: [String: String]) throws(CatalogError) {
        window = .day
        if let raw = parameters["window"] {
            guard let value = TrendWindow(rawValue: raw) else {
                throw .invalidParameter(name: "window", rule: "must be day or week")
            }
            window = value
        }
        view = try ManifestQuery(parameters: parameters)
        (limit, offset) = try SearchCursor.page(
            parameters, defaultLimit: SearchRequest.defaultLimit, maxLimit: SearchRequest.maxLimit)
    }
}

/// One page of trending stickers, hottest first: search's results, without a query.
package struct TrendingPage: Sendable {
    package var window: TrendWindow
    package var revision: Int64
    package var locale: String?
    package var total: Int
    package var results: [[UInt8]]
    package var next: String?

    package var json: [UInt8] {
        SearchPage.json(
            locale: locale, next: next, results: results, revision: revision, total: total, window: window.rawValue)
    }

    /// The page `request` asks for of `ranked` (visible stickers of `snapshot`, hottest first): those the view's filter
    /// and flags select, each as search shows it (locked without pictures unless its product is unlocked).
    package static func build(
        _ request: TrendingRequest, snapshot: CatalogSnapshot,
        ranked: [(group: StickerGroup, sticker: Sticker)], linker: AssetLinker,
        fragments: SearchFragments = { $1() }
    ) throws(CatalogError) -> TrendingPage {
        let view = request.view
        let required = try Manifest.requiredFlags(snapshot, view)
        let selected = ranked.filter {
            view.shows($0.group)
                && isSelected(requiredFlags: required, groupFlags: $0.group.flags, stickerFlags: $0.sticker.flags)
        }
        let page = selected.dropFirst(request.offset).prefix(request.limit)
        let results = page.map {
            SearchResult.json(group: $0.group, sticker: $0.sticker, view: view, linker: linker, fragments: fragments)
        }
        let end = request.offset + results.count
        return TrendingPage(
            window: request.window, revision: snapshot.revision, locale: view.locale, total: selected.count,
            results: results,
            next: end < selected.count && !results.isEmpty && end <= SearchCursor.maxOffset
                ? SearchCursor.encode(offset: end) : nil)
    }
}
