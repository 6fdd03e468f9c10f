import CatalogCore
import CatalogServices
import HTTPTypes
import Hummingbird

/// `GET /admin`: the admin console, static files from the binary. It holds no secret and no data: every screen
/// calls the public admin API with the token the user signs in with, so it is served to anyone.
package struct ConsoleController {
    package let files: ConsoleFiles
    /// `Content-Security-Policy`: scripts and styles from this service only (no inline script), images from this
    /// service or the asset host, nothing framed, no form posting elsewhere.
    package let policy: String

    package init(files: ConsoleFiles = ConsoleFiles(), publicBaseURL: String?) {
        self.files = files
        let assetOrigin = publicBaseURL.flatMap(Self.origin).map { " " + $0 } ?? ""
        policy =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:\(assetOrigin); "
            + "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
    }

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.get("admin") { request, _ in try self.serve("index.html", request) }
        router.get("admin/{file}") { request, context in
            try self.serve(try context.parameters.require("file"), request)
        }
    }

    /// The file with its ETag; 304 when the client's copy is current. `no-cache`: revalidated on every load, so a
    /// new binary's console is used at once (the ETag makes that a 304 when nothing changed).
    package func serve(_ path: String, _ request: Request) throws -> Response {
        guard let file = files[path] else { throw CatalogError.notFound("Console file '\(path.prefix(64))'") }
        var headers: HTTPFields = [
            .eTag: file.etag, .cacheControl: "no-cache", .contentSecurityPolicy: policy,
            .referrerPolicy: "no-referrer", .xFrameOptions: "DENY",
        ]
        if ETag.matches(request.headers[.ifNoneMatch], file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        headers[.contentLength] = String(file.body.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }

    /// `https://cdn.example.com/stickers` gives `https://cdn.example.com`.
    package static func origin(_ url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return host.isEmpty ? nil : String(url[..<schemeEnd.upperBound] + host)
    }
}

extension HTTPField.Name {
    package static let referrerPolicy = Self("Referrer-Policy")!
    /// For browsers older than CSP's frame-ancestors: the console is never framed (clickjacking).
    package static let xFrameOptions = Self("X-Frame-Options")!
}
