import Foundation
import OpenAPIRuntime
import StickerCatalogAPI

extension CatalogService {
    /// The most pages one group may come in: 100,000 stickers at the service's 500 a page. A service that sends more
    /// is refused rather than followed for ever.
    static let maxGroupPages = 200

    /// `GET /v1/groups/{id}` in `view`, every page of it: the group with all its stickers (none when it is locked). Each
    /// page must be of the group asked for, and no sticker may come twice.
    func group(_ id: String, view: CatalogView) async throws -> ManifestGroup {
        var group = try await groupPage(id, view: view, cursor: nil)
        var seen = Set(group.stickers.map(\.id))
        var pages = 1
        while let cursor = group.next {
            guard pages < Self.maxGroupPages else {
                throw StickerClientError.invalidAnswer("a group in more than \(Self.maxGroupPages) pages")
            }
            let page = try await groupPage(id, view: view, cursor: cursor)
            guard page.id == id, page.stickers.allSatisfy({ seen.insert($0.id).inserted }) else {
                throw StickerClientError.invalidAnswer("a page of group \(id) naming another group or a sticker again")
            }
            (group.stickers, group.next) = (group.stickers + page.stickers, page.next)
            pages += 1
        }
        return group
    }

    private func groupPage(_ id: String, view: CatalogView, cursor: String?) async throws -> ManifestGroup {
        let query = Operations.GetGroup.Input.Query(
            size: view.size, scale: view.scaleValue, format: view.format, locale: view.language, cursor: cursor)
        switch try await call({ try await api.getGroup(path: .init(id: id), query: query) }) {
        case .ok(let ok): return try ok.body.json
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/groups/{id}")
        }
    }

    /// One page of `GET /v1/groups` in `view`: groups whose name contains `q`, `limit` a page, after `cursor`.
    func groupIndex(_ view: CatalogView, q: String?, limit: Int?, cursor: String?) async throws -> GroupIndexPage {
        let query = Operations.GetGroupIndex.Input.Query(
            filter: view.filter, flags: view.flagList, size: view.size, scale: view.scaleValue, format: view.format,
            locale: view.language, q: q, limit: limit, cursor: cursor)
        switch try await call({ try await api.getGroupIndex(query: query) }) {
        case .ok(let ok): return try ok.body.json
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/groups")
        }
    }
}
