import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import StickerImage
import TestSupport
import Testing

/// Valid-looking input that used to reach PostgreSQL and end in a 500, or be silently ignored.
@Suite("Admin input: every value checked before SQL")
struct AdminInputTests {
    static let tooBig = 34_382_364_641

    func stickerIds(_ client: some TestClientProtocol, group: String) async throws -> [String] {
        let response = try await client.execute(uri: "/v1/admin/groups/\(group)", method: .get, headers: admin)
        return (response.json["stickers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("Positions past int4, U+0000 and over-long code points are 422s naming the field, never 500s")
    func refusedValues() async throws {
        try await withApp(demo: true) { client, db in
            let caramel = try #require(try await stickerIds(client, group: "chewy").first)
            let family = String(repeating: "👨‍👩‍👧", count: 31)  // 31 graphemes, 155 code points
            let cases: [(HTTPRequest.Method, String, [String: Any], String)] = [
                (.post, "/v1/admin/groups", ["id": "big", "name": "Big", "position": Self.tooBig], "position"),
                (.post, "/v1/admin/groups", ["id": "neg", "name": "Neg", "position": -1], "position"),
                (.patch, "/v1/admin/groups/chewy", ["position": Self.tooBig], "position"),
                (.patch, "/v1/admin/stickers/\(caramel)", ["position": Self.tooBig], "position"),
                (.post, "/v1/admin/groups", ["id": "nul", "name": "A\u{0}B"], "name"),
                (
                    .post, "/v1/admin/groups", ["id": "nul", "name": "N", "localizedNames": ["fr": "x\u{0}"]],
                    "localizedNames"
                ),
                (.patch, "/v1/admin/groups/chewy", ["name": "\u{0}"], "name"),
                (.patch, "/v1/admin/stickers/\(caramel)", ["description": "a\u{0}b"], "description"),
                (.patch, "/v1/admin/stickers/\(caramel)", ["keywords": ["k\u{0}"]], "keywords"),
                (.patch, "/v1/admin/stickers/\(caramel)", ["description": family], "description"),
                (.put, "/v1/admin/filters/nul", ["title": "T\u{0}", "flags": ["a"]], "title"),
            ]
            for (method, uri, body, field) in cases {
                let response = try await client.execute(uri: uri, method: method, headers: admin, body: Body.json(body))
                #expect(response.status == .unprocessableContent, "\(method) \(uri) \(body.keys)")
                #expect((response.json["errors"] as? [[String: String]])?.map { $0["field"] } == [field], "\(uri)")
            }
            let upload = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=X&description=d&position=\(Self.tooBig)",
                method: .post, headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.otherSticker))
            #expect(
                upload.status == .unprocessableContent
                    && (upload.json["errors"] as? [[String: String]])?.first?["field"] == "position")
            #expect(try await db.count("SELECT count(*) FROM sticker_groups") == 3)
        }
    }

