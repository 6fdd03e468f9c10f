import Foundation
import HTTPTypes
import OpenAPIRuntime
import StickerCatalogAPI

/// The service's routes as the client uses them, through the generated `Client` and one transport: every request
/// passes `ServiceMiddleware` (retries, sign-in, refusals as errors, bounded bodies), image files included.
struct CatalogService: Sendable {
    let base: URL
    let transport: any ClientTransport
    let middleware: ServiceMiddleware
    let api: Client
    /// The event stream's client: its own transport when the sync's ends requests at a deadline.
    let streams: Client
    /// The service's scheme, authority and origin (no path), for image paths on it.
    let home: (scheme: String, authority: String, origin: URL)?

    /// The app's middlewares, after `middleware`.
    let middlewares: [any ClientMiddleware]

    init(
        base: URL, transport: any ClientTransport, streamTransport: (any ClientTransport)? = nil,
        middleware: ServiceMiddleware, middlewares: [any ClientMiddleware] = []
    ) {
        (self.base, self.transport, self.middleware, self.middlewares) = (base, transport, middleware, middlewares)
        api = Client(serverURL: base, transport: transport, middlewares: [middleware] + middlewares)
        streams = Client(
            serverURL: base, transport: streamTransport ?? transport, middlewares: [middleware] + middlewares)
        home = Self.origin(of: base)
    }

    /// `url`'s scheme, its authority (an IPv6 literal in brackets) and the URL of both; nil when no URL can hold them.
    static func origin(of url: URL) -> (scheme: String, authority: String, origin: URL)? {
        guard let scheme = url.scheme, let host = url.host() else { return nil }
        let authority = (host.contains(":") ? "[\(host)]" : host) + (url.port.map { ":\($0)" } ?? "")
        return URL(string: "\(scheme)://\(authority)").map { (scheme, authority, $0) }
    }

    enum Fresh<Value: Sendable>: Sendable {
        case notModified
        case value(Value, etag: String?)
    }

    func manifest(_ view: CatalogView, etag: String?) async throws -> Fresh<Manifest> {
        let query = Operations.GetManifest.Input.Query(
            filter: view.filter, flags: view.flagList, size: view.size,
            scale: view.scaleValue, format: view.format, locale: view.language)
        switch try await call({ try await api.getManifest(query: query, headers: .init(ifNoneMatch: etag)) }) {
        case .ok(let ok): return .value(try ok.body.json, etag: ok.headers.eTag)
        case .notModified: return .notModified
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/manifest")
        }
    }

    /// One page of changes since `cursor` (the generated client escapes it); nil when nothing changed.
    func changes(_ view: CatalogView, since cursor: String) async throws -> ManifestChanges? {
        let query = Operations.GetManifestChanges.Input.Query(
            since: cursor, filter: view.filter, flags: view.flagList, size: view.size,
            scale: view.scaleValue, format: view.format, locale: view.language)
        switch try await call({ try await api.getManifestChanges(query: query) }) {
        case .ok(let ok): return try ok.body.json
        case .notModified: return nil
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/manifest/changes")
        }
    }

    /// `GET /v1/events` from `cursor`: its events as they arrive (a heartbeat is an event with no field), lines
    /// bounded.
    func events(
        _ view: CatalogView, from cursor: String?
    ) async throws -> ServerSentEventsDeserializationSequence<ServerSentEventsLineDeserializationSequence<HTTPBody>> {
        let query = Operations.GetEvents.Input.Query(
            filter: view.filter, flags: view.flagList, size: view.size,
            scale: view.scaleValue, format: view.format, locale: view.language)
        let body: HTTPBody
        switch try await call({ try await streams.getEvents(query: query, headers: .init(lastEventID: cursor)) }) {
        case .ok(let ok): body = try ok.body.textEventStream
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/events")
        }
        return body.asDecodedServerSentEvents()
    }

    /// One page of `GET /v1/search` in `view`.
    func search(_ text: String, view: CatalogView, limit: Int?, cursor: String?) async throws -> SearchPage {
        let query = Operations.Search.Input.Query(
            q: text, filter: view.filter, flags: view.flagList, size: view.size, scale: view.scaleValue,
            format: view.format, locale: view.language, limit: limit, cursor: cursor)
        switch try await call({ try await api.search(query: query) }) {
        case .ok(let ok): return try ok.body.json
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/search")
        }
    }

    /// `GET /v1/search/suggestions`.
    func suggestions(_ prefix: String, locale: String?) async throws -> [String] {
        switch try await call({ try await api.searchSuggestions(query: .init(q: prefix, locale: locale)) }) {
        case .ok(let ok): return try ok.body.json.suggestions
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/search/suggestions")
        }
    }

