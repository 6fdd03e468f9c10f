import Hummingbird

/// `GET /v1/admin/users/{id}/manifest`: the manifest exactly as that user gets it (the premium groups they hold
/// unlocked, with signed URLs), so the console can preview a purchase without the user's token.
struct AdminPreviewController {
    let service: ManifestService
    let entitlements: EntitlementCache

    func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get("{id}/manifest", use: manifest)
    }

    @Sendable func manifest(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let user = try AdminEntitlementController.user(context)
        return try await ManifestController.manifest(request, held: try await entitlements.products(of: user), personal: true, from: service)
    }
}
