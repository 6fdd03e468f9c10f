import CatalogCore
import CatalogServices
import Hummingbird

/// The client API: manifests, single groups and filters, all answered from `ManifestService`'s memory; a signed-in
/// user's premium groups unlocked by what `EntitlementCache` says they hold.
package struct ManifestController {
    package let service: ManifestService
    package let entitlements: EntitlementCache

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("manifest", use: manifest)
        group.get("groups", use: groupIndex)
        group.get("groups/{id}", use: stickerGroup)
        group.get("filters", use: filters)
    }

    @Sendable package func manifest(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await Self.manifest(
            request, viewer: try await entitlements.viewer(of: context), personal: context.user != nil, from: service)
    }

    /// The manifest `request` asks for, as `viewer` sees it: a user's own request, and the admin's preview of it.
    package static func manifest(
        _ request: Request, viewer: Viewer, personal: Bool, from service: ManifestService
    ) async throws -> Response {
        let served = try await service.body(route: "manifest", query: request.uri.query, viewer: viewer) {
            .manifest(request.uri.query == nil ? ManifestQuery() : try ManifestQuery(parameters: parameters(request)))
        }
        return try await service.response(served, for: request, personal: personal)
    }

    @Sendable package func stickerGroup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard Validate.isSlug(id) else { throw CatalogError.notFound("Group '\(id.prefix(64))'") }
        let served = try await service.body(
            route: "group/" + id, query: request.uri.query, viewer: try await entitlements.viewer(of: context)
        ) { [key = service.linker.cursorKey] in
            var parameters = Self.parameters(request)
            parameters["filter"] = nil
            parameters["flags"] = nil
            return .group(
                id, try ManifestQuery(parameters: parameters), try StickerPage(parameters: parameters, key: key))
        }
        return try await service.response(served, for: request, personal: context.user != nil)
    }

    /// `GET /v1/groups`: a page of the group index, for the view the manifest's parameters name.
    @Sendable package func groupIndex(_ request: Request, context: AppRequestContext) async throws -> Response {
        let served = try await service.body(
            route: "groups", query: request.uri.query, viewer: try await entitlements.viewer(of: context)
        ) { [key = service.linker.cursorKey] in
            let parameters = Self.parameters(request)
            return .index(
                try ManifestQuery(parameters: parameters), try GroupIndexRequest(parameters: parameters, key: key))
        }
        return try await service.response(served, for: request, personal: context.user != nil)
    }

    @Sendable package func filters(_ request: Request, context: AppRequestContext) async throws -> Response {
        let served = try await service.body(for: .filters)
        return try await service.response(served, for: request)
    }

    /// Query parameters, the first value of each.
    package static func parameters(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters where result[String(key)] == nil {
            result[String(key)] = String(value)
        }
        return result
    }

    package init(service: ManifestService, entitlements: EntitlementCache) {
        self.service = service
        self.entitlements = entitlements
    }
}
