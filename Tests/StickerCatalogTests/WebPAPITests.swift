import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StickerImage
import TestSupport
import Testing

/// WebP through the API: uploads, `format=webp` on the manifest, the change feed and search, and `.webp` images with
/// the caching, ranges and premium signatures PNG ones have.
@Suite("WebP through the API")
struct WebPAPITests {
    /// Every image URL a manifest (or any answer) names.
    static func urls(_ json: Any) -> [String] {
        switch json {
        case let object as [String: Any]:
            object.flatMap { key, value in key == "url" ? [value as? String].compactMap { $0 } : urls(value) }
        case let array as [Any]: array.flatMap(urls)
        default: []
        }
    }

    @Test(
        "format=webp names a WebP for every asset, thumbnail and cover; each is served as image/webp with the PNG routes' caching"
    )
    func manifest() async throws {
        try await withApp(demo: true) { client, _ in
            // Action
            let manifest = try await client.execute(uri: "/v1/manifest?format=webp&size=small&scale=2", method: .get)
            // Check
            #expect(manifest.json["format"] as? String == "webp")
            let urls = Self.urls(manifest.json)
            #expect(urls.count == 3 + 9 * 2 && urls.allSatisfy { $0.hasSuffix(".webp") }, "\(urls)")
            let url = try #require(urls.first)
            let image = try await client.execute(uri: url, method: .get)
            #expect(image.status == .ok && image.headers[.contentType] == "image/webp")
            #expect(image.headers[.cacheControl] == "public, max-age=31536000, immutable")
            // The 200 px picture, or a larger one that takes fewer bytes.
            let size = WebPCodec.decode(Array(buffer: image.body)).map { ($0.width, $0.height) } ?? (0, 0)
            #expect(size.0 >= 200 && size.0 == size.1, "\(size)")
            let etag = try #require(image.headers[.eTag])
            #expect(
                try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: etag]).status == .notModified)
            let part = try await client.execute(uri: url, method: .get, headers: [.range: "bytes=0-11"])
            #expect(part.status == .partialContent && Array(buffer: part.body).starts(with: Array("RIFF".utf8)))
            // The same image at the other extension is not there; a PNG is not at .webp either.
            #expect(
                try await client.execute(uri: url.replacingOccurrences(of: ".webp", with: ".png"), method: .get).status
                    == .notFound)
            let png = try #require(Self.urls(try await client.execute(uri: "/v1/manifest", method: .get).json).first)
            #expect(
                try await client.execute(uri: png.replacingOccurrences(of: ".png", with: ".webp"), method: .get).status
                    == .notFound)
            // A bad format is a 400 problem.
            let bad = try await client.execute(uri: "/v1/manifest?format=gif", method: .get)
            #expect(bad.status == .badRequest && bad.problemCode == "invalid_parameter")
        }
    }

    @Test("An animated sticker is an animated WebP in a webp view and its still picture in a png one")
    func animated() async throws {
        try await withApp(demo: true) { client, _ in
            let upload = try await client.execute(
                uri: "/v1/admin/groups/crunchy/stickers?name=Spin&description=d", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.everyOpAnimation))
            let id = try #require(upload.json["id"] as? String)
            for (format, frames) in [("webp", 5), ("apng", 5), ("png", 1)] {
                let groups =
                    try await client.execute(uri: "/v1/manifest?format=\(format)", method: .get).json["groups"]
                    as? [[String: Any]] ?? []
                let sticker = try #require(
                    groups.flatMap { $0["stickers"] as? [[String: Any]] ?? [] }.first { $0["id"] as? String == id })
                let asset = try #require(sticker["asset"] as? [String: Any])
                let bytes = Array(
                    buffer: try await client.execute(uri: try #require(asset["url"] as? String), method: .get).body)
                let file = try StickerSource(
                    bytes,
                    rules: {
                        var rules = StickerRules()
                        rules.sideRange = 1...618
                        return rules
                    }())
                #expect(
                    file.format == (format == "webp" ? .webp : .png) && file.frameCount == frames
                        && sticker["frames"] as? Int == frames, "\(format)")
            }
        }
    }

    @Test(
        "A WebP upload, raw or in a form, is stored as WebP with renditions in both formats; a bad one is a 4xx with its code"
    )
    func upload() async throws {
        try await withApp(demo: true) { client, db in
            var headers = admin
            headers[.contentType] = "image/webp"
            let raw = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=W&description=d&emoji=%F0%9F%8D%AC", method: .post,
                headers: headers, body: ByteBuffer(bytes: WebPSamples.still("GummiBear")))
            #expect(raw.status == .created, "\(raw.json)")
            let formats = (raw.json["renditions"] as? [[String: Any]] ?? []).compactMap { $0["format"] as? String }
            #expect(formats.filter { $0 == "png" }.count == 9 && formats.filter { $0 == "webp" }.count == 9)
            // Admin answers sign every URL: the path ends in .webp.
            #expect(
                ((raw.json["asset"] as? [String: Any])?["url"] as? String)?.split(separator: "?").first?.hasSuffix(
                    ".webp") == true)
            let form = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(
                    [("name", "A"), ("description", "d")], files: [("file", WebPSamples.animation(side: 300))]))
            #expect(form.status == .created && form.json["frames"] as? Int == 5, "\(form.json)")
            #expect(try await db.count("SELECT count(*) FROM assets WHERE format = 'webp'") > 0)
            let before = try await db.count("SELECT count(*) FROM stickers")
            for hostile in HostileWebP.allCases {
                let refused = try await client.execute(
                    uri: "/v1/admin/groups/chewy/stickers?name=H&description=d", method: .post,
                    headers: headers, body: ByteBuffer(bytes: hostile.bytes))
                #expect(
                    (400..<500).contains(refused.status.code) && hostile.codes.contains(refused.problemCode ?? ""),
                    "\(hostile): \(refused.json)")
            }
            #expect(try await db.count("SELECT count(*) FROM stickers") == before)
        }
    }

    @Test("A premium sticker's WebP needs its signed URL, as its PNG does")
    func premium() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            _ = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["productId": "com.example.chewy"]))
            let group = try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin).json
            let sticker = try #require((group["stickers"] as? [[String: Any]])?.last)
            let signed = try #require(
                (sticker["renditions"] as? [[String: Any]])?.first {
                    $0["format"] as? String == "webp" && $0["edge"] as? Int == 200
                }
                .flatMap { ($0["asset"] as? [String: Any])?["url"] as? String })
            #expect(signed.contains(".webp?exp="))
            #expect(try await client.execute(uri: signed, method: .get).status == .ok)
            let bare = try await client.execute(uri: String(signed.prefix { $0 != "?" }), method: .get)
            #expect(bare.status == .notFound && bare.problemCode == "not_found")
        }
    }

    @Test("The change feed in a webp view names WebPs")
    func changes() async throws {
        try await withApp(demo: true) { client, _ in
            let cursor = try #require(
                try await client.execute(uri: "/v1/manifest?format=webp", method: .get).json["cursor"] as? String)
            _ = try await client.execute(
                uri: "/v1/admin/groups/crunchy/stickers?name=New&description=d", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.gradient(408, 408)))
            let page = try await eventually(pause: .milliseconds(100)) {
                try await client.execute(uri: "/v1/manifest/changes?since=\(cursor)&format=webp", method: .get).json
            } until: {
                !Self.urls($0).isEmpty
            }
            let urls = Self.urls(page)
            #expect(!urls.isEmpty && urls.allSatisfy { $0.hasSuffix(".webp") }, "\(page)")
        }
    }
}
