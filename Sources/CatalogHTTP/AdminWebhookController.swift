import CatalogCore
import CatalogServices
import Foundation
import Hummingbird
import Purchases

/// `/v1/admin/webhook-events`: stored deliveries (inbox and quarantine), one with its raw body, and replay.
package struct AdminWebhookController {
    package let intake: PurchaseIntake

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get(use: list)
        group.get("{id}", use: show)
        group.post("{id}/replay", use: replay)
    }

    package static func id(_ context: AdminRequestContext) throws -> Int64 {
        let text = try context.parameters.require("id")
        guard let id = Int64(text), id > 0 else { throw CatalogError.notFound("Webhook event '\(text.prefix(32))'") }
        return id
    }

    @Sendable package func list(_ request: Request, context: AdminRequestContext) async throws -> WebhookEventPage {
        let limit = try GroupController.integer(request, "limit", default: 50, range: 1...200)
        let before = try GroupController.integer(request, "before", default: Int(Int64.max), range: 1...Int(Int64.max))
        var status: WebhookStatus?
        if let text = request.uri.queryParameters["status"] {
            guard let value = WebhookStatus(rawValue: String(text)) else {
                throw CatalogError.invalidParameter(
                    name: "status",
                    rule: "must be one of " + WebhookStatus.allCases.map(\.rawValue).joined(separator: ", "))
            }
            status = value
        }
        let events = try await intake.repository.webhookEvents(status: status, before: Int64(before), limit: limit + 1)
        return WebhookEventPage(
            events: Array(events.prefix(limit)), nextBefore: events.count > limit ? events[limit - 1].id : nil)
    }

    @Sendable package func show(_ request: Request, context: AdminRequestContext) async throws -> WebhookEvent {
        let id = try Self.id(context)
        guard let event = try await intake.repository.webhookEvent(id: id) else {
            throw CatalogError.notFound("Webhook event \(id)")
        }
        return event
    }

    /// Checks the stored delivery again with today's configuration and applies it (a quarantined one that now passes
    /// enters the inbox); answered like the delivery itself.
    @Sendable package func replay(_ request: Request, context: AdminRequestContext) async throws -> DeliveryResponse {
        let id = try Self.id(context)
        guard let receipt = try await intake.replay(id: id) else { throw CatalogError.notFound("Webhook event \(id)") }
        context.logger.info("Webhook event replayed", metadata: ["event": "\(id)", "receipt": "\(receipt)"])
        return try WebhookController.check(receipt)
    }

    package init(intake: PurchaseIntake) {
        self.intake = intake
    }
}
