import Crypto
import Foundation
import Hummingbird

/// Recognises `Authorization: Bearer TOKEN`: the bootstrap token from the environment, or a stored token's digest.
/// Tokens are compared as SHA-256 digests, in constant time for the bootstrap token and by index lookup of the digest
/// for stored ones, so timing reveals nothing of a token. A database failure while looking a token up is a 503.
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: any AdminTokenRepository
    /// The bootstrap token's digest, hashed once at start-up.
    let bootstrapDigest: SHA256Digest?

    init(tokens: any AdminTokenRepository, bootstrapToken: String?) {
        self.tokens = tokens
        self.bootstrapDigest = bootstrapToken.map { SHA256.hash(data: Array($0.utf8)) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let admin = try await admin(for: request) {
            context.admin = admin
            context.logger[metadataKey: "admin"] = "\(admin)"
        }
        return try await next(request, context)
    }

    private func admin(for request: Request) async throws -> String? {
        guard let header = request.headers[.authorization], header.utf8.count > 7, header.prefix(7).lowercased() == "bearer " else {
            return nil
        }
        let digest = SHA256.hash(data: Array(header.utf8.dropFirst(7)))
        // SHA256Digest's == compares every byte whatever the first difference (swift-crypto's safeCompare).
        if let bootstrapDigest, digest == bootstrapDigest { return "bootstrap" }
        do {
            return try await tokens.adminTokenName(digest: Array(digest))
        } catch {
            throw error as? DatabaseUnavailable ?? DatabaseUnavailable(reason: "admin token lookup failed: \(error)")
        }
    }
}

/// A new admin token: 32 random bytes as URL-safe base64, prefixed so that leaked tokens are easy to recognise.
public func makeAdminToken() -> (token: String, digest: [UInt8]) {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let token = "stk_" + Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    return (token, Array(SHA256.hash(data: Array(token.utf8))))
}
