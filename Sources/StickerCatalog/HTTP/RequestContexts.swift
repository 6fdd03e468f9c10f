import Foundation
import Hummingbird
import NIOCore

/// The context of every request; `admin` is set by `AdminAuthMiddleware` when the bearer token is valid.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The name of the admin token presented, if any.
    public var admin: String?
    /// Which admin token it was, its SHA-256 in hex: names are not unique, this is.
    public var adminIdentity: String?
    /// The signed-in user on client routes (`UserAuthMiddleware`); nil for anonymous clients.
    public var user: String?
    /// When the signed-in user's token expires (its `exp`); an event stream ends then.
    public var userTokenExpires: Date?
    /// The connection, kept rather than its peer's address: only event streams and the admin throttle ask for that,
    /// and reading it on every request cost a lock and a copy.
    private let channel: any Channel

    /// The connection's peer (a proxy's, behind one: see `TrustedProxies`); nil in a test's router.
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// JSON request bodies are small; image uploads are read by `UploadReader` with their own limit.
    public var maxUploadSize: Int { 64 * 1024 }
    public var responseEncoder: JSONEncoder { .catalog }
}

/// The context of admin routes: it exists only for an authenticated admin, so handlers cannot forget the check.
public struct AdminRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The name of the admin token that authenticated this request, for logs and the audit.
    public let admin: String
    /// That token's identity, its SHA-256 in hex: what idempotency keys belong to, since two tokens may share a name.
    public let adminIdentity: String
    /// The request's `Idempotency-Key` (`IdempotencyMiddleware`): writes keep their answers under it.
    public var idempotency: IdempotencyKey?

    public init(context: AppRequestContext) throws {
        guard let admin = context.admin, let identity = context.adminIdentity else { throw Problem.unauthorized }
        self.coreContext = context.coreContext
        self.admin = admin
        self.adminIdentity = identity
    }

    public var maxUploadSize: Int { 64 * 1024 }
    public var responseEncoder: JSONEncoder { .catalog }
}

/// The context of routes for a signed-in user: it exists only with a verified user token.
public struct UserRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The `sub` of the verified token.
    public let user: String

    public init(context: AppRequestContext) throws {
        guard let user = context.user else { throw Problem.invalidUserToken("This needs a signed-in user: send 'Authorization: Bearer <JWT>'.") }
        self.coreContext = context.coreContext
        self.user = user
    }

    public var maxUploadSize: Int { 64 * 1024 }
    public var responseEncoder: JSONEncoder { .catalog }
}

extension JSONEncoder {
    /// Deterministic JSON (sorted keys, ISO 8601 dates): equal content gives equal bytes, so ETags agree across replicas.
    public static let catalog: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
}
