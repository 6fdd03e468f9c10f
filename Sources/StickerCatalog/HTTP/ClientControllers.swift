import Hummingbird

/// The client API: manifests, single groups and filters, all answered from `ManifestService`'s memory.
struct ManifestController {
    let service: ManifestService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("manifest", use: manifest)
        group.get("groups/{id}", use: stickerGroup)
        group.get("filters", use: filters)
    }

    @Sendable func manifest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = try ManifestQuery(parameters: Self.parameters(request))
        return try await service.body(for: .manifest(query)).response(for: request)
    }

    @Sendable func stickerGroup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        var parameters = Self.parameters(request)
        parameters["filter"] = nil
        parameters["flags"] = nil
        let query = try ManifestQuery(parameters: parameters)
        return try await service.body(for: .group(id, query)).response(for: request)
    }

    @Sendable func filters(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await service.body(for: .filters).response(for: request)
    }

    /// Query parameters, the first value of each.
    static func parameters(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters where result[String(key)] == nil {
            result[String(key)] = String(value)
        }
        return result
    }
}

/// `GET|HEAD /v1/assets/{sha256}.png`: immutable image bytes, cacheable for a year.
struct AssetController {
    let store: AssetStore

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("{sha256}.png", use: asset)
        group.head("{sha256}.png", use: asset)
    }

    @Sendable func asset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let sha = try context.parameters.require("sha256")
        guard sha.utf8.count == 64, sha.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let bytes = try await store.bytes(sha256: sha) else {
            throw Problem.notFound("Asset '\(sha)'")
        }
        var headers: HTTPFields = [.eTag: "\"\(sha)\"", .cacheControl: "public, max-age=31536000, immutable"]
        if ETag.matches(request.headers[.ifNoneMatch], "\"\(sha)\"") {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "image/png"
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: request.method == .head ? .init() : .init(byteBuffer: bytes))
    }
}
