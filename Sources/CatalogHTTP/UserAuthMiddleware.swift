import Hummingbird

/// Recognises a signed-in user on client routes: `Authorization: Bearer <JWT>` sets `context.user`; no header means
/// anonymous; a token that does not verify is a 401, never silently anonymous.
package struct UserAuthMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    /// Nil when no user token key is configured: every bearer token is refused.
    package let tokens: UserTokens?

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let verified = try await user(of: request) else { return try await next(request, context) }
        var context = context
        (context.user, context.userTokenExpires) = (verified.user, verified.expires)
        context.logger[metadataKey: "user"] = "\(verified.user)"
        return try await next(request, context)
    }

    /// The user `request`'s bearer token names, verified; nil without an `Authorization` header. The manifest's hot
    /// route asks this directly rather than through `handle`, which copies the context to set it.
    package func user(of request: Request) async throws -> UserTokens.Verified? {
        guard let header = request.headers[.authorization] else { return nil }
        guard header.utf8.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw Problem.invalidUserToken("Send 'Authorization: Bearer <JWT>'.")
        }
        guard let tokens else { throw Problem.invalidUserToken("User tokens are not configured on this service.") }
        return try await tokens.verify(String(header.dropFirst(7)))
    }

    package init(tokens: UserTokens?) {
        self.tokens = tokens
    }
}

extension Problem {
    /// A user token that is missing where one is required, or does not verify.
    package static func invalidUserToken(_ detail: String) -> Problem {
        var problem = Problem(.unauthorized, "invalid_token", detail)
        problem.headers[.wwwAuthenticate] = #"Bearer realm="stickerd", error="invalid_token""#
        return problem
    }
}
