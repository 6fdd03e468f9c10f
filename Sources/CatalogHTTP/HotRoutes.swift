import Hummingbird
import StickerImage

/// The two answers clients ask for most, a cached image and the manifest, found without the router: its trie (which
/// matched `{sha256}.png` by Characters) and its middleware frames were a fifth of an image request's CPU, measured
/// with perf against a bare Hummingbird app. The router keeps both routes (its table, 405s, other methods and paths);
/// only a GET or HEAD on exactly these paths comes here, and gets the same handler and the same checks, in the same
/// order, as the router would give: the user token (`UserAuthMiddleware.user(of:)`), then the stated facts
/// (`ClientFactsMiddleware.facts(of:)`), asked directly rather than through the middleware, whose context copies and
/// frames cost a cached manifest 2% (issue 46). A class: the responder calls it on every request, and copying a
/// struct of controllers retained each of their references.
package final class HotRoutes: Sendable {
    /// A request this answers, and the route it is counted under (the router's name for it).
    package enum Route: Equatable {
        case asset(hex: Substring, format: ImageFormat)
        case manifest

        package var name: String {
            switch self {
            case .asset(_, let format): format == .webp ? "/v1/assets/{sha256}.webp" : "/v1/assets/{sha256}.png"
            case .manifest: "/v1/manifest"
            }
        }
    }

    package let assets: AssetController
    package let manifests: ManifestController
    package let users: UserAuthMiddleware
    package let facts: ClientFactsMiddleware

    /// The route `request` takes here, or nil when the router answers it.
    package static func route(method: HTTPRequest.Method, path: String) -> Route? {
        guard method == .get || method == .head else { return nil }
        if path == "/v1/manifest" { return .manifest }
        let prefix = "/v1/assets/".utf8
        let bytes = path.utf8
        guard bytes.count > prefix.count + 64, bytes.starts(with: prefix) else { return nil }
        let suffix = bytes.dropFirst(prefix.count + 64)
        let format: ImageFormat
        if suffix.elementsEqual(".png".utf8) {
            format = .png
        } else if suffix.elementsEqual(".webp".utf8) {
            format = .webp
        } else {
            return nil
        }
        let hex = bytes.dropFirst(prefix.count).prefix(64)
        // A slash or a byte past ASCII is another path for the router (which matches `.png` by Characters), not a
        // digest that fails to parse.
        return hex.contains { $0 == UInt8(ascii: "/") || $0 >= 0x80 }
            ? nil : .asset(hex: Substring(hex), format: format)
    }

    /// `route`'s answer to `request` (`ServiceResponder` drops the body of a HEAD's answer).
    package func respond(_ route: Route, to request: Request) async throws -> Response {
        switch route {
        case .asset(let hex, let format): return try await assets.asset(hex: hex, format: format, request: request)
        case .manifest:
            let user = try await users.user(of: request)
            let viewer = try await manifests.entitlements.viewer(user: user?.user, facts: try facts.facts(of: request))
            return try await ManifestController.manifest(
                request, viewer: viewer, personal: user != nil, from: manifests.service)
        }
    }

    package init(
        assets: AssetController, manifests: ManifestController, users: UserAuthMiddleware,
        facts: ClientFactsMiddleware = ClientFactsMiddleware()
    ) {
        self.assets = assets
        self.manifests = manifests
        self.users = users
        self.facts = facts
    }
}
