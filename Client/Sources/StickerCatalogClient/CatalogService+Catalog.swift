import Foundation
import StickerCatalogAPI

// The catalog's other reads, as `manifest` and `changes` are made: through the generated client and
// `ServiceMiddleware`, so they carry the user's sign-in, the client's facts and its retries.
extension CatalogService {
    /// One page of `GET /v1/trending` in `view`.
    func trending(
        _ window: TrendWindow?, view: CatalogView, limit: Int?, cursor: String?
    ) async throws -> TrendingPage {
        let query = Operations.Trending.Input.Query(
            window: window, filter: view.filter, flags: view.flagList, size: view.size, scale: view.scaleValue,
            format: view.format, locale: view.language, limit: limit, cursor: cursor)
        switch try await call({ try await api.trending(query: query) }) {
        case .ok(let ok): return try ok.body.json
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/trending")
        }
    }

    /// `GET /v1/filters`.
    func filters() async throws -> [StickerFilter] {
        switch try await call({ try await api.listFilters() }) {
        case .ok(let ok): return try ok.body.json.filters
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/filters")
        }
    }

    /// `GET /v1/me/entitlements`: the signed-in user's.
    func entitlements() async throws -> EntitlementList {
        switch try await call({ try await api.getMyEntitlements() }) {
        case .ok(let ok): return try ok.body.json
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/me/entitlements")
        }
    }
}
