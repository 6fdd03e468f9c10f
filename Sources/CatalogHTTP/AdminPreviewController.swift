import CatalogCore
import CatalogServices
import Hummingbird

/// `GET /v1/admin/users/{id}/manifest`: the manifest exactly as that user gets it (the premium groups they hold
/// unlocked, with signed URLs), so the console can preview a purchase without the user's token; `country`,
/// `platform`, `appVersion` and `bucket` stand in for what that user's app states (`AudienceFacts`).
package struct AdminPreviewController {
    package let service: ManifestService
    package let entitlements: EntitlementCache

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get("{id}/manifest", use: manifest)
    }

    @Sendable package func manifest(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let user = try AdminEntitlementController.user(context)
        let viewer = try await entitlements.viewer(user: user, parameters: ManifestController.parameters(request))
        return try await ManifestController.manifest(request, viewer: viewer, personal: true, from: service)
    }

    package init(service: ManifestService, entitlements: EntitlementCache) {
        self.service = service
        self.entitlements = entitlements
    }
}
