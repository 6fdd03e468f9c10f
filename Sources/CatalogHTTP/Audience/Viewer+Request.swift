import CatalogCore
import CatalogServices

extension EntitlementCache {
    /// Who asks a client route: the products its user token's user holds (none for anonymous clients) and the facts
    /// `ClientFactsMiddleware` read. Made once per request; every client route passes it on.
    package func viewer(of context: AppRequestContext) async throws -> Viewer {
        try await viewer(user: context.user, facts: context.facts)
    }

    /// Who `user` (nil: an anonymous client) is, stating `facts`.
    package func viewer(user: String?, facts: AudienceFacts) async throws -> Viewer {
        guard let user else { return Viewer(held: [], facts: facts) }
        return Viewer(held: try await products(of: user), facts: facts)
    }

    /// Who an admin's preview stands for: `user`'s products (nobody's when nil), and the facts its query states
    /// (`country`, `platform`, `appVersion`, `bucket`), read by the parser the facts middleware's parameters share.
    package func viewer(user: String?, parameters: [String: String]) async throws -> Viewer {
        try await viewer(user: user, facts: try AudienceFacts(parameters: parameters))
    }
}
