import Foundation
import Purchases

/// How each purchase source is checked. A source left unconfigured refuses every delivery as unauthorized, and keeps
/// it in quarantine for a replay once it is configured.
package struct PurchaseConfiguration: Sendable {
    /// App Store roots, bundle id and app id (`STICKER_APPLE_*`).
    package var apple: AppleConfiguration?
    /// RevenueCat's `Authorization` header value (`STICKER_REVENUECAT_AUTH`).
    package var revenueCatAuthorization: String?
    /// Secrets of the generic webhook, any of which may sign (`STICKER_WEBHOOK_SECRETS`, for rotation).
    package var webhookSecrets: [[UInt8]] = []
    /// How far the generic webhook's timestamp may be from now, either way.
    package var webhookWindow: TimeInterval = 300
    /// Whose sandbox purchases unlock (`STICKER_APPLE_SANDBOX`, `STICKER_APPLE_SANDBOX_USERS`): by default only listed
    /// users' (none until some are listed).
    package var sandbox = SandboxPolicy.listed([])

    package init() {}
}
