import CatalogCore
import Foundation
import Purchases

/// Checks every delivery the way its source requires, then has it stored and applied; replays stored ones.
/// Signature checks run here, in the request's task on Swift's global executor, never on an event loop.
package struct PurchaseIntake: Sendable {
    package let repository: any PurchaseRepository
    package let configuration: PurchaseConfiguration

    package init(repository: any PurchaseRepository, configuration: PurchaseConfiguration) {
        (self.repository, self.configuration) = (repository, configuration)
    }

    /// Verifies, stores and applies a delivery; `now` anchors the generic webhook's window.
    package func receive(_ delivery: Delivery, now: Date = Date()) async throws -> Receipt {
        var delivery = delivery
        let verdict = await verify(delivery, now: now, replaying: false)
        if case .success(let event) = verdict, delivery.source != .apple { delivery.environment = event.environment }
        if delivery.source == .revenueCat { delivery.credential = nil }
        // A header longer than any the generic webhook reads was refused; its first bytes are kept, not the rest.
        delivery.credential = delivery.credential.map { Self.prefix($0, bytes: SignedWebhook.maxHeaderBytes) }
        return try await repository.receive(delivery, verdict: verdict)
    }

    /// The longest prefix of `text` within `bytes` UTF-8 bytes, cut between characters' scalars.
    package static func prefix(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var total = 0
        let kept = text.unicodeScalars.prefix { scalar in
            total += UTF8.width(scalar)
            return total <= bytes
        }
        return String(String.UnicodeScalarView(kept))
    }

    /// Checks stored delivery `id` again with today's configuration and applies it; nil when there is none.
    package func replay(id: Int64) async throws -> Receipt? {
        guard let (delivery, status) = try await repository.storedDelivery(id: id) else { return nil }
        if delivery.source == .revenueCat && status == .unauthorized {
            throw EntitlementError.notReplayable(
                "RevenueCat's Authorization header is not stored, so this delivery cannot be authenticated again")
        }
        return try await repository.replay(id: id, verdict: await verify(delivery, now: Date(), replaying: true))
    }

    /// The event a delivery carries, or why it is refused. A replay does not hold the generic webhook to its time
    /// window (it was checked on arrival; the signature still is), nor RevenueCat to its header (never stored).
    package func verify(_ delivery: Delivery, now: Date, replaying: Bool) async -> Result<PurchaseEvent, PurchaseError>
    {
        do throws(PurchaseError) {
            switch delivery.source {
            case .apple:
                guard let apple = configuration.apple else {
                    throw .unauthorized("App Store notifications are not configured (STICKER_APPLE_ROOT_CERTS)")
                }
                let event = try await AppleNotifications.event(
                    body: delivery.body, environment: delivery.environment, configuration: apple)
                return .success(try event.checked().dated(notAfter: now))
            case .appleClient:
                guard let apple = configuration.apple else {
                    throw .unauthorized("App Store transactions are not configured (STICKER_APPLE_ROOT_CERTS)")
                }
                let event = try await AppleNotifications.clientTransaction(body: delivery.body, configuration: apple)
                return .success(try event.checked().dated(notAfter: now))
            case .revenueCat:
                if !replaying {
                    guard let expected = configuration.revenueCatAuthorization else {
                        throw .unauthorized("RevenueCat is not configured (STICKER_REVENUECAT_AUTH)")
                    }
                    guard RevenueCat.isAuthorized(delivery.credential, expected: expected) else {
                        throw .unauthorized("the Authorization header does not match")
                    }
                }
                return .success(try RevenueCat.event(body: delivery.body).checked().dated(notAfter: now))
            case .generic:
                try SignedWebhook.verify(
                    header: delivery.credential, body: delivery.body, secrets: configuration.webhookSecrets,
                    now: now, window: replaying ? .infinity : configuration.webhookWindow)
                return .success(try SignedWebhook.event(body: delivery.body).checked().dated(notAfter: now))
            case .admin:
                throw .malformed("admin grants are not deliveries")
            }
        } catch {
            return .failure(error)
        }
    }
}
