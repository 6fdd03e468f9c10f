import Crypto
import Foundation
import HTTPTypes
import OpenAPIRuntime

@testable import StickerCatalogClient

/// A service in memory, as a `ClientTransport`: a catalog of generated images, answers chosen per request by a
/// handler that may replace them (refusals, endless bodies, pages that go back), and every request recorded.
final class MemoryService: ClientTransport, @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest, Int) -> (HTTPResponse, HTTPBody?)?
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private(set) var requests: [HTTPRequest] = []
    var handler: Handler = { _, _ in nil }
    /// Whether `POST /v1/assets/bundle` is served (an older service answers 404).
    var bundles = true
    /// Replaces a bundle's frames with what it returns (a hostile service).
    var tamper: @Sendable (Data) -> Data = { $0 }
    /// Images by digest.
    private(set) var files: [String: Data]
    var manifest: [String: Any]

    init(stickers: Int = 3) {
        var files: [String: Data] = [:]
        var list: [[String: Any]] = []
        for index in 0..<stickers {
            let bytes = Data("sticker \(index)".utf8)
            let sha = Self.hex(bytes)
            files[sha] = bytes
            let link = Self.link(bytes)
            list.append([
                "id": "s\(index)", "name": "S\(index)", "description": "d", "flags": [], "keywords": [], "emoji": [],
                "animated": false,
                "frames": 1, "durationMs": 0, "loops": 0, "asset": link, "thumbnail": link,
            ])
        }
        self.files = files
        let group: [String: Any] = [
            "id": "g", "name": "G", "sizeClass": "small", "flags": [], "position": 0, "locked": false,
            "productId": NSNull(), "stickers": list,
        ]
        manifest = [
            "revision": 1, "cursor": "c1", "filter": NSNull(), "flags": [], "scale": 1, "format": NSNull(),
            "locale": NSNull(),
            "groups": [group],
        ]
    }

    /// An image's link as the manifest gives it.
    static func link(_ bytes: Data) -> [String: Any] {
        [
            "url": "/v1/assets/\(hex(bytes)).png", "width": 1, "height": 1, "bytes": bytes.count, "sha256": hex(bytes),
            "animated": false,
        ]
    }

    /// Gives sticker `index` a new picture (and thumbnail) `bytes`, served or not, and raises the revision.
    func replace(sticker index: Int, with bytes: Data, served: Bool = true) {
        var group = (manifest["groups"] as! [[String: Any]])[0]
        var stickers = group["stickers"] as! [[String: Any]]
        (stickers[index]["asset"], stickers[index]["thumbnail"]) = (Self.link(bytes), Self.link(bytes))
        group["stickers"] = stickers
        manifest["groups"] = [group]
        manifest["revision"] = (manifest["revision"] as! Int) + 1
        manifest["cursor"] = "c\(manifest["revision"]!)"
        if served { lock.withLock { files[Self.hex(bytes)] = bytes } }
    }

    /// Serves `bytes` from now on.
    func serve(_ bytes: Data) {
        lock.withLock { files[Self.hex(bytes)] = bytes }
    }

    static func hex(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    func count(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let path = String((request.path ?? "").split(separator: "?", maxSplits: 1).first ?? "")
        let number = lock.withLock { () -> Int in
            requests.append(request)
            counts[path, default: 0] += 1
            return counts[path]!
        }
        if let answer = handler(request, number) { return answer }
        if path == "/v1/manifest" { return Self.json(manifest) }
        if path == "/v1/assets/bundle", bundles, let body {
            return (
                HTTPResponse(status: .ok, headerFields: [.contentType: "application/vnd.stickercatalog.bundle"]),
                HTTPBody(tamper(bundle(asked: try await Data(collecting: body, upTo: 1 << 20))))
            )
        }
        if path.hasPrefix("/v1/assets/"),
            let file = lock.withLock({ files[String(path.dropFirst("/v1/assets/".count).dropLast(4))] })
        {
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "image/png"]), HTTPBody(file))
        }
        if path == "/v1/manifest/changes" { return (HTTPResponse(status: .notModified), nil) }
        return (
            HTTPResponse(status: .notFound, headerFields: [.contentType: "application/problem+json"]),
            HTTPBody(#"{"code":"not_found","detail":"no such thing"}"#)
        )
    }

    /// The frames for the digests a bundle's request body asks for: status 0 and the bytes, or 1 for an unknown one.
    func bundle(asked body: Data) -> Data {
        let assets =
            ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["assets"] as? [[String: Any]] ?? []
        var frames = Data()
        for asset in assets {
            let file = lock.withLock { files[asset["sha256"] as? String ?? ""] }
            frames.append(file == nil ? 1 : 0)
            withUnsafeBytes(of: UInt32(file?.count ?? 0).bigEndian) { frames.append(contentsOf: $0) }
            frames.append(file ?? Data())
        }
        return frames
    }

    static func json(
        _ object: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> (HTTPResponse, HTTPBody?) {
        var fields = headers
        fields[.contentType] = "application/json"
        return (
            HTTPResponse(status: status, headerFields: fields),
            HTTPBody(try! JSONSerialization.data(withJSONObject: object))
        )
    }

    static func refusal(
        _ status: HTTPResponse.Status, code: String, retryAfter: String? = nil
    ) -> (HTTPResponse, HTTPBody?) {
        var fields: HTTPFields = [.contentType: "application/problem+json"]
        if let retryAfter { fields[.retryAfter] = retryAfter }
        return (
            HTTPResponse(status: status, headerFields: fields), HTTPBody(#"{"code":"\#(code)","detail":"refused"}"#)
        )
    }
}

/// Waits recorded instead of waited, and the time they add up to; a wait past `limit` throws `CancellationError`
/// (which ends a `follow()`).
final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var waits: [Duration] = []
    let limit: Duration?

    init(limit: Duration? = nil) {
        self.limit = limit
    }

    var now: Duration { lock.withLock { waits.reduce(.zero, +) } }
    private let start = ContinuousClock.now
    /// `now` as an instant of the continuous clock: what a sync's deadline is measured on.
    var instant: ContinuousClock.Instant { start + now }

    func sleep(_ duration: Duration) async throws {
        try Task.checkCancellation()
        let passed = lock.withLock { () -> Bool in
            waits.append(duration)
            return limit.map { waits.reduce(.zero, +) > $0 } ?? false
        }
        if passed { throw CancellationError() }
        await Task.yield()
    }
}

extension StickerSync {
    /// A sync of a temporary folder against `service`, waiting on `clock`.
    static func testing(
        _ service: some ClientTransport, clock: FakeClock = FakeClock(), folder: URL = StickerSync.temporaryFolder(),
        view: CatalogView = CatalogView(), credentials: Credentials? = nil,
        _ configure: (inout SyncOptions) -> Void = { _ in }
    ) -> StickerSync {
        var options = SyncOptions()
        configure(&options)
        return StickerSync(
            service: URL(string: "http://stickers.test")!, folder: LocalCatalog(directory: folder), view: view,
            credentials: credentials, options: options, transport: service, sleep: { try await clock.sleep($0) },
            now: { clock.instant })
    }

    static func temporaryFolder() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "sticker-client-\(UUID().uuidString)")
    }
}
