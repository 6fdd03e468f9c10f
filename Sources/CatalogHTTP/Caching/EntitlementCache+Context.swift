import CatalogServices

extension EntitlementCache {
    /// The products the signed-in user holds; none for anonymous clients.
    package func held(by context: AppRequestContext) async throws -> [String] {
        guard let user = context.user else { return [] }
        return try await products(of: user)
    }
}
