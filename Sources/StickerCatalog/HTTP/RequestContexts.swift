import Foundation
import Hummingbird

/// The context of every request; `admin` is set by `AdminAuthMiddleware` when the bearer token is valid.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The name of the admin token presented, if any.
    public var admin: String?
    /// The signed-in user on client routes (`UserAuthMiddleware`); nil for anonymous clients.
    public var user: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// JSON request bodies are small; image uploads are read by `UploadReader` with their own limit.
    public var maxUploadSize: Int { 64 * 1024 }
    public var responseEncoder: JSONEncoder { .catalog }
}

/// The context of admin routes: it exists only for an authenticated admin, so handlers cannot forget the check.
public struct AdminRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The name of the admin token that authenticated this request.
    public let admin: String

    public init(context: AppRequestContext) throws {
        guard let admin = context.admin else { throw Problem.unauthorized }
        self.coreContext = context.coreContext
        self.admin = admin
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
