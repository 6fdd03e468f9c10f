import CatalogCore
import CatalogServices
import Foundation
import HTTPTypes
import Hummingbird
import Purchases

/// `/v1/webhooks`: App Store Server Notifications V2, RevenueCat and the generic signed webhook. Every delivery is
/// stored before it is answered; 200 once stored (a duplicate too), 409 for a reused id, 400/401/422 for a refused
/// one (kept in quarantine), 503 only when it cannot be stored.
package struct WebhookController {
    package let intake: PurchaseIntake
    package let metrics: CatalogMetrics

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("apple/{environment}", use: apple)
        group.post("revenuecat", use: revenueCat)
        group.post("purchases", use: generic)
    }

    @Sendable package func apple(_ request: Request, context: AppRequestContext) async throws -> DeliveryResponse {
        let environment = try context.parameters.require("environment")
        guard environment == "production" || environment == "sandbox" else {
            throw CatalogError.notFound("Webhook URL for environment '\(environment.prefix(32))'")
        }
        return try await receive(
            Delivery(source: .apple, environment: environment, body: try await body(request, context)), context)
    }

    @Sendable package func revenueCat(_ request: Request, context: AppRequestContext) async throws -> DeliveryResponse {
        try await receive(
            Delivery(
                source: .revenueCat, body: try await body(request, context), credential: request.headers[.authorization]
            ), context)
    }

    @Sendable package func generic(_ request: Request, context: AppRequestContext) async throws -> DeliveryResponse {
        try await receive(
            Delivery(
                source: .generic, body: try await body(request, context), credential: request.headers[.stickerSignature]
            ), context)
    }

    private func body(_ request: Request, _ context: AppRequestContext) async throws -> [UInt8] {
        Array(buffer: try await request.body.collect(upTo: context.maxUploadSize))
    }

    private func receive(_ delivery: Delivery, _ context: AppRequestContext) async throws -> DeliveryResponse {
        let receipt = try await intake.receive(delivery)
        metrics.delivery(source: delivery.source.rawValue, outcome: receipt.outcome)
        context.logger.info(
            "Webhook delivery", metadata: ["source": "\(delivery.source.rawValue)", "receipt": "\(receipt)"])
        return try Self.check(receipt)
    }

    /// The answer to a stored delivery; a problem for a refused or conflicting one.
    @discardableResult
    package static func check(_ receipt: Receipt) throws -> DeliveryResponse {
        switch receipt {
        case .stored(let id, let status): return DeliveryResponse(id: id, status: status, duplicate: false)
        case .duplicate(let id, let status): return DeliveryResponse(id: id, status: status, duplicate: true)
        case .conflict(let id, let existing):
            throw Problem(
                .conflict, "event_conflict",
                "Event id already stored (webhook event \(existing)) with a different body; this delivery is kept as webhook event \(id)."
            )
        case .quarantined(let id, let error):
            throw Problem(purchase: error, quarantinedAs: id)
        }
    }

    package init(intake: PurchaseIntake, metrics: CatalogMetrics) {
        self.intake = intake
        self.metrics = metrics
    }
}

extension HTTPField.Name {
    /// The generic webhook's signature header.
    package static let stickerSignature = Self("Sticker-Signature")!
}
