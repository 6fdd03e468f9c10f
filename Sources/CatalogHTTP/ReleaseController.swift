import CatalogCore
import CatalogServices
import Foundation
import Hummingbird

/// `/v1/admin/releases`: the kept releases newest first, the manifest as each left the catalog, and restoring one.
package struct ReleaseController {
    package let repository: any ReleaseRepository
    package let manifests: ManifestService
    package let entitlements: EntitlementCache

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get(use: list)
        group.get("{revision}/manifest", use: manifest)
        group.post("{revision}/restore", use: restore)
    }

    /// Revisions are positive integers; anything else names no release (and never reaches SQL).
    package static func revision(_ context: AdminRequestContext) throws -> Int64 {
        let text = try context.parameters.require("revision")
        guard text.utf8.count <= 19, text.allSatisfy(\.isASCII), let revision = Int64(text), revision > 0 else {
            throw CatalogError.notFound("Release '\(text.prefix(64))'")
        }
        return revision
    }

    /// `limit` (1-200, default 50) releases below `before` (a revision; the newest when absent).
    @Sendable package func list(_ request: Request, context: AdminRequestContext) async throws -> ReleasePage {
        let limit = try GroupController.integer(request, "limit", default: 50, range: 1...200)
        var before: Int64?
        if let text = request.uri.queryParameters["before"] {
            guard text.utf8.count <= 19, let value = Int64(text), value > 0 else {
                throw CatalogError.invalidParameter(name: "before", rule: "must be a revision, a positive integer")
            }
            before = value
        }
        let (releases, more) = try await repository.releases(before: before, limit: limit)
        return ReleasePage(releases: releases, limit: limit, nextBefore: more ? releases.last?.revision : nil)
    }

    @Sendable package func manifest(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let revision = try Self.revision(context)
        guard let snapshot = try await repository.snapshot(release: revision) else {
            throw CatalogError.notFound("Release \(revision)")
        }
        return try await ManifestPreviewController.render(
            snapshot, parameters: ManifestController.parameters(request),
            manifests: manifests, entitlements: entitlements)
    }

    @Sendable package func restore(_ request: Request, context: AdminRequestContext) async throws -> RestoreResponse {
        let revision = try Self.revision(context)
        let answer = { @Sendable (restored: RestoredRelease?) throws in
            guard let restored else { throw CatalogError.notFound("Release \(revision)") }
            return RestoreResponse(revision: restored.revision, changed: restored.changed, restoredFrom: revision)
        }
        let response = try answer(
            try await repository.restore(release: revision, keeping: context.keeping(request, answer)))
        context.logger.info(
            response.changed ? "Release restored" : "Release restored: nothing differed",
            metadata: ["release": "\(revision)", "revision": "\(response.revision)"])
        return response
    }

    package init(repository: any ReleaseRepository, manifests: ManifestService, entitlements: EntitlementCache) {
        self.repository = repository
        self.manifests = manifests
        self.entitlements = entitlements
    }
}

/// A page of releases, newest first; `nextBefore` asks for the next.
package struct ReleasePage: ResponseEncodable {
    package var releases: [Release]
    package var limit: Int
    package var nextBefore: Int64?

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(releases, forKey: .releases)
        try c.encode(limit, forKey: .limit)
        try c.encode(nextBefore, forKey: .nextBefore)
    }

    package enum CodingKeys: String, CodingKey { case releases, limit, nextBefore }
}

/// What a restore did: the catalog's revision afterwards, whether anything differed, and the release brought back.
package struct RestoreResponse: ResponseEncodable {
    package var revision: Int64
    package var changed: Bool
    package var restoredFrom: Int64
}
