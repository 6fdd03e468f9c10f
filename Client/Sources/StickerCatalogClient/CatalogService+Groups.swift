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
        try await versionedGroup(id, view: view).group
    }

    /// `group(_:view:)` with its `version`: the first page's ETag (a compressed answer's begins with it); nil when
    /// the service sent none a version can be read from.
    func versionedGroup(_ id: String, view: CatalogView) async throws -> (group: ManifestGroup, version: String?) {
        let (first, etag) = try await groupPage(id, view: view, cursor: nil)
        var group = first
        var seen = Set(group.stickers.map(\.id))
        var pages = 1
        while let cursor = group.next {
            guard pages < Self.maxGroupPages else {
                throw StickerClientError.invalidAnswer("a group in more than \(Self.maxGroupPages) pages")
            }
            let page = try await groupPage(id, view: view, cursor: cursor).group
            guard page.id == id, page.stickers.allSatisfy({ seen.insert($0.id).inserted }) else {
                throw StickerClientError.invalidAnswer("a page of group \(id) naming another group or a sticker again")
            }
            (group.stickers, group.next) = (group.stickers + page.stickers, page.next)
            pages += 1
        }
        return (group, etag.flatMap { Self.version(ofETag: $0) })
    }

    /// The version an ETag begins with: 32 lowercase hex digits inside its quotes; nil for any other ETag.
    static func version(ofETag etag: String) -> String? {
        var text = Substring(etag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        guard text.first == "\"" else { return nil }
        let digits = text.dropFirst().prefix(32)
        guard digits.utf8.count == 32,
            digits.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        let rest = text.dropFirst(33)
        return rest.first == "\"" || rest.first == "-" ? String(digits) : nil
    }

    private func groupPage(
        _ id: String, view: CatalogView, cursor: String?
    ) async throws -> (group: ManifestGroup, etag: String?) {
        let query = Operations.GetGroup.Input.Query(
            size: view.size, scale: view.scaleValue, format: view.format, locale: view.language, cursor: cursor)
        switch try await call({ try await api.getGroup(path: .init(id: id), query: query) }) {
        case .ok(let ok): return (try ok.body.json, ok.headers.eTag)
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

    /// `GET /v1/groups?ids=` in `view`: the versions of `ids` (at most 100), `etag` revalidated; groups gone from the
    /// view are not listed.
    func versions(of ids: [String], view: CatalogView, etag: String?) async throws -> Fresh<GroupIndexPage> {
        let query = Operations.GetGroupIndex.Input.Query(
            size: view.size, scale: view.scaleValue, format: view.format, locale: view.language,
            ids: ids.joined(separator: ","), limit: max(ids.count, 1))
        switch try await call({ try await api.getGroupIndex(query: query, headers: .init(ifNoneMatch: etag)) }) {
        case .ok(let ok): return .value(try ok.body.json, etag: ok.headers.eTag)
        case .notModified: return .notModified
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/groups")
        }
    }
}
