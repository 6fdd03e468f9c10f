import CatalogCore
import Foundation
import Hummingbird
import Purchases

/// `/v1/me`: what a signed-in user needs to buy (a purchase token) and what they hold.
package struct MeController {
    package let repository: any PurchaseRepository
    package let sandbox: SandboxPolicy

    package func addRoutes(to group: RouterGroup<UserRequestContext>) {
        group.get("purchase-token", use: purchaseToken)
        group.get("entitlements", use: entitlements)
    }

    @Sendable package func purchaseToken(
        _ request: Request, context: UserRequestContext
    ) async throws -> PurchaseTokenResponse {
        let token = try await repository.purchaseToken(user: context.user)
        return PurchaseTokenResponse(userId: context.user, purchaseToken: token.uuidString.lowercased())
    }

    @Sendable package func entitlements(_ request: Request, context: UserRequestContext) async throws -> EntitlementList
    {
        EntitlementList(
            user: context.user, records: try await repository.activePurchases(user: context.user), now: Date(),
            sandbox: sandbox, allTransactions: false)
    }

    package init(repository: any PurchaseRepository, sandbox: SandboxPolicy) {
        self.repository = repository
        self.sandbox = sandbox
    }
}
