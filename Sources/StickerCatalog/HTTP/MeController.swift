import Foundation
import Hummingbird
import Purchases

/// `/v1/me`: what a signed-in user needs to buy (a purchase token) and what they hold.
struct MeController {
    let repository: any PurchaseRepository
    let sandbox: SandboxPolicy

    func addRoutes(to group: RouterGroup<UserRequestContext>) {
        group.get("purchase-token", use: purchaseToken)
        group.get("entitlements", use: entitlements)
    }

    @Sendable func purchaseToken(_ request: Request, context: UserRequestContext) async throws -> PurchaseTokenResponse {
        let token = try await repository.purchaseToken(user: context.user)
        return PurchaseTokenResponse(userId: context.user, purchaseToken: token.uuidString.lowercased())
    }

    @Sendable func entitlements(_ request: Request, context: UserRequestContext) async throws -> EntitlementList {
        EntitlementList(user: context.user, records: try await repository.activePurchases(user: context.user), now: Date(),
                        sandbox: sandbox, allTransactions: false)
    }
}
