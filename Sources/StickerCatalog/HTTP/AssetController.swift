import Hummingbird

/// `GET|HEAD /v1/assets/{sha256}.png`: immutable image bytes, cacheable for a year.
struct AssetController {
    let store: AssetStore

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("{sha256}.png", use: asset)
    }

    @Sendable func asset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let sha = try context.parameters.require("sha256")
        // Only a well-formed digest reaches the store (and so the database).
        guard sha.utf8.count == 64, sha.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let bytes = try await store.bytes(sha256: sha) else {
            throw CatalogError.notFound("Asset '\(sha.prefix(64))'")
        }
        let etag = "\"\(sha)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=31536000, immutable"]
        if ETag.matches(request.headers[.ifNoneMatch], etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "image/png"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}
