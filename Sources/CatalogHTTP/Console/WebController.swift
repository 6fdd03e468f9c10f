import CatalogCore
import CatalogServices
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// `GET /web/{file}`: the web module (`stickers.js`, `stickers.d.ts`), at a stable path any page may import from any
/// origin (a module script is fetched with CORS, and the file is public: `Access-Control-Allow-Origin: *`); and with
/// `--demo`, `GET /demo` and `/demo/{file}`: a small web chat that uses only the module (issue 49).
package struct WebController {
    package let module: ConsoleFiles
    package let demo: ConsoleFiles?
    /// Each module file compressed at the best level, once, when first asked for (not at start-up: every replica
    /// and every test app starts without it): 38 KB of JavaScript leaves as about 10 KB.
    private let encoded = Encoded()
    /// The demo page's policy: its own scripts and styles only; it may call and show any catalog (its `?api=`).
    package static let demoPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' http: https: data:; "
        + "connect-src 'self' http: https:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    package init(module: ConsoleFiles = ConsoleFiles(embeddedWebFiles), demo: ConsoleFiles? = nil) {
        self.module = module
        self.demo = demo
    }

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.get("web/{file}") { request, context in
            let path = try context.parameters.require("file")
            var response = try self.moduleFile(path, request)
            response.headers[.accessControlAllowOrigin] = "*"
            // Revalidated after five minutes: the path is stable, so a new binary's module reaches pages soon.
            response.headers[.cacheControl] = "public, max-age=300"
            return response
        }
        guard let demo else { return }
        router.get("demo") { request, _ in try Self.demoFile(demo, "index.html", request) }
        router.get("demo/{file}") { request, context in
            try Self.demoFile(demo, try context.parameters.require("file"), request)
        }
    }

    /// A module file in the coding the client prefers, with its ETag (a compressed one's ends in `-br` or `-gzip`).
    private func moduleFile(_ path: String, _ request: Request) throws -> Response {
        guard let file = module[path] else { throw CatalogError.notFound("File '\(path.prefix(64))'") }
        let codings = encoded.codings(of: path, file)
        let coding = AcceptEncoding.preferred(
            request.headers[.acceptEncoding],
            offered: [.brotli, .gzip, .identity].filter { $0 == .identity || codings[$0] != nil })
        let etag = coding == .identity ? file.etag : String(file.etag.dropLast()) + "-\(coding.rawValue)\""
        var headers: HTTPFields = [.eTag: etag, .vary: "Accept-Encoding"]
        if ETag.matches(request.headers[.ifNoneMatch], etag) { return Response(status: .notModified, headers: headers) }
        let body = codings[coding] ?? file.body
        headers[.contentType] = file.contentType
        if coding != .identity { headers[.contentEncoding] = coding.rawValue }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    private static func demoFile(_ files: ConsoleFiles, _ path: String, _ request: Request) throws -> Response {
        var response = try serve(files, path, request)
        response.headers[.contentSecurityPolicy] = demoPolicy
        response.headers[.cacheControl] = "no-cache"
        return response
    }

    /// The file with its ETag; 304 when the client's copy is current.
    static func serve(_ files: ConsoleFiles, _ path: String, _ request: Request) throws -> Response {
        guard let file = files[path] else { throw CatalogError.notFound("File '\(path.prefix(64))'") }
        var headers: HTTPFields = [.eTag: file.etag]
        if ETag.matches(request.headers[.ifNoneMatch], file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        headers[.contentLength] = String(file.body.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }
}

extension ConsoleFiles {
    /// The demo chat's files (`web/demo/`).
    package static var demoChat: ConsoleFiles { ConsoleFiles(embeddedDemoFiles) }
}

/// The module's files compressed, made on first use under a lock (a few files, tens of kilobytes: one request waits
/// for them once).
private final class Encoded: Sendable {
    private let made = Mutex<[String: [ContentCoding: ByteBuffer]]>([:])

    func codings(of path: String, _ file: ConsoleFiles.File) -> [ContentCoding: ByteBuffer] {
        made.withLock { made in
            if let found = made[path] { return found }
            let bytes = Array(buffer: file.body)
            var codings: [ContentCoding: ByteBuffer] = [:]
            for coding in [ContentCoding.brotli, .gzip] {
                if let body = Compression.compress(bytes, coding, .best), body.count < bytes.count {
                    codings[coding] = ByteBuffer(bytes: body)
                }
            }
            made[path] = codings
            return codings
        }
    }
}
