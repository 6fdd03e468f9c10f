import Crypto
import Foundation
import Hummingbird

/// Recognises `Authorization: Bearer TOKEN`: the bootstrap token from the environment, or a stored token's digest.
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: any AdminTokenRepository
    let bootstrapToken: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let admin = try await admin(for: request) {
            context.admin = admin
            context.logger[metadataKey: "admin"] = "\(admin)"
        }
        return try await next(request, context)
    }

    private func admin(for request: Request) async throws -> String? {
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            return nil
        }
        let token = Array(header.dropFirst(7).utf8)
        let digest = Array(SHA256.hash(data: token))
        if let bootstrapToken, digest == Array(SHA256.hash(data: Array(bootstrapToken.utf8))) {
            return "bootstrap"
        }
        return try await tokens.adminTokenName(digest: digest)
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
