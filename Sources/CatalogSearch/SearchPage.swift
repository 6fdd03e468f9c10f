import CatalogCore
import Foundation
import StickerImage

/// One page of search results as clients get them, best first.
package struct SearchPage: Sendable {
    package var revision: Int64
    /// The query as asked, trimmed.
    package var query: String
    /// The catalog locale the request resolved to, as in the manifest.
    package var locale: String?
    /// Results on every page.
    package var total: Int
    /// Each result's JSON object (`SearchResult.json`).
    package var results: [[UInt8]]
    /// The cursor of the next page; null on the last.
    package var next: String?

    /// The answer's bytes (`SearchJSON`).
    package var json: [UInt8] {
        Self.json(locale: locale, next: next, query: query, results: results, revision: revision, total: total)
    }

    /// A page of results as search and trending answer it, keys sorted: the page's own field (search's `query`,
    /// trending's `window`) in its place among the shared ones.
    package static func json(
        locale: String?, next: String?, query: String? = nil, results: [[UInt8]], revision: Int64, total: Int,
        window: String? = nil
    ) -> [UInt8] {
        var writer = SearchJSON(capacity: 1024 + results.count * 1024)
        writer.object { page in
            page.field("locale", locale)
            page.field("next", next)
            if let query { page.field("query", query) }
            page.key("results")
            page.array(results) { $0.raw($1) }
            page.field("revision", revision)
            page.field("total", total)
            if let window { page.field("window", window) }
        }
        return writer.bytes
    }
}

/// A sticker found, in the asked locale, with its group; its pictures exactly as the manifest gives them, or none when
/// it is locked (a premium group the caller does not hold: `productId` says what to buy).
package struct SearchResult: Sendable {
    package struct Group: Sendable {
        package var id: String
        package var name: String
    }

    package var id: String
    package var name: String
    package var description: String
    package var keywords: [String]
    package var emoji: [String]
    package var flags: [String]
    package var group: Group
    package var locked: Bool
    package var productId: String?
    package var animated: Bool
    package var asset: AssetLink?
    package var thumbnail: AssetLink?
    /// Absent when locked, as its pictures are.
    package var placeholder: String? = nil

    /// This result's JSON object.
    package var json: [UInt8] {
        var json = SearchJSON(capacity: 1024)
        write(to: &json)
        return json.bytes
    }

    package func write(to json: inout SearchJSON) {
        json.object { json in
            json.field("animated", animated)
            if let asset {
                json.key("asset")
                asset.write(to: &json)
            }
            json.field("description", description)
            json.field("emoji", emoji)
            json.field("flags", flags)
            json.key("group")
            json.object {
                $0.field("id", group.id)
                $0.field("name", group.name)
            }
            json.field("id", id)
            json.field("keywords", keywords)
            json.field("locked", locked)
            json.field("name", name)
            if let placeholder { json.field("placeholder", placeholder) }
            json.field("productId", productId)
            if let thumbnail {
                json.key("thumbnail")
                thumbnail.write(to: &json)
            }
        }
    }
}

extension SearchResult {
    /// `sticker` of `group` as a result in `view`: locked, without pictures, when its group's product is not unlocked.
    package init(group: StickerGroup, sticker: Sticker, view: ManifestQuery, linker: AssetLinker) {
        let locked = group.productId.map { !view.unlocked.contains($0) } ?? false
        let shown = ManifestSticker(
            sticker, edge: view.edge(for: group), query: view, linker: linker,
            signedUntil: group.productId == nil && group.audience == nil ? nil : view.signedUntil)
        self.init(
            id: shown.id, name: shown.name, description: shown.description, keywords: shown.keywords,
            emoji: shown.emoji, flags: shown.flags,
            group: .init(
                id: group.id, name: localized(group.localizedNames, locale: view.locale, fallback: group.name)),
            locked: locked, productId: group.productId, animated: shown.animated,
            asset: locked ? nil : shown.asset, thumbnail: locked ? nil : shown.thumbnail,
            placeholder: locked ? nil : shown.placeholder)
    }

    /// The JSON of that result, from `fragments` when it has no signed URL (an unlocked premium result carries URLs
    /// signed for this user until a moment: never kept).
    package static func json(
        group: StickerGroup, sticker: Sticker, view: ManifestQuery, linker: AssetLinker,
        fragments: SearchFragments = { $1() }
    ) -> [UInt8] {
        let make = { SearchResult(group: group, sticker: sticker, view: view, linker: linker).json }
        let locked = group.productId.map { !view.unlocked.contains($0) } ?? false
        guard (group.productId == nil || locked) && group.audience == nil else { return make() }
        return fragments(SearchFragmentKey(sticker: sticker.id, view: view), make)
    }
}

