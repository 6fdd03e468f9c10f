import Crypto
import Foundation
import HTTPTypes
import OpenAPIRuntime

@testable import StickerCatalogClient

/// A catalog of many groups in memory, as the group index, the group route and the images answer it: each group's
/// `version` a digest of its JSON (so a change moves that group's alone), the index's ETag a digest of what it lists
/// (so `If-None-Match` answers 304 when none of the asked groups moved). Every request is recorded.
final class LibraryService: ClientTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var groups: [String: [String: Any]] = [:]
    private var order: [String] = []
    private var files: [String: Data] = [:]
    private(set) var requests: [String] = []
    /// Each request's target and the platform it stated (`Sticker-Platform`), for the audience facts' tests.
    private(set) var platforms: [(target: String, platform: String?)] = []
    /// Revalidations answered 304.
    private(set) var notModified = 0

    /// `count` groups `g0`... of `stickers` stickers, each with its own picture and thumbnail of `bytes` bytes.
    init(groups count: Int, stickers: Int, bytes: Int = 100) {
        for group in 0..<count {
            let id = "g\(group)"
            order.append(id)
            groups[id] = [
                "id": id, "name": "G\(group)", "sizeClass": "small", "flags": [], "position": group, "locked": false,
                "productId": NSNull(), "stickers": (0..<stickers).map { sticker($0, in: id, bytes: bytes) },
            ]
        }
    }

    private func sticker(_ index: Int, in group: String, bytes: Int, edition: Int = 0) -> [String: Any] {
        let picture = file("\(group)/\(index)/\(edition)/picture", bytes: bytes)
        let thumbnail = file("\(group)/\(index)/\(edition)/thumbnail", bytes: bytes)
        return [
            "id": "\(group)-s\(index)", "name": "S\(index)", "description": "d", "flags": [], "keywords": [],
            "emoji": [], "animated": false, "frames": 1, "durationMs": 0, "loops": 0, "asset": picture,
            "thumbnail": thumbnail, "placeholder": "#ff000080",
        ]
    }

    /// A file of `bytes` bytes made from `seed`, served from now on; its link.
    private func file(_ seed: String, bytes: Int) -> [String: Any] {
        var data = Data(seed.utf8)
        while data.count < bytes { data.append(contentsOf: SHA256.hash(data: data)) }
        data = data.prefix(bytes)
        let sha = MemoryService.hex(data)
        files[sha] = data
        return MemoryService.link(data)
    }

    /// Gives sticker 0 of `group` a new picture (its thumbnail stays).
    func change(_ group: String) {
        lock.withLock {
            var stickers = groups[group]!["stickers"] as! [[String: Any]]
            let bytes = (stickers[0]["asset"] as! [String: Any])["bytes"] as! Int
            stickers[0]["asset"] = file("\(group)/0/\(UUID())/picture", bytes: bytes)
            groups[group]!["stickers"] = stickers
        }
    }

    /// Takes `group` out of the view (unpublished, or outside the caller's audience).
    func hide(_ group: String) { lock.withLock { order.removeAll { $0 == group } } }

    /// Locks `group` behind `product` (a refund: the caller no longer holds it).
    func lock(_ group: String, product: String = "com.example.premium") {
        lock.withLock { (groups[group]!["locked"], groups[group]!["productId"]) = (true, product) }
    }

    func count(_ prefix: String) -> Int { lock.withLock { requests.filter { $0.hasPrefix(prefix) }.count } }
    func reset() { lock.withLock { requests = [] } }

    /// A group as the view shows it: a locked one without stickers.
    private func shown(_ id: String) -> [String: Any] {
        var group = groups[id]!
        if group["locked"] as? Bool == true { group["stickers"] = [] }
        let stickers = groups[id]!["stickers"] as! [[String: Any]]
        group["cover"] = stickers.first?["thumbnail"]
        return group
    }

    static func digest(_ object: Any) -> String {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(MemoryService.hex(data).prefix(32))
    }

    private func summary(_ id: String) -> [String: Any] {
        let group = shown(id)
        var summary = group
        summary["stickers"] = nil
        summary["stickerCount"] = (groups[id]!["stickers"] as! [Any]).count
        summary["animated"] = false
        summary["version"] = Self.digest(group)
        return summary
    }

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let target = request.path ?? ""
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        let path = parts[0]
        let query = Dictionary(
            (parts.count > 1 ? parts[1] : "").split(separator: "&").map {
                let pair = $0.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                return (pair[0], pair.count > 1 ? pair[1] : "")
            }, uniquingKeysWith: { $1 })
        return lock.withLock {
            requests.append(target)
            platforms.append((target, request.headerFields[HTTPField.Name("Sticker-Platform")!]))
            if path == "/v1/groups" {
                let asked = query["ids"].map { Set($0.split(separator: ",").map(String.init)) }
                let listed = order.filter { asked?.contains($0) ?? true }.map(summary)
                let page: [String: Any] = ["revision": 1, "groups": listed, "next": NSNull()]
                let etag = "\"\(Self.digest(listed))\""
                if request.headerFields[.ifNoneMatch] == etag {
                    notModified += 1
                    return (HTTPResponse(status: .notModified), nil)
                }
                return MemoryService.json(page, headers: [.eTag: etag])
            }
            if path.hasPrefix("/v1/groups/"), let id = path.split(separator: "/").last.map(String.init),
                order.contains(id)
            {
                let group = shown(id)
                return MemoryService.json(group, headers: [.eTag: "\"\(Self.digest(group))-br\""])
            }
            if path.hasPrefix("/v1/assets/"), let file = files[String(path.dropFirst("/v1/assets/".count).dropLast(4))]
            {
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "image/png"]), HTTPBody(file))
            }
            return MemoryService.refusal(.notFound, code: "not_found")
        }
    }
}

extension StickerLibrary {
    /// A library of `folder` (a new temporary one by default) over `service`.
    static func testing(
        _ service: some ClientTransport, folder: URL = StickerSync.temporaryFolder(),
        _ configure: (inout SyncOptions) -> Void = { _ in }
    ) -> StickerLibrary {
        var options = SyncOptions()
        configure(&options)
        return StickerLibrary(
            service: URL(string: "http://stickers.test")!, folder: LocalCatalog(directory: folder), options: options,
            transport: service, sleep: { try await Task.sleep(for: $0) })
    }
}
