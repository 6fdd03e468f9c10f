/// Where a signed-in user's token comes from: asked for before requests, and asked again, once, with `refresh` after
/// the service answers 401 (an expired token), so a long `follow()` never spins on one.
public struct Credentials: Sendable {
    let provide: @Sendable (_ refresh: Bool) async throws -> String?

    /// `provide(refresh)` gives the current token; with `refresh`, a new one (nil: sign out, the catalog shows free
    /// groups).
    public init(_ provide: @escaping @Sendable (_ refresh: Bool) async throws -> String?) {
        self.provide = provide
    }

    /// The same token every time.
    public static func token(_ token: String) -> Credentials {
        Credentials { _ in token }
    }

    func token(refresh: Bool) async throws -> String? {
        try await provide(refresh)
    }
}
