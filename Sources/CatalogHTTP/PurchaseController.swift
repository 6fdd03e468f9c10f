import CatalogCore
import CatalogServices
import Foundation
import Hummingbird
import Purchases

/// `POST /v1/purchases/apple/transactions`: a signed-in client posts its StoreKit 2 signed transaction after a
/// purchase or a restore; verified like a notification, it grants at once and binds the transaction to the user.
package struct PurchaseController {
    package let intake: PurchaseIntake

    package func addRoutes(to group: RouterGroup<UserRequestContext>) {
        group.post("apple/transactions", use: appleTransaction)
    }

    @Sendable package func appleTransaction(
        _ request: Request, context: UserRequestContext
    ) async throws -> EntitlementList {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let receipt = try await intake.receive(
            Delivery(source: .appleClient, body: Array(buffer: body), user: context.user))
        try WebhookController.check(receipt)
        context.logger.info("Client transaction stored", metadata: ["receipt": "\(receipt)"])
        return EntitlementList(
            user: context.user, records: try await intake.repository.activePurchases(user: context.user), now: Date(),
            sandbox: intake.configuration.sandbox, allTransactions: false)
    }

    package init(intake: PurchaseIntake) {
        self.intake = intake
    }
}
