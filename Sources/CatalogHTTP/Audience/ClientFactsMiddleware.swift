import CatalogCore
import HTTPTypes
import Hummingbird

/// Reads what a client states of itself for audiences (`AudienceFacts`) into `context.facts`: its platform, app version
/// and installation id from the `Sticker-Platform`, `Sticker-App-Version` and `Sticker-Installation` headers, or the
/// `platform`, `appVersion` and `installation` query parameters (for clients that cannot set headers, such as a
/// browser's EventSource); its country from the header a CDN or load balancer sets (`--country-header`), never from
/// the client. A stated fact that is malformed is a 400 naming it; a country header that is not two letters is unknown.
/// Nothing here is logged or stored: the facts live as long as the request.
package struct ClientFactsMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    /// The header a trusted CDN or load balancer sets to the client's country (e.g. `CloudFront-Viewer-Country`);
    /// nil when none does, and a country-restricted group is then shown to no one.
    package let countryHeader: HTTPField.Name?

    package static let platformHeader = HTTPField.Name("Sticker-Platform")!
    package static let versionHeader = HTTPField.Name("Sticker-App-Version")!
    package static let installationHeader = HTTPField.Name("Sticker-Installation")!

    /// Whether `name` can name a header.
    package static func isHeaderName(_ name: String) -> Bool { HTTPField.Name(name) != nil }

    package init(countryHeader: String? = nil) {
        self.countryHeader = countryHeader.flatMap { HTTPField.Name($0) }
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.facts = try facts(of: request)
        return try await next(request, context)
    }

    /// The facts `request` states, checked: each from its header, else from its query parameter; either, when sent
    /// malformed, is a 400 (a bad parameter is refused even beside a good header).
    package func facts(of request: Request) throws(CatalogError) -> AudienceFacts {
        var facts = AudienceFacts()
        if let countryHeader, let country = request.headers[countryHeader], Audience.isCountry(country) {
            facts.country = country
        }
        let query = request.uri.query.flatMap { Self.namesFact($0) ? request.uri.queryParameters : nil }
        func stated(
            _ header: HTTPField.Name, _ name: Substring, rule: String, _ valid: (String) -> Bool
        ) throws(CatalogError) -> String? {
            let (sent, parameter) = (request.headers[header], query?[name].map(String.init))
            if let sent, !valid(sent) { throw .invalidHeader(name: header.rawName, rule: rule) }
            if let parameter, !valid(parameter) { throw .invalidParameter(name: String(name), rule: rule) }
            return sent ?? parameter
        }
        facts.platform = try stated(
            Self.platformHeader, "platform", rule: "must be a lower-case platform name such as ios, android or web",
            Audience.isPlatform)
        facts.appVersion = try stated(
            Self.versionHeader, "appVersion", rule: "must be a version such as 2.3 or 2.3.1", { AppVersion($0) != nil }
        ).flatMap { AppVersion($0) }
        facts.installation = try stated(
            Self.installationHeader, "installation",
            rule: "must be 8 to 64 letters, digits, dashes or underscores (a UUID)", AudienceFacts.isInstallation)
        return facts
    }

    /// Whether a query string has a `platform`, `appVersion` or `installation` parameter: one pass over its bytes, no
    /// allocation (String's `contains` thrice cost a manifest with a query string a tenth of its throughput).
    package static func namesFact(_ query: String) -> Bool {
        var rest = query.utf8[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "&")) ?? rest.endIndex
            let pair = rest[..<end]
            let key = pair[..<(pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex)]
            if key.elementsEqual("platform".utf8) || key.elementsEqual("appVersion".utf8)
                || key.elementsEqual("installation".utf8)
            {
                return true
            }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        return false
    }
}
