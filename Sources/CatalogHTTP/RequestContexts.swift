import CatalogCore
import Foundation
import Hummingbird
import NIOCore

/// The context of every request; `admin` is set by `AdminAuthMiddleware` when the bearer token is valid.
package struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The name of the admin token presented, if any.
    package var admin: String?
    /// Which admin token it was, its SHA-256 in hex: names are not unique, this is.
    package var adminIdentity: String?
    /// The signed-in user on client routes (`UserAuthMiddleware`); nil for anonymous clients.
    package var user: String?
    /// When the signed-in user's token expires (its `exp`); an event stream ends then.
    package var userTokenExpires: Date?
    /// What the client states of itself for audiences (`ClientFactsMiddleware`): none until read.
    package var facts = AudienceFacts.none
    /// The connection, kept rather than its peer's address: only event streams and the admin throttle ask for that,
    /// and reading it on every request cost a lock and a copy.
    private let channel: any Channel

    /// The connection's peer (a proxy's, behind one: see `TrustedProxies`); nil in a test's router.
    package var remoteAddress: SocketAddress? { channel.remoteAddress }

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// JSON request bodies are small; image uploads are read by `UploadReader` with their own limit.
    package var maxUploadSize: Int { 64 * 1024 }
    package var responseEncoder: JSONEncoder { .catalog }
}

/// The context of admin routes: it exists only for an authenticated admin, so handlers cannot forget the check.
package struct AdminRequestContext: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The name of the admin token that authenticated this request, for logs and the audit.
    package let admin: String
    /// That token's identity, its SHA-256 in hex: what idempotency keys belong to, since two tokens may share a name.
    package let adminIdentity: String
    /// The request's `Idempotency-Key` (`IdempotencyMiddleware`): writes keep their answers under it.
    package var idempotency: IdempotencyKey?

    package init(context: AppRequestContext) throws {
        guard let admin = context.admin, let identity = context.adminIdentity else { throw Problem.unauthorized }
        self.coreContext = context.coreContext
        self.admin = admin
        self.adminIdentity = identity
    }

    package var maxUploadSize: Int { 64 * 1024 }
    package var responseEncoder: JSONEncoder { .catalog }
}

/// The context of routes for a signed-in user: it exists only with a verified user token.
package struct UserRequestContext: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The `sub` of the verified token.
    package let user: String
    /// When the token expires.
    package let userTokenExpires: Date?

    package init(context: AppRequestContext) throws {
        guard let user = context.user else {
            throw Problem.invalidUserToken("This needs a signed-in user: send 'Authorization: Bearer <JWT>'.")
        }
        self.coreContext = context.coreContext
        self.user = user
        self.userTokenExpires = context.userTokenExpires
    }

    package var maxUploadSize: Int { 64 * 1024 }
    package var responseEncoder: JSONEncoder { .catalog }
}
