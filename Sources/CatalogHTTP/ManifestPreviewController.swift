import CatalogCore
import CatalogServices
import Foundation
import Hummingbird
import NIOCore

/// `GET /v1/admin/manifest?at=…`: the manifest as it will be at a moment, with what is scheduled now, in the
/// manifest's view (`filter`, `flags`, `locale`, `size`, `scale`, `format`), as anyone or as `user` sees it, from a
/// `country`, `platform`, `appVersion` and `bucket` for restricted groups (`AudienceFacts`). Read from
/// the primary every time and never cached: a preview is rare, and must show what was scheduled a second ago.
package struct ManifestPreviewController {
    package let schedule: any CatalogSchedule
    package let manifests: ManifestService
    package let entitlements: EntitlementCache
    package let clock: any ScheduleClock

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get("manifest", use: manifest)
    }

    @Sendable package func manifest(_ request: Request, context: AdminRequestContext) async throws -> Response {
        var parameters = ManifestController.parameters(request)
        let moment = try Self.moment(parameters.removeValue(forKey: "at")) ?? clock.now()
        let snapshot = try await schedule.snapshot(at: moment)
        return try await Self.render(snapshot, parameters: parameters, manifests: manifests, entitlements: entitlements)
    }

    /// A manifest for an admin's eyes (`ManifestService.preview`): `snapshot` in the view `parameters` ask for, as
    /// anyone or as their `user` sees it, never cached.
    package static func render(
        _ snapshot: CatalogSnapshot, parameters: [String: String], manifests: ManifestService,
        entitlements: EntitlementCache
    ) async throws -> Response {
        var parameters = parameters
        let user = try Self.user(parameters.removeValue(forKey: "user"))
        let viewer = try await entitlements.viewer(user: user, parameters: parameters)
        let query = try ManifestQuery(parameters: parameters)
        let json = try await manifests.preview(snapshot, view: query, viewer: viewer)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    /// `at`: any RFC 3339 moment (a preview of the past shows what is scheduled now as it would have been); absent is
    /// now.
    package static func moment(_ text: String?) throws(CatalogError) -> Date? {
        guard let text else { return nil }
        guard let date = RFC3339.date(text) else {
            throw .invalidParameter(name: "at", rule: "must be an RFC 3339 date-time such as 2026-12-24T00:00:00Z")
        }
        return date
    }

    /// `user`: 1 to 255 code points (as JSON Schema's `maxLength` counts, not graphemes) without controls, as the user
    /// routes take it.
    package static func user(_ text: String?) throws(CatalogError) -> String? {
        guard let text else { return nil }
        guard (1...255).contains(text.unicodeScalars.count),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalidParameter(
                name: "user", rule: "must be a user id of 1 to 255 characters without control characters")
        }
        return text
    }

    package init(
        schedule: any CatalogSchedule, manifests: ManifestService, entitlements: EntitlementCache,
        clock: any ScheduleClock
    ) {
        self.schedule = schedule
        self.manifests = manifests
        self.entitlements = entitlements
        self.clock = clock
    }
}
