import CatalogCore
import CatalogServices
import Crypto
import Foundation
import Hummingbird
import NIOCore

/// Sets the context's admin (and the `ReleaseAuthor` of its writes) when the request's bearer token is one
/// (`AdminAuthenticator`); the admin routes' context refuses requests without one.
package struct AdminAuthMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    package let authenticator: AdminAuthenticator

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        guard let admin = try await authenticator.admin(for: request, peer: context.remoteAddress) else {
            return try await next(request, context)
        }
        (context.admin, context.adminIdentity) = (admin.name, admin.identity)
        context.logger[metadataKey: "admin"] = "\(admin.name)"
        // The releases this request's writes make are this admin's.
        return try await ReleaseAuthor.$name.withValue(admin.name) { try await next(request, context) }
    }

    package init(authenticator: AdminAuthenticator) {
        self.authenticator = authenticator
    }
}

/// Recognises `Authorization: Bearer TOKEN`: the bootstrap token from the environment, or a stored token's digest.
/// Tokens are compared as SHA-256 digests, in constant time for the bootstrap token and by index lookup of the digest
/// for stored ones, so timing reveals nothing of a token. A database failure while looking a token up is a 503.
/// A source that keeps presenting wrong tokens is refused for a while (`FailedAttempts`), before any lookup.
package struct AdminAuthenticator: Sendable {
    package let tokens: any AdminTokenRepository
    /// The bootstrap token's digest, hashed once at start-up.
    package let bootstrapDigest: SHA256Digest?
    /// Whose `X-Forwarded-For` names the source of a failed attempt.
    package let proxies: TrustedProxies
    package let attempts: FailedAttempts

    package init(
        tokens: any AdminTokenRepository, bootstrapToken: String?, proxies: TrustedProxies = TrustedProxies(),
        attempts: FailedAttempts = FailedAttempts()
    ) {
        self.tokens = tokens
        self.bootstrapDigest = bootstrapToken.map { SHA256.hash(data: Array($0.utf8)) }
        (self.proxies, self.attempts) = (proxies, attempts)
    }

    /// The admin's name and identity (the token's SHA-256 in hex: unique, where names are not), or nil when the
    /// request carries no admin token.
    /// Throws 429 `too_many_attempts` while the request's source is refused.
    package func admin(for request: Request, peer: SocketAddress?) async throws -> (name: String, identity: String)? {
        guard let header = request.headers[.authorization], header.utf8.count > 7,
            header.prefix(7).lowercased() == "bearer "
        else {
            return nil
        }
        // A transport that names no peer (a test's router) is no source to hold to account.
        let source = proxies.source(of: request, peer: peer)
        if source != .unknown, let wait = attempts.wait(for: source) {
            var problem = Problem(
                .tooManyRequests, "too_many_attempts", "Too many wrong admin tokens from this address; try again later."
            )
            problem.headers[.retryAfter] = String(max(1, wait.components.seconds + 1))
            throw problem
        }
        guard let admin = try await lookUp(header) else {
            if source != .unknown { attempts.fail(source) }
            return nil
        }
        return admin
    }

    private func lookUp(_ header: String) async throws -> (name: String, identity: String)? {
        let digest = SHA256.hash(data: Array(header.utf8.dropFirst(7)))
        let identity = digest.map { String(format: "%02x", $0) }.joined()
        // SHA256Digest's == compares every byte whatever the first difference (swift-crypto's safeCompare).
        if let bootstrapDigest, digest == bootstrapDigest { return ("bootstrap", identity) }
        do {
            return try await tokens.adminTokenName(digest: Array(digest)).map { ($0, identity) }
        } catch {
            throw error as? DatabaseUnavailable ?? DatabaseUnavailable(reason: "admin token lookup failed: \(error)")
        }
    }

    /// Whether `path` is the admin API's, where nothing is said (not even which methods a path takes) before this.
    package static func guards(_ path: some StringProtocol) -> Bool {
        path.hasPrefix("/v1/admin/") || path == "/v1/admin" || path.hasPrefix("v1/admin/")
    }
}

/// A new admin token: 32 random bytes as URL-safe base64, prefixed so that leaked tokens are easy to recognise.
package func makeAdminToken() -> (token: String, digest: [UInt8]) {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let token =
        "stk_"
        + Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=", with: "")
    return (token, Array(SHA256.hash(data: Array(token.utf8))))
}
