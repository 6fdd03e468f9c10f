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

@Suite("Renditions through the API: manifests, assets, rebuild, garbage collection")
struct RenditionAPITests {
    /// Uploads `png` into group `group` and answers the new sticker's JSON.
    func upload(
        _ client: some TestClientProtocol, _ png: [UInt8], group: String = "chewy", name: String = "New"
    ) async throws -> [String: Any] {
        let response = try await client.execute(
            uri: "/v1/admin/groups/\(group)/stickers?name=\(name)&description=d", method: .post,
            headers: Body.pngHeaders, body: ByteBuffer(bytes: png))
        #expect(response.status == .created, "\(response.json)")
        return response.json
    }

    /// The manifest's sticker `id`, at `query`.
    func manifestSticker(_ client: some TestClientProtocol, _ id: String, query: String) async throws -> [String: Any]?
    {
        let groups =
            try await client.execute(uri: "/v1/manifest?\(query)", method: .get).json["groups"] as? [[String: Any]]
            ?? []
        return groups.flatMap { $0["stickers"] as? [[String: Any]] ?? [] }.first { $0["id"] as? String == id }
    }

    @Test(
        "size and scale select the rendition; without size the group's class; the true size is reported and downloaded")
    func manifestSizes() async throws {
        try await withApp(demo: true) { client, _ in
            let id = try #require(try await upload(client, Samples.gradient(618, 300))["id"] as? String)
            for size in [nil] + SizeClass.allCases.map(Optional.some) {
                for scale in [nil, 1, 2, 3] {
                    let query = [size.map { "size=\($0.rawValue)" }, scale.map { "scale=\($0)" }].compactMap { $0 }
                        .joined(separator: "&")
                    let sticker = try #require(try await manifestSticker(client, id, query: query))
                    let edge = (size ?? .medium).pixels(scale: scale ?? 3)
                    let expected = RenditionEdge.fitted(width: 618, height: 300, edge: edge)
                    // The picture fitted in the box, or a larger one that takes fewer bytes; its true size is
                    // reported.
                    let asset = try #require(sticker["asset"] as? [String: Any])
                    let (width, height) = (asset["width"] as? Int ?? 0, asset["height"] as? Int ?? 0)
                    #expect(width >= expected.width && height >= expected.height, "\(query)")
                    let aspect = Double(width) / Double(max(1, height))
                    #expect(abs(aspect - 618.0 / 300) < 0.02, "\(query)")
                    let bytes = try await client.execute(uri: try #require(asset["url"] as? String), method: .get)
                    let image = try PNGCodec.decode(Array(buffer: bytes.body), maxPixels: 1 << 20)
                    #expect(
                        (image.width, image.height) == (width, height)
                            && bytes.body.readableBytes == asset["bytes"] as? Int)
                    let thumbnail = try #require(sticker["thumbnail"] as? [String: Any])
                    #expect(
                        thumbnail["width"] as? Int ?? 0
                            >= RenditionEdge.fitted(width: 618, height: 300, edge: 100 * (scale ?? 3)).width)
                }
            }
        }
    }

    @Test("format=png serves an APNG's default image, still; the thumbnail is always still")
    func stillFormat() async throws {
        try await withApp(demo: true) { client, _ in
            let apng = APNGWriter.animation(side: 408, frames: 4).bytes
            let id = try #require(try await upload(client, apng)["id"] as? String)
            let animated = try #require(try await manifestSticker(client, id, query: "scale=2"))
            #expect(animated["animated"] as? Bool == true && animated["frames"] as? Int == 4)
            #expect((animated["asset"] as? [String: Any])?["animated"] as? Bool == true)
            #expect((animated["thumbnail"] as? [String: Any])?["animated"] as? Bool == false)
            let still = try #require(try await manifestSticker(client, id, query: "scale=2&format=png"))
            #expect(still["animated"] as? Bool == false && still["frames"] as? Int == 1)
            let url = try #require((still["asset"] as? [String: Any])?["url"] as? String)
            let file = try PNGFile(
                Array(buffer: try await client.execute(uri: url, method: .get).body), rules: StickerRules())
            #expect(file.animation == nil && file.width == 272)
            #expect(
                try await client.execute(uri: "/v1/manifest?format=gif", method: .get).problemCode
                    == "invalid_parameter")
        }
    }

    @Test(
        "Every picture a manifest names is stored: after uploads, a size class change, and for stickers without renditions"
    )
    func alwaysStored() async throws {
        try await withApp(demo: true) { client, db in
            _ = try await upload(client, Samples.gradient(300, 618), group: "crunchy")
            _ = try await client.execute(
                uri: "/v1/admin/groups/crunchy", method: .patch, headers: admin, body: Body.json(["sizeClass": "large"])
            )
            // A sticker from before renditions existed: it is shown as uploaded until they are made.
            try await db.execute(
                "DELETE FROM renditions WHERE source_sha256 = (SELECT asset_sha256 FROM stickers WHERE name = 'Caramel')"
            )
            for query in ["", "scale=1", "size=small&scale=2", "format=png", "size=large"] {
                let manifest = try await client.execute(uri: "/v1/manifest?\(query)", method: .get)
                let groups = manifest.json["groups"] as? [[String: Any]] ?? []
                var links: [[String: Any]] = []
                for group in groups {
                    if let cover = group["cover"] as? [String: Any] { links.append(cover) }
                    for sticker in group["stickers"] as? [[String: Any]] ?? [] {
                        links += [sticker["asset"], sticker["thumbnail"]].compactMap { $0 as? [String: Any] }
                    }
                }
                #expect(links.count > 20)
                for link in links {
                    let sha = try #require(link["sha256"] as? String)
                    #expect(try await db.count("SELECT count(*) FROM assets WHERE sha256 = '\(sha)'") == 1, "\(query)")
                }
            }
        }
    }

    @Test("A deleted sticker's pictures stay served until gc removes them after the grace period; pictures in use stay")
    func garbage() async throws {
        try await withApp(demo: true) { client, db in
            let created = try await upload(client, Samples.gradient(500, 400))
            let id = try #require(created["id"] as? String)
            let urls = ((created["renditions"] as? [[String: Any]]) ?? []).compactMap {
                ($0["asset"] as? [String: Any])?["url"] as? String
            }
            #expect(urls.count == Renditions.count(animated: false))
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            let before = try await db.count("SELECT count(*) FROM assets")
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .delete, headers: admin).status
                    == .noContent)
            for url in urls { #expect(try await client.execute(uri: url, method: .get).status == .ok) }
            #expect(
                try await PostgresMaintenance(store: catalog.store).collectGarbage(
                    unusedFor: .seconds(3600), limit: 100
                ).images == 0)
            // Once the grace period is over and no kept release shows them: the original and its renditions go, nothing
            // else.
            try await db.execute(
                "UPDATE assets SET unreferenced_since = now() - interval '2 hours' WHERE unreferenced_since IS NOT NULL"
            )
            #expect(
                try await PostgresMaintenance(store: catalog.store).collectGarbage(
                    unusedFor: .seconds(3600), limit: 100
                ).images == 0,
                "a kept release shows them")
            #expect(try await PostgresReleases(store: catalog.store).pruneReleases(olderThan: .zero) > 0)
            let distinct = Set(urls).count
            var removed = 0
            while true {
                let batch = try await PostgresMaintenance(store: catalog.store).collectGarbage(
                    unusedFor: .seconds(3600), limit: 3)
                if batch.images == 0 { break }
                removed += batch.images
            }
            let after = try await db.count("SELECT count(*) FROM assets")
            #expect(removed == distinct && after == before - distinct)
            #expect(
                try await db.count(
                    """
                    SELECT count(*) FROM stickers s WHERE NOT EXISTS (SELECT 1 FROM assets a WHERE a.sha256 = s.asset_sha256)
                    """) == 0)
            #expect(try await client.execute(uri: "/v1/manifest", method: .get).status == .ok)
        }
    }

    @Test(
        "Rebuild makes missing or outdated renditions again, resumes where it stopped, and leaves replaced ones to gc")
    func rebuild() async throws {
        try await withApp(demo: true) { client, db in
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            try await db.execute("UPDATE assets SET renditions_version = 0")
            try await db.execute(
                "DELETE FROM renditions WHERE source_sha256 IN (SELECT asset_sha256 FROM stickers WHERE group_id = 'chewy')"
            )
            #expect(
                try await PostgresMaintenance(store: catalog.store).countImagesNeedingRenditions(
                    version: Renditions.version) == 9)
            // One batch of four, as if interrupted, then the rest.
            let first = try await PostgresMaintenance(store: catalog.store).imagesNeedingRenditions(
                version: Renditions.version, after: "", limit: 4)
            for image in first {
                try await PostgresMaintenance(store: catalog.store).replaceRenditions(
                    source: image.sha256,
                    try Renditions.make(.png(PNGFile(image.bytes, rules: StickerRules())), stored: image.bytes))
            }
            #expect(
                try await PostgresMaintenance(store: catalog.store).countImagesNeedingRenditions(
                    version: Renditions.version) == 5)
            let rest = try await PostgresMaintenance(store: catalog.store).imagesNeedingRenditions(
                version: Renditions.version, after: "", limit: 100)
            #expect(Set(rest.map(\.sha256)).isDisjoint(with: first.map(\.sha256)) && rest.count == 5)
            for image in rest {
                try await PostgresMaintenance(store: catalog.store).replaceRenditions(
                    source: image.sha256,
                    try Renditions.make(.png(PNGFile(image.bytes, rules: StickerRules())), stored: image.bytes))
            }
            #expect(try await db.count("SELECT count(*) FROM renditions") == 9 * Renditions.count(animated: false))
            #expect(try await db.count("SELECT count(*) FROM assets WHERE unreferenced_since IS NOT NULL") == 0)
            // Different renditions for one image: the ones replaced become garbage.
            let sha = try #require(first.first?.sha256)
            // Its distinct renditions but the upload itself: what the replacement leaves unreferenced.
            let distinct = try await db.count(
                "SELECT count(DISTINCT asset_sha256) FROM renditions WHERE source_sha256 = '\(sha)' AND asset_sha256 <> '\(sha)'"
            )
            #expect(distinct > 1)
            let other = try Renditions.make(
                .png(PNGFile(Samples.gradient(408, 408), rules: StickerRules())), stored: Samples.gradient(408, 408))
            try await PostgresMaintenance(store: catalog.store).replaceRenditions(source: sha, other)
            #expect(try await db.count("SELECT count(*) FROM assets WHERE unreferenced_since IS NOT NULL") == distinct)
            #expect(try await client.execute(uri: "/v1/manifest", method: .get).status == .ok)
        }
    }

    @Test("Assets answer Range requests: 206 with Content-Range, suffix ranges, 416 past the end, 200 for other cases")
    func ranges() async throws {
        try await withApp(demo: true) { client, _ in
            let manifest = try await client.execute(uri: "/v1/manifest", method: .get)
            let url = try #require(
                ((manifest.json["groups"] as? [[String: Any]])?.first?["cover"] as? [String: Any])?["url"] as? String)
            let whole = try await client.execute(uri: url, method: .get)
            let bytes = Array(buffer: whole.body)
            #expect(whole.headers[.acceptRanges] == "bytes")
            let etag = try #require(whole.headers[.eTag])
            for (range, slice) in [
                ("bytes=0-9", 0..<10), ("bytes=10-", 10..<bytes.count), ("bytes=-16", (bytes.count - 16)..<bytes.count),
                ("bytes=5-99999", 5..<bytes.count),
            ] {
                let part = try await client.execute(uri: url, method: .get, headers: [.range: range])
                #expect(part.status == .partialContent && Array(buffer: part.body) == Array(bytes[slice]), "\(range)")
                #expect(
                    part.headers[.contentRange] == "bytes \(slice.lowerBound)-\(slice.upperBound - 1)/\(bytes.count)")
            }
            let past = try await client.execute(uri: url, method: .get, headers: [.range: "bytes=\(bytes.count)-"])
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */\(bytes.count)")
            for headers: HTTPFields in [
                [.range: "bytes=0-1,4-5"], [.range: "items=0-1"], [.range: "bytes=0-1", .ifRange: "\"other\""],
            ] {
                #expect(try await client.execute(uri: url, method: .get, headers: headers).status == .ok)
            }
            #expect(
                try await client.execute(uri: url, method: .get, headers: [.range: "bytes=0-1", .ifRange: etag]).status
                    == .partialContent)
            #expect(
                try await client.execute(uri: url, method: .get, headers: [.range: "bytes=0-1", .ifNoneMatch: etag])
                    .status == .notModified)
        }
    }
}
