import CatalogCore
import CatalogServices
import Hummingbird

/// `GET /v1/manifest/changes?since=CURSOR`: what changed in the caller's view since a cursor, a page at a time
/// (`ChangeFeed`); 304 when nothing did, 410 `cursor_expired` when the client must start over from the manifest.
package struct ChangeFeedController {
    package let feed: ChangeFeed
    package let entitlements: EntitlementCache

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("manifest/changes", use: changes)
    }

    @Sendable package func changes(_ request: Request, context: AppRequestContext) async throws -> Response {
        var parameters = ManifestController.parameters(request)
        guard let since = parameters.removeValue(forKey: "since") else {
            throw CatalogError.invalidParameter(
                name: "since", rule: "is required: the cursor of a manifest or of a change feed answer")
        }
        var limit = ManifestChanges.defaultLimit
        if let text = parameters.removeValue(forKey: "limit") {
            guard let value = Int(text), (1...ManifestChanges.maxLimit).contains(value) else {
                throw CatalogError.invalidParameter(
                    name: "limit", rule: "must be a whole number from 1 to \(ManifestChanges.maxLimit)")
            }
            limit = value
        }
        let view = try ManifestQuery(parameters: parameters)
        // After the view's parameters: a malformed request is a 400 whatever its cursor says. Before anything is read:
        // a cursor the service did not sign is a 410 that costs no query.
        let cursor = try ChangeCursor(encoded: since, key: feed.cursorKey)
        switch try await feed.page(
            view: view, viewer: try await entitlements.viewer(of: context), cursor: cursor,
            limit: limit)
        {
        case .notModified:
            return Response(status: .notModified, headers: [.cacheControl: "private, no-cache"])
        case .page(let page):
            return try await feed.response(page, for: request)
        }
    }

    package init(feed: ChangeFeed, entitlements: EntitlementCache) {
        self.feed = feed
        self.entitlements = entitlements
    }
}
