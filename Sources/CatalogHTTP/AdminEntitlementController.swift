import CatalogCore
import Foundation
import Hummingbird
import Purchases

/// `/v1/admin/users/{id}`: a user's entitlements with every transaction, manual grants and revocations, the audit.
package struct AdminEntitlementController {
    package let repository: any PurchaseRepository & EntitlementAdministration
    package let sandbox: SandboxPolicy

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get("{id}/entitlements", use: show)
        group.post("{id}/entitlements", use: grant)
        group.delete("{id}/entitlements/{productId}", use: revoke)
        group.get("{id}/audit", use: audit)
    }

    /// What an admin grants: a product, until when (absent or null: no end). The date is read as text and checked
    /// with the other fields, so a malformed one is a 422 naming `expiresAt`, like every other bad value.
    package struct Grant: Decodable {
        package var productId: String
        package var expiresAt: String?

        package var expiry: Date? {
            get throws(CatalogError) {
                guard let expiresAt else { return nil }
                guard let date = try? Date(expiresAt, strategy: .iso8601) else {
                    throw CatalogError.invalid(
                        "expiresAt", "must be an ISO 8601 date and time such as 2030-01-31T12:00:00Z")
                }
                return date
            }
        }
    }

    package static func user(_ context: AdminRequestContext) throws -> String {
        let user = try context.parameters.require("id")
        guard (1...255).contains(user.unicodeScalars.count),  // code points, as openapi.yaml's maxLength
            !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CatalogError.notFound("User '\(user.prefix(64))'")
        }
        return user
    }

    @Sendable package func show(_ request: Request, context: AdminRequestContext) async throws -> EntitlementList {
        let user = try Self.user(context)
        return EntitlementList(
            user: user, records: try await repository.purchases(user: user), now: Date(), sandbox: sandbox,
            allTransactions: true)
    }

    @Sendable package func grant(
        _ request: Request, context: AdminRequestContext
    ) async throws -> EditedResponse<EntitlementList> {
        let user = try Self.user(context)
        let grant = try await request.decode(as: Grant.self, context: context)
        guard Validate.isProductId(grant.productId) else {
            throw CatalogError.invalid("productId", "must be 1 to 100 letters, digits, dots, dashes or underscores")
        }
        let expiry = try grant.expiry
        guard expiry.map(Date.purchaseTimes.contains) ?? true else {
            throw CatalogError.invalid("expiresAt", "must lie between 1970 and the end of 9999")
        }
        let sandbox = sandbox
        let answer = { @Sendable (purchases: [PurchaseRecord]) in
            EditedResponse(
                status: .created,
                response: EntitlementList(
                    user: user, records: purchases, now: Date(), sandbox: sandbox,
                    allTransactions: true))
        }
        let purchases = try await repository.grant(
            user: user, productId: grant.productId, expiresAt: expiry, admin: context.admin,
            keeping: context.keeping(request, answer))
        context.logger.info("Entitlement granted", metadata: ["user": "\(user)", "product": "\(grant.productId)"])
        return answer(purchases)
    }

    @Sendable package func revoke(_ request: Request, context: AdminRequestContext) async throws -> EntitlementList {
        let user = try Self.user(context)
        let product = try context.parameters.require("productId")
        guard Validate.isProductId(product) else { throw CatalogError.notFound("Entitlement '\(product.prefix(64))'") }
        let sandbox = sandbox
        let answer = { @Sendable (result: (revoked: Int, purchases: [PurchaseRecord])) throws in
            guard result.revoked > 0 else {
                throw CatalogError.notFound("An unrevoked transaction of '\(product)' for this user")
            }
            return EntitlementList(
                user: user, records: result.purchases, now: Date(), sandbox: sandbox, allTransactions: true)
        }
        let result = try await repository.revoke(
            user: user, productId: product, admin: context.admin, keeping: context.keeping(request, answer))
        let response = try answer(result)
        context.logger.info(
            "Entitlement revoked",
            metadata: ["user": "\(user)", "product": "\(product)", "transactions": "\(result.revoked)"])
        return response
    }

    @Sendable package func audit(_ request: Request, context: AdminRequestContext) async throws -> AuditPage {
        let user = try Self.user(context)
        let limit = try GroupController.integer(request, "limit", default: 50, range: 1...200)
        let before = try GroupController.integer(request, "before", default: Int(Int64.max), range: 1...Int(Int64.max))
        let entries = try await repository.audit(user: user, before: Int64(before), limit: limit + 1)
        return AuditPage(
            entries: Array(entries.prefix(limit)), nextBefore: entries.count > limit ? entries[limit - 1].id : nil)
    }

    package init(repository: any PurchaseRepository & EntitlementAdministration, sandbox: SandboxPolicy) {
        self.repository = repository
        self.sandbox = sandbox
    }
}