extension AssetLink {
    package func write(to json: inout SearchJSON) {
        json.object { json in
            json.field("animated", animated)
            json.field("bytes", bytes)
            json.field("height", height)
            json.field("sha256", sha256)
            json.field("url", url)
            json.field("width", width)
        }
    }
}

extension SearchPage {
    /// The page `request` asks for from `index`; its view normalised for the index's snapshot (locale resolved,
    /// products cut to those that unlock something). Throws `unknownFilter` as the manifest does.
    /// A result's JSON without a signed URL is the same for every request with its view's size, scale, format and
    /// locale: `fragments` may keep it (`SearchService` does, per revision); a result with signed URLs is made anew.
    /// `matched` answers the matching (`SearchService` keeps its answers by `SearchMatchKey`, so a query written with
    /// other marks or case, or another page size, matches once).
    package static func build(
        _ request: SearchRequest, index: SearchIndex, linker: AssetLinker, popularity: Popularity? = nil,
        fragments: SearchFragments = { $1() },
        matched: SearchMatched = { key, index, ranks in
            index.matches(
                key.terms, required: Set(key.required), locale: key.locale, first: key.window, popularity: ranks,
                hiding: key.hidden)
        }
    ) throws(CatalogError) -> SearchPage {
        let view = request.view
        let required = try Manifest.requiredFlags(index.snapshot, view)
        let key = SearchMatchKey(
            terms: request.terms, required: required.sorted(), locale: view.locale,
            window: SearchMatchKey.window(request.offset + request.limit), popularity: popularity?.generation ?? 0,
            hidden: index.hiddenGroups(from: view))
        let (total, best) = matched(key, index, popularity?.ranks)
        let page = best.prefix(request.offset + request.limit).dropFirst(request.offset)
        let results = page.map { slot in
            let (group, sticker) = index.member(slot)
            return SearchResult.json(group: group, sticker: sticker, view: view, linker: linker, fragments: fragments)
        }
        let end = request.offset + results.count
        return SearchPage(
            revision: index.snapshot.revision, query: request.text, locale: view.locale, total: total, results: results,
            next: end < total && !results.isEmpty && end <= SearchCursor.maxOffset
                ? SearchCursor.encode(offset: end) : nil)
    }
}

/// The matches for a key in an index (ties by the popularity ranks given), from a cache or matched now.
package typealias SearchMatched = (SearchMatchKey, SearchIndex, [UInt16]?) -> (total: Int, best: [UInt32])

/// How popular each sticker of one index is, by slot (0 the most sent, `.max` never sent), and which reading of the
/// usage counts said so: answers matched with one generation are not reused with another.
package struct Popularity: Sendable {
    package let generation: Int
    package let ranks: [UInt16]

    package init(generation: Int, ranks: [UInt16]) { (self.generation, self.ranks) = (generation, ranks) }
}

/// What matching depends on, besides the snapshot: the folded terms (not the text as typed), the flags required, the
/// locale asked, and how many of the best are wanted, rounded up to `window(_:)` so page sizes share one answer.
package struct SearchMatchKey: Hashable, Sendable {
    package let terms: SearchTerms
    package let required: [String]
    package let locale: String?
    package let window: Int
    /// The `Popularity.generation` ties were broken by (0: none).
    package let popularity: Int
    /// The index's numbers of the restricted groups the view is not admitted to, ascending.
    package var hidden: [Int32] = []

    /// `wanted` rounded up to a multiple of 100.
    package static func window(_ wanted: Int) -> Int { (wanted + 99) / 100 * 100 }
}

/// Gives the JSON of a result (its key) from a cache, or what `make` makes.
package typealias SearchFragments = (SearchFragmentKey, () -> [UInt8]) -> [UInt8]

/// What a result without signed URLs depends on, besides the catalog's revision: the sticker (its group is the one it
/// is in at that revision; not its index slot, which another index of the same revision may number otherwise) and the
/// view's rendition and locale (filter and flags only choose which stickers match).
package struct SearchFragmentKey: Hashable, Sendable {
    package let sticker: UUID
    package let size: SizeClass?
    package let scale: Int
    package let format: PictureFormat
    package let locale: String?

    package init(sticker: UUID, view: ManifestQuery) {
        (self.sticker, size, scale, format, locale) = (sticker, view.size, view.scale, view.format, view.locale)
    }
}
