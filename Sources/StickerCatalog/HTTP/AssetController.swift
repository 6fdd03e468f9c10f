import Hummingbird

/// `GET|HEAD /v1/assets/{sha256}.png`: immutable image bytes, cacheable for a year.
struct AssetController {
    let store: AssetStore

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("{sha256}.png", use: asset)
    }

    @Sendable func asset(_ request: Request, context: AppRequestContext) async throws -> Response {
        // Only a well-formed digest reaches the store (and so the database).
        let text = context.parameters["sha256"] ?? ""
        guard let digest = AssetDigest(hex: text), let asset = try await store.asset(digest) else {
            throw CatalogError.notFound("Asset '\(text.prefix(64))'")
        }
        return try asset.response(for: request)
    }
}