    @Test("A duplicate id, which only PostgreSQL can see, is a 409 without PostgreSQL's DETAIL text")
    func databaseRefusals() async throws {
        try await withApp(demo: true) { _, db in
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            let duplicate = await #expect(throws: CatalogError.self) {
                _ = try await catalog.createGroup(GroupDraft(id: "chewy", name: "Again"))
            }
            #expect(duplicate == .conflict("Something with this id already exists."))
        }
    }

    @Test(
        "PATCH: absent keeps, null on a non-nullable field and values create would refuse are 422, null clears nullable ones"
    )
    func patchSemantics() async throws {
        try await withApp(demo: true) { client, _ in
            let caramel = try #require(try await stickerIds(client, group: "chewy").first)
            for body in [
                ["name": NSNull()], ["description": ""], ["description": NSNull()], ["flags": NSNull()],
                ["position": NSNull()],
            ] as [[String: Any]] {
                let response = try await client.execute(
                    uri: "/v1/admin/stickers/\(caramel)", method: .patch, headers: admin, body: Body.json(body))
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect((response.json["errors"] as? [[String: String]])?.first?["field"] == body.keys.first)
            }
            for body in [
                ["name": NSNull()], ["published": NSNull()], ["sizeClass": NSNull()], ["localizedNames": NSNull()],
            ] as [[String: Any]] {
                let response = try await client.execute(
                    uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(body))
                #expect(response.status == .unprocessableContent, "\(body)")
            }
            let unchanged = try await client.execute(
                uri: "/v1/admin/stickers/\(caramel)", method: .patch, headers: admin, body: Body.json([:]))
            #expect(unchanged.status == .ok && unchanged.json["name"] as? String == "Caramel")
            _ = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["productId": "com.example.chewy"]))
            let cleared = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["productId": NSNull()]))
            #expect(
                cleared.status == .ok && cleared.json["productId"] is NSNull
                    && cleared.json["name"] as? String == "Chewy")
        }
    }

    @Test("Language tags are stored in canonical form and served under it; two spellings of one tag are refused")
    func localeKeys() async throws {
        try await withApp(demo: true) { client, _ in
            let patched = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["localizedNames": ["pt_br": "Mastigável", "ZH-hant": "有嚼勁"]]))
            #expect(patched.json["localizedNames"] as? [String: String] == ["pt-BR": "Mastigável", "zh-Hant": "有嚼勁"])
            for locale in ["pt-BR", "pt_br", "pt", "zh-Hant-TW"] {
                let groups =
                    try await client.execute(uri: "/v1/manifest?locale=\(locale)", method: .get).json["groups"]
                    as? [[String: Any]]
                #expect(groups?.first { $0["id"] as? String == "chewy" }?["name"] as? String != "Chewy", "\(locale)")
            }
            let twice = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["localizedNames": ["pt_BR": "a", "pt-BR": "b"]]))
            #expect(twice.status == .unprocessableContent)
        }
    }

    @Test("Changes clients cannot see keep the manifest's bytes and ETag: 404s, no-ops, drafts")
    func invisibleChanges() async throws {
        try await withApp(demo: true) { client, _ in
            let before = try await client.execute(uri: "/v1/manifest", method: .get)
            let etag = try #require(before.headers[.eTag])
            let caramel = try #require(try await stickerIds(client, group: "chewy").first)
            let noise: [(HTTPRequest.Method, String, [String: Any]?)] = [
                (.patch, "/v1/admin/groups/nope", ["name": "X"]),
                (.delete, "/v1/admin/groups/nope", nil),
                (.delete, "/v1/admin/stickers/\(UUID().uuidString.lowercased())", nil),
                (.patch, "/v1/admin/groups/chewy", ["name": "Chewy", "flags": []]),
                (.patch, "/v1/admin/stickers/\(caramel)", ["name": "Caramel", "position": 0]),
                (.put, "/v1/admin/filters/chocoholic", ["title": "Chocoholic mode", "flags": ["chocolate"]]),
                (.post, "/v1/admin/groups", ["id": "draft", "name": "Zzz draft", "published": false]),
                (.patch, "/v1/admin/groups/draft", ["name": "Zzz still a draft"]),
                (.delete, "/v1/admin/groups/draft", nil),
            ]
            for (method, uri, body) in noise {
                let response = try await client.execute(
                    uri: uri, method: method, headers: admin, body: body.map(Body.json))
                #expect(response.status.code < 500, "\(method) \(uri)")
                let after = try await client.execute(uri: "/v1/manifest", method: .get)
                #expect(after.headers[.eTag] == etag, "\(method) \(uri)")
                #expect(after.body == before.body)
            }
            _ = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["name": "Gummies"]))
            #expect(try await client.execute(uri: "/v1/manifest", method: .get).headers[.eTag] != etag)
        }
    }

    @Test("Positions stay 0..n-1: inserting at a position shifts the rest, moving and deleting close the gaps")
    func positions() async throws {
        try await withApp(demo: true) { client, db in
            let first = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=First&description=d&position=0",
                method: .post, headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.opaqueSticker))
            #expect(first.status == .created && first.json["position"] as? Int == 0)
            let names = { () async throws -> [String] in
                (try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin).json["stickers"]
                    as? [[String: Any]] ?? [])
                    .compactMap { $0["name"] as? String }
            }
            #expect(try await names() == ["First", "Caramel", "GummiBear", "SourCandy"])
            let id = try #require(first.json["id"] as? String)
            _ = try await client.execute(
                uri: "/v1/admin/stickers/\(id)", method: .patch, headers: admin, body: Body.json(["position": 2]))
            #expect(try await names() == ["Caramel", "GummiBear", "First", "SourCandy"])
            _ = try await client.execute(
                uri: "/v1/admin/stickers/\(id)", method: .patch, headers: admin, body: Body.json(["position": 99]))
            #expect(try await names() == ["Caramel", "GummiBear", "SourCandy", "First"])
            let gummi = try await stickerIds(client, group: "chewy")[1]
            _ = try await client.execute(uri: "/v1/admin/stickers/\(gummi)", method: .delete, headers: admin)
            #expect(try await names() == ["Caramel", "SourCandy", "First"])
            let group = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json(["id": "top", "name": "Top", "position": 0]))
            #expect(group.json["position"] as? Int == 0)
            let byName = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json(["id": "caramels", "name": "Caramels"]))
            // where its name sorts: before Chewy, Chocolate, Crunchy and Top
            #expect(byName.json["position"] as? Int == 0)
            _ = try await client.execute(uri: "/v1/admin/groups/chewy", method: .delete, headers: admin)
            let order =
                (try await client.execute(uri: "/v1/admin/groups", method: .get, headers: admin).json["groups"]
                    as? [[String: Any]] ?? [])
            #expect(order.compactMap { $0["id"] as? String } == ["caramels", "top", "chocolate", "crunchy"])
            #expect(order.compactMap { $0["position"] as? Int } == [0, 1, 2, 3])
            #expect(
                try await db.count(
                    """
                    SELECT count(*) FROM (SELECT group_id, array_agg(position ORDER BY position) AS p, count(*)::int AS n FROM stickers GROUP BY group_id) s
                    WHERE p <> ARRAY(SELECT generate_series(0, n - 1))
                    """) == 0)
        }
    }

    @Test("JSON bodies over 64 KiB are 413 too_large")
    func jsonLimit() async throws {
        try await withApp { client, _ in
            let big = Body.json([
                "id": "big", "name": "Big", "localizedNames": ["fr": String(repeating: "x", count: 70_000)],
            ])
            let response = try await client.execute(uri: "/v1/admin/groups", method: .post, headers: admin, body: big)
            #expect(response.status == .contentTooLarge && response.problemCode == "too_large")
        }
    }
}
