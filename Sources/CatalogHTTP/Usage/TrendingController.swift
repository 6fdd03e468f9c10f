import CatalogCore
import CatalogSearch
import CatalogServices
import Hummingbird

/// `GET /v1/trending`: the most sent visible stickers of the last day or week in the manifest's view, from memory; a
/// signed-in user's premium stickers come unlocked, as in search.
package struct TrendingController {
    package let service: TrendingService
    package let entitlements: EntitlementCache

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("trending", use: trending)
    }

    @Sendable package func trending(_ request: Request, context: AppRequestContext) async throws -> Response {
        let parsed = try TrendingRequest(parameters: ManifestController.parameters(request))
        let body = try await service.page(
            parsed, viewer: try await entitlements.viewer(of: context))
        return try await SearchController.respond(body, to: request, personal: context.user != nil)
    }

    package init(service: TrendingService, entitlements: EntitlementCache) {
        (self.service, self.entitlements) = (service, entitlements)
    }
}
