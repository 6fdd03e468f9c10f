import HTTPTypes
import Hummingbird

/// Which web pages on other origins may call the client API (`--cors-origin`): the Fetch standard's CORS, answered
/// by `ServiceResponder` on every answer and by the router's `OPTIONS` routes on preflights.
///
/// - Client routes (`/v1/...` but the admin API and the webhooks) answer an allowed `Origin` with
///   `Access-Control-Allow-Origin` naming it, and always carry `Vary: Origin`, so a shared cache keeps one answer per
///   origin. No cookie is ever read (tokens travel as `Authorization`), so no answer allows credentials.
/// - Images (`/v1/assets/...`) are the same bytes for everyone: `Access-Control-Allow-Origin: *`, no `Vary`, so a CDN
///   keeps one copy for every origin.
/// - The admin API, the console, webhooks, health and metrics never answer a foreign origin. Their every call needs
///   an `Authorization` header, which no page can send cross-origin without a preflight, and their preflights are
///   never allowed.
package struct CrossOrigin: Sendable {
    /// Exact origins (`https://chat.example.com`), lower-cased; no wildcard.
    package let origins: Set<String>
    /// Each origin's `Access-Control-Allow-Origin`, made once: a field checks its value as it is made, and the hot
    /// path adds one to every answer.
    private let allowOrigin: [String: HTTPField]
    private static let varyOrigin = HTTPField(name: .vary, value: "Origin")
    private static let anyOrigin = HTTPField(name: .accessControlAllowOrigin, value: "*")
    private static let exposed = HTTPField(name: .accessControlExposeHeaders, value: exposedHeaders)

    package enum Scope: Equatable, Sendable {
        /// Answers that depend on the caller (its token, its facts).
        case client
        /// Content-addressed images, the same for every caller.
        case assets
        /// Never answered to another origin.
        case closed
    }

    /// The headers a page may send: a token, a validator, the audience facts, an idempotency key, a stream's cursor.
    package static let allowedHeaders =
        "Authorization, Content-Type, If-None-Match, Idempotency-Key, Last-Event-ID, Sticker-Platform, "
        + "Sticker-App-Version, Sticker-Installation"
    /// The headers a page may read beyond the safelisted ones.
    package static let exposedHeaders = "ETag, Retry-After, X-Request-Id, Link"
    /// How long a browser may reuse a preflight's answer (Chromium caps it at two hours).
    package static let maxAge = "7200"

    /// `origins` as `--cors-origin` gives them; nil when one is not an exact origin (see `normalized`).
    package init?(_ origins: [String]) {
        var set = Set<String>()
        for origin in origins {
            guard let normal = Self.normalized(origin) else { return nil }
            set.insert(normal)
        }
        self.origins = set
        allowOrigin = Dictionary(
            uniqueKeysWithValues: set.map { ($0, HTTPField(name: .accessControlAllowOrigin, value: $0)) })
    }

    /// `scheme://host[:port]` lower-cased, as browsers send `Origin`; nil for a wildcard, `null`, a path, a query,
    /// a scheme other than http(s), or user information.
    package static func normalized(_ origin: String) -> String? {
        let lower = origin.lowercased()
        let scheme: Substring
        if lower.hasPrefix("https://") {
            scheme = "https://"
        } else if lower.hasPrefix("http://") {
            scheme = "http://"
        } else {
            return nil
        }
        let authority = lower.dropFirst(scheme.count)
        let allowed = authority.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }
        guard !authority.isEmpty, authority.count <= 253, allowed, authority.first != ":" else { return nil }
        return lower
    }

    /// Whose rules `path` (a request's path, or a route's template) follows.
    package static func scope(of path: some StringProtocol) -> Scope {
        var bytes = Substring(path).utf8[...]
        if bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }  // a route's template has none
        guard bytes.starts(with: "v1/".utf8) else { return .closed }
        let rest = bytes.dropFirst(3)
        if rest.starts(with: "assets/".utf8) { return .assets }
        if rest.starts(with: "admin".utf8) || rest.starts(with: "webhooks".utf8) { return .closed }
        return .client
    }

    /// Whether `request` comes from a page this service answers.
    package func allows(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return false }
        return origins.contains(origin)
    }

    /// Adds to an answer on `path` what its scope says.
    package func decorate(_ response: inout Response, request: Request, path: String) {
        guard request.method != .options else { return }  // `preflight` answered it whole
        switch Self.scope(of: path) {
        case .closed: return
        case .assets:
            response.headers.append(Self.anyOrigin)
            response.headers.append(Self.exposed)
        case .client:
            response.headers.append(Self.varyOrigin)
            guard let origin = request.headers[.origin], let allowed = allowOrigin[origin] else { return }
            response.headers.append(allowed)
            response.headers.append(Self.exposed)
        }
    }

    /// The answer to `OPTIONS` on a route whose methods are `allowed`: 204 with `Allow`, and when it is a preflight
    /// from an allowed origin, what the page may send. A refused preflight is the same 204 without them: the browser
    /// then refuses the call, and nobody learns which origins are allowed.
    package func preflight(_ request: Request, path: String, allowed: [HTTPRequest.Method]) -> Response {
        var headers: HTTPFields = [.allow: allowed.map(\.rawValue).joined(separator: ", ")]
        let methods = allowed.filter { $0 != .options }.map(\.rawValue).joined(separator: ", ")
        switch Self.scope(of: path) {
        case .closed: break
        case .assets:
            guard !origins.isEmpty else { break }
            headers[.accessControlAllowOrigin] = "*"
            headers[.accessControlAllowMethods] = methods
            headers[.accessControlAllowHeaders] = "If-None-Match"
            headers[.accessControlMaxAge] = Self.maxAge
        case .client:
            headers[.vary] = "Origin"
            guard let origin = request.headers[.origin], allows(request) else { break }
            headers[.accessControlAllowOrigin] = origin
            headers[.accessControlAllowMethods] = methods
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = Self.maxAge
        }
        return Response(status: .noContent, headers: headers)
    }
}
