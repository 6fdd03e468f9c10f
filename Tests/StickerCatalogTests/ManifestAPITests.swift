import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Group ids and each group's sticker names, in manifest order.
private func outline(_ response: TestResponse) -> [String: [String]] {
    Dictionary(
        uniqueKeysWithValues: (response.json["groups"] as? [[String: Any]] ?? []).map {
            ($0["id"] as? String ?? "", ($0["stickers"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        })
}

private func groupIds(_ response: TestResponse) -> [String] {
    (response.json["groups"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
}

@Suite("Client API: manifest")
struct ManifestAPITests {
    @Test("The demo manifest lists groups by name and stickers by position; chocoholic shows only chocolate")
    func demo() async throws {
        try await withApp(demo: true) { client, _ in
            let all = try await client.execute(uri: "/v1/manifest", method: .get)
            #expect(all.status == .ok && all.headers[.contentType] == "application/json")
            #expect(groupIds(all) == ["chewy", "chocolate", "crunchy"])
            #expect(outline(all)["chewy"] == ["Caramel", "GummiBear", "SourCandy"])
            let group = try #require((all.json["groups"] as? [[String: Any]])?.first)
            #expect(
                Set(group.keys) == [
                    "id", "name", "description", "sizeClass", "flags", "position", "locked", "productId", "cover",
                    "stickers",
                ])
            let sticker = try #require((group["stickers"] as? [[String: Any]])?.first)
            #expect(
                Set(sticker.keys) == [
                    "id", "name", "description", "flags", "keywords", "emoji", "animated", "frames", "durationMs",
                    "loops", "asset", "thumbnail", "placeholder",
                ])
            #expect(
                Set((sticker["asset"] as? [String: Any] ?? [:]).keys) == [
                    "url", "width", "height", "bytes", "sha256", "animated",
                ])

            let chocoholic = try await client.execute(uri: "/v1/manifest?filter=chocoholic", method: .get)
            #expect(outline(chocoholic) == ["chocolate": ["ChocolateBar", "ChocolateChip", "DarkChocolate"]])
            #expect(chocoholic.json["filter"] as? String == "chocoholic")
            let filters = try await client.execute(uri: "/v1/filters", method: .get)
            #expect((filters.json["filters"] as? [[String: Any]])?.first?["flags"] as? [String] == ["chocolate"])
        }
    }

    @Test("A sticker's own flag selects it alone; a new filter applies at once; empty groups drop out")
    func stickerFlag() async throws {
        try await withApp(demo: true) { client, _ in
            let chewy = try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin)
            let caramel = try #require(
                (chewy.json["stickers"] as? [[String: Any]])?.first { $0["name"] as? String == "Caramel" }?["id"]
                    as? String)
            _ = try await client.execute(
                uri: "/v1/admin/stickers/\(caramel)", method: .patch, headers: admin,
                body: Body.json(["flags": ["chocolate"]]))
            let chocoholic = try await client.execute(uri: "/v1/manifest?filter=chocoholic", method: .get)
            #expect(
                outline(chocoholic) == [
                    "chewy": ["Caramel"], "chocolate": ["ChocolateBar", "ChocolateChip", "DarkChocolate"],
                ])
            #expect(
                outline(try await client.execute(uri: "/v1/manifest?flags=chocolate", method: .get))
                    == outline(chocoholic))

            let put = try await client.execute(
                uri: "/v1/admin/filters/nothing", method: .put, headers: admin,
                body: Body.json(["title": "None", "flags": ["absent"]]))
            #expect(put.status == .created)
            #expect(groupIds(try await client.execute(uri: "/v1/manifest?filter=nothing", method: .get)).isEmpty)
            #expect(
                try await client.execute(
                    uri: "/v1/admin/filters/nothing", method: .put, headers: admin, body: Body.json(["flags": ["x"]])
                ).status == .ok)
            #expect(
                try await client.execute(uri: "/v1/admin/filters/nothing", method: .delete, headers: admin).status
                    == .noContent)
            #expect(
                try await client.execute(uri: "/v1/manifest?filter=nothing", method: .get).problemCode
                    == "unknown_filter")
        }
    }

    @Test("Drafts are hidden, positions override names, locale falls back, premium groups are locked")
    func visibility() async throws {
        try await withApp(demo: true) { client, _ in
            _ = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["published": false]))
            let moved = try await client.execute(
                uri: "/v1/admin/groups/crunchy", method: .patch, headers: admin, body: Body.json(["position": 0]))
            #expect(moved.json["position"] as? Int == 0)
            _ = try await client.execute(
                uri: "/v1/admin/groups/chocolate", method: .patch, headers: admin,
                body: Body.json(["productId": "com.example.choc"]))
            let manifest = try await client.execute(uri: "/v1/manifest?locale=fr-CA", method: .get)
            #expect(groupIds(manifest) == ["crunchy", "chocolate"])
            let groups = manifest.json["groups"] as? [[String: Any]] ?? []
            #expect(groups.map { $0["name"] as? String } == ["Croquant", "Chocolat"])
            #expect(groups[1]["locked"] as? Bool == true && (groups[1]["stickers"] as? [Any])?.isEmpty == true)
            #expect((groups[1]["cover"] as? [String: Any])?["sha256"] != nil)
            #expect(groups[0]["productId"] is NSNull)
            let crunchy = try await client.execute(uri: "/v1/admin/groups/crunchy", method: .get, headers: admin)
            let last = try #require((crunchy.json["stickers"] as? [[String: Any]])?.last)
            let chosen = try await client.execute(
                uri: "/v1/admin/groups/crunchy", method: .patch, headers: admin,
                body: Body.json(["coverStickerId": last["id"] as Any]))
            #expect(chosen.json["coverStickerId"] as? String == last["id"] as? String)
            // The cover is the chosen sticker's picture in the view (not always its upload's bytes: a smaller exact
            // encoding of it may be served).
            let view = try await client.execute(uri: "/v1/groups/crunchy", method: .get).json
            let cover = view["cover"] as? [String: Any]
            let shown = (view["stickers"] as? [[String: Any]])?.first { $0["id"] as? String == last["id"] as? String }
            #expect(cover?["sha256"] != nil)
            #expect(cover?["sha256"] as? String == (shown?["asset"] as? [String: Any])?["sha256"] as? String)
            let foreign = try await client.execute(
                uri: "/v1/admin/groups/chocolate", method: .patch, headers: admin,
                body: Body.json(["coverStickerId": last["id"] as Any]))
            #expect(foreign.problemCode == "validation_failed")
            let german = try await client.execute(uri: "/v1/groups/crunchy?locale=de", method: .get)
            #expect(german.json["name"] as? String == "Knusprig")
            #expect(
                try await client.execute(uri: "/v1/groups/crunchy?locale=ja", method: .get).json["name"] as? String
                    == "Crunchy")
            #expect(try await client.execute(uri: "/v1/groups/chewy", method: .get).status == .notFound)
        }
    }

    @Test("Strong ETags: If-None-Match answers 304 until a change raises the revision")
    func etags() async throws {
        try await withApp(demo: true) { client, _ in
            let first = try await client.execute(uri: "/v1/manifest?size=small&scale=2", method: .get)
            let etag = try #require(first.headers[.eTag])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            #expect(first.json["size"] as? String == "small" && first.json["scale"] as? Int == 2)
            let revision = try #require(first.json["revision"] as? Int)
            let again = try await client.execute(
                uri: "/v1/manifest?scale=2&size=small", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            _ = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["name": "Chewy!"]))
            let changed = try await client.execute(
                uri: "/v1/manifest?size=small&scale=2", method: .get, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok && changed.headers[.eTag] != etag)
            #expect(try #require(changed.json["revision"] as? Int) > revision)
        }
    }

    @Test(
        "Bad parameters are 400 problems, not empty lists; an unknown filter is a 404",
        arguments: ["filter=nope", "scale=0", "size=xl", "flags=A", "locale=%20", "filter=Nope"])
    func badParameters(query: String) async throws {
        try await withApp(demo: true) { client, _ in
            let response = try await client.execute(uri: "/v1/manifest?\(query)", method: .get)
            if query == "filter=nope" {
                #expect(response.status == .notFound && response.problemCode == "unknown_filter")
            } else {
                #expect(response.status == .badRequest && response.problemCode == "invalid_parameter")
            }
        }
    }

    @Test("With STICKER_PUBLIC_BASE_URL asset URLs are absolute under it")
    func publicBaseURL() async throws {
        try await withApp(demo: true, options: { $0.server.publicBaseURL = "https://cdn.example.com/stickers/" }) {
            client, _ in
            let manifest = try await client.execute(uri: "/v1/manifest", method: .get)
            let cover = (manifest.json["groups"] as? [[String: Any]])?.first?["cover"] as? [String: Any]
            #expect((cover?["url"] as? String)?.hasPrefix("https://cdn.example.com/stickers/v1/assets/") == true)
        }
    }
}
