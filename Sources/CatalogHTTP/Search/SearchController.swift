import CatalogCore
import CatalogSearch
import CatalogServices
import Hummingbird

/// `GET /v1/search` and `/v1/search/suggestions`: stickers by word, prefix, typo or emoji in the manifest's view, and
/// completions for a search box. A signed-in user's premium stickers come unlocked, as in the manifest.
package struct SearchController {
    package let service: SearchService
    package let entitlements: EntitlementCache

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("search", use: search)
        group.get("search/suggestions", use: suggestions)
    }

    @Sendable package func search(_ request: Request, context: AppRequestContext) async throws -> Response {
        let parsed = try SearchRequest(parameters: ManifestController.parameters(request))
        let personal = context.user != nil
        let body = try await service.results(
            parsed, viewer: try await entitlements.viewer(of: context))
        return try await Self.respond(body, to: request, personal: personal)
    }

    @Sendable package func suggestions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let parameters = ManifestController.parameters(request)
        let prefix = try SearchRequest.text(parameters["q"])
        var locale: String?
        if let raw = parameters["locale"] {
            guard let tag = LocaleTag.canonical(raw) else {
                throw CatalogError.invalidParameter(name: "locale", rule: "must be a language tag such as fr or pt-BR")
            }
            locale = tag
        }
        return try await Self.respond(
            try await service.suggestions(prefix, locale: locale), to: request, personal: false)
    }

    /// `body` in the coding the client prefers, compressed at the fast level on a build thread the first time.
    package static func respond(_ body: CachedBody, to request: Request, personal: Bool) async throws -> Response {
        let (coding, ready, _) = body.select(request.headers[.acceptEncoding])
        let representation =
            if let ready { ready } else { try await ManifestWorkers.shared.build { body.compress(coding, .fast) } }
        return body.response(representation, for: request, personal: personal)
    }

    package init(service: SearchService, entitlements: EntitlementCache) {
        self.service = service
        self.entitlements = entitlements
    }
}