    func purchaseToken() async throws -> String {
        switch try await call({ try await api.getPurchaseToken() }) {
        case .ok(let ok): return try ok.body.json.purchaseToken
        default: throw StickerClientError.invalidAnswer("an undocumented answer to GET /v1/me/purchase-token")
        }
    }

    func submit(signedTransaction: String) async throws {
        switch try await call({
            try await api.postAppleTransaction(body: .json(.init(signedTransaction: signedTransaction)))
        }) {
        case .ok: return
        default:
            throw StickerClientError.invalidAnswer("an undocumented answer to POST /v1/purchases/apple/transactions")
        }
    }

    /// The bytes at `url` (a path on the service or an absolute URL), handed to `into` as they arrive, at most
    /// `bytes` of them: anything longer is refused as it arrives, never buffered.
    func file(_ url: String, bytes limit: Int, into sink: (ArraySlice<UInt8>) throws -> Void) async throws {
        let (request, origin) = try request(for: url)
        let (response, body) = try await middleware.intercept(
            request, body: nil, baseURL: origin, operationID: "getAsset"
        ) { request, body, url in
            try await send(request, body, url, "getAsset")
        }
        guard response.status == .ok else {
            throw StickerClientError.refused(status: response.status.code, code: nil, detail: Redaction.url(url))
        }
        guard let body else { return }
        do {
            for try await chunk in body.bounded(to: limit) { try sink(chunk) }
        } catch let error as StickerClientError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw StickerClientError.unreachable(
                "\(Redaction.url(url).prefix(120)): \(Redaction.describe(error))", reason: .of(error))
        }
    }

    /// `POST /v1/assets/bundle` for `links`, which are paths on the service: the answer's bytes, at most as many as
    /// their frames can take.
    func bundle(_ links: [AssetLink]) async throws -> HTTPBody {
        let items = links.map { link in
            let query = link.url.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            var (exp, sig): (String?, String?) = (nil, nil)
            for pair in query.split(separator: "&") {
                if pair.hasPrefix("exp=") { exp = String(pair.dropFirst(4)) }
                if pair.hasPrefix("sig=") { sig = String(pair.dropFirst(4)) }
            }
            return Operations.PostAssetBundle.Input.Body.JsonPayload.AssetsPayloadPayload(
                sha256: link.sha256, exp: exp, sig: sig)
        }
        switch try await call({ try await api.postAssetBundle(body: .json(.init(assets: items))) }) {
        case .ok(let ok):
            // A frame's length is four bytes: no image in one is longer. Summed in 64 bits, then clamped: on watchOS'
            // arm64_32 an Int is 32 bits, and `Int(UInt32.max)` alone would trap there.
            let limit = Int(
                clamping: links.reduce(Int64(0)) {
                    $0 + Int64(BundleFrames.headerBytes) + min(max(Int64($1.bytes), 0), Int64(UInt32.max))
                })
            return try ok.body.applicationVnd_stickercatalog_bundle.bounded(to: limit)
        default: throw StickerClientError.invalidAnswer("an undocumented answer to POST /v1/assets/bundle")
        }
    }

    /// A GET of `url` and the origin it goes to. A path on the service (what the manifest gives unless images are on
    /// a CDN) is taken as it is, without a URL parse per file; an absolute URL is parsed, and refused when no URL can
    /// hold its host.
    func request(for url: String) throws -> (HTTPRequest, URL) {
        if let home, url.utf8.first == UInt8(ascii: "/"), url.utf8.dropFirst().first != UInt8(ascii: "/"),
            url.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        {
            return (HTTPRequest(method: .get, scheme: home.scheme, authority: home.authority, path: url), home.origin)
        }
        guard let resolved = URL(string: url, relativeTo: base)?.absoluteURL,
            let (scheme, authority, origin) = Self.origin(of: resolved)
        else {
            throw StickerClientError.invalidAnswer("an image URL that is not one: \(Redaction.url(url).prefix(80))")
        }
        var path = resolved.path(percentEncoded: true)
        if let query = resolved.query(percentEncoded: true) { path += "?" + query }
        return (
            HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path.isEmpty ? "/" : path), origin
        )
    }

    /// `request` through the app's middlewares (from `index` on), then the transport: what the generated client does
    /// for its operations, for the image files fetched without it.
    private func send(
        _ request: HTTPRequest, _ body: HTTPBody?, _ url: URL, _ operationID: String, from index: Int = 0
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard index < middlewares.count else {
            return try await transport.send(request, body: body, baseURL: url, operationID: operationID)
        }
        return try await middlewares[index].intercept(request, body: body, baseURL: url, operationID: operationID) {
            try await send($0, $1, $2, operationID, from: index + 1)
        }
    }

    /// `operation`, with the errors the middleware threw unwrapped from the generated client's `ClientError`, and any
    /// other error made a `StickerClientError` (`StickerClientError.from`).
    func call<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch {
            throw StickerClientError.from(error)
        }
    }
}
