import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import StickerImage
import TestSupport
import Testing

@Suite("Admin API: sticker uploads")
struct UploadTests {
    static let fields = [
        ("name", "Toffee"), ("description", "A square of toffee"), ("flags", "sweet,brown"),
        ("keywords", "toffee"), ("emoji", "🍬"), ("localizedDescriptions", #"{"fr":"Un caramel"}"#),
    ]

    @Test("A multipart upload answers 201 with the sticker, and the image downloads byte for byte")
    func multipart() async throws {
        try await withApp(demo: true) { client, _ in
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(Self.fields, files: [("file", Samples.sticker)]))
            #expect(response.status == .created)
            let json = response.json
            #expect(json["name"] as? String == "Toffee")
            #expect(json["flags"] as? [String] == ["sweet", "brown"])
            #expect(json["position"] as? Int == 3)
            #expect((json["warnings"] as? [Any])?.isEmpty == true)
            let asset = try #require(json["asset"] as? [String: Any])
            #expect(asset["width"] as? Int == 408 && asset["bytes"] as? Int == Samples.sticker.count)
            let url = try #require(asset["url"] as? String)
            let image = try await client.execute(uri: url, method: .get)
            #expect(Array(buffer: image.body) == Samples.sticker)
            let location = try #require(response.headers[.location])
            #expect(
                try await client.execute(uri: location, method: .get, headers: admin).json["description"] as? String
                    == "A square of toffee")
        }
    }

    @Test("A raw image/png body takes its fields from the query; an opaque image is accepted with a warning")
    func rawBody() async throws {
        try await withApp(demo: true) { client, _ in
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=Plain&description=Opaque%20square&position=0",
                method: .post, headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.opaqueSticker))
            #expect(response.status == .created)
            #expect(response.json["position"] as? Int == 0)
            #expect(
                (response.json["warnings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == [
                    "no_alpha_channel"
                ])
        }
    }

    /// Each refusal with a real bad file: status, stable code, and nothing stored.
    @Test(
        "Every bad upload gets its problem code and stores nothing",
        arguments: [
            // A JPEG or GIF header with nothing behind it is read as the format its bytes say, whatever the
            // Content-Type, and refused as damaged.
            (Samples.jpeg, "image/png", 422, "corrupt_image"),
            (Samples.gif, "image/png", 422, "corrupt_image"),
            (Samples.jpeg, "image/jpeg", 422, "corrupt_image"),
            (Samples.heic, "image/png", 415, "unsupported_format"),
            (Samples.bmp, "image/bmp", 415, "unsupported_format"),
            (Samples.sticker, "text/plain", 415, "unsupported_format"),
            (Samples.sticker + [UInt8](repeating: 0, count: 500 * 1024), "image/png", 413, "too_large"),
            (Samples.tiny, "image/png", 422, "dimensions_out_of_range"),
            (Samples.claiming(width: 100_000, height: 100_000), "image/png", 422, "dimensions_out_of_range"),
            (Samples.badCRC, "image/png", 422, "corrupt_image"),
            (Samples.corruptPixels, "image/png", 422, "corrupt_image"),
            ([UInt8](), "image/png", 422, "validation_failed"),
        ] as [([UInt8], String, Int, String)])
    func refusals(bytes: [UInt8], contentType: String, status: Int, code: String) async throws {
        try await withApp(demo: true) { client, db in
            let assets = try await db.count("SELECT count(*) FROM assets")
            var headers = admin
            headers[.contentType] = contentType
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=Bad&description=bad", method: .post,
                headers: headers, body: ByteBuffer(bytes: bytes))
            #expect(response.status.code == status)
            #expect(response.problemCode == code, "\(response.json["detail"] ?? "")")
            #expect(try await db.count("SELECT count(*) FROM stickers") == 9)
            #expect(try await db.count("SELECT count(*) FROM assets") == assets)
        }
    }

    @Test(
        "Over real HTTP, an oversized body is refused with 413 before it is stored",
        arguments: [Body.pngHeaders, Body.formHeaders])
    func oversizedOverHTTP(headers: HTTPFields) async throws {
        try await withApp(demo: true, live: true) { client, db in
            let huge = [UInt8](repeating: 0x42, count: 2 * 1024 * 1024)
            let body =
                headers == Body.pngHeaders
                ? ByteBuffer(bytes: huge) : Body.form([("name", "X"), ("description", "d")], files: [("file", huge)])
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=X&description=d", method: .post,
                headers: headers, body: body)
            #expect(response.status == .contentTooLarge && response.problemCode == "too_large")
            #expect(try await db.count("SELECT count(*) FROM stickers") == 9)
        }
    }

    @Test("Form refusals: bad fields, no file, two files, an unknown group")
    func formRefusals() async throws {
        try await withApp(demo: true) { client, _ in
            let cases: [(ByteBuffer, HTTPFields, String, [String])] = [
                (
                    Body.form(
                        [("name", "X"), ("description", String(repeating: "d", count: 151)), ("emoji", "abc")],
                        files: [("file", Samples.sticker)]),
                    Body.formHeaders, "validation_failed", ["description", "emoji"]
                ),
                (Body.form([("name", "X"), ("description", "d")]), Body.formHeaders, "validation_failed", ["file"]),
                (
                    Body.form(
                        [("name", "X"), ("description", "d")],
                        files: [("file", Samples.sticker), ("file", Samples.otherSticker)]),
                    Body.formHeaders, "validation_failed", ["file"]
                ),
            ]
            for (body, headers, code, fields) in cases {
                let response = try await client.execute(
                    uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: headers, body: body)
                #expect(response.status == .unprocessableContent)
                #expect(response.problemCode == code)
                #expect((response.json["errors"] as? [[String: String]])?.compactMap { $0["field"] } == fields)
            }
            // A file that is no image, sent with no name nor description: the file is what is wrong first.
            let text = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form([], files: [("file", Array("just some text".utf8))]))
            #expect(text.status == .unsupportedMediaType && text.problemCode == "unsupported_format", "\(text.json)")
            // An image with no name: the name is said to be required, not to be of a length.
            let nameless = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form([("description", "d")], files: [("file", Samples.sticker)]))
            let issues = nameless.json["errors"] as? [[String: String]] ?? []
            #expect(issues.first { $0["field"] == "name" }?["message"] == "is required", "\(nameless.json)")
            let missing = try await client.execute(
                uri: "/v1/admin/groups/nope/stickers?name=X&description=d", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.sticker))
            #expect(missing.status == .notFound && missing.problemCode == "not_found")
        }
    }

    @Test("A failure inside the upload transaction leaves neither the image nor the sticker behind")
    func transaction() async throws {
        try await withApp(demo: true) { _, db in
            let assets = try await db.count("SELECT count(*) FROM assets")
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            // Bypasses the API's validation so that the database's own check fails after the asset row went in.
            let draft = StickerDraft(name: "X", description: String(repeating: "d", count: 151))
            let (info, renditions) = try StickerValidator().validateRendering(Samples.opaqueSticker)
            let error = await #expect(throws: CatalogError.self) {
                _ = try await catalog.addSticker(
                    to: "chewy", draft, image: Samples.opaqueSticker, info: info, renditions: renditions)
            }
            // PostgreSQL's refusal names the field, without its DETAIL text.
            #expect(error == .invalid("description", "breaks a rule of the catalog"))
            #expect(try await db.count("SELECT count(*) FROM assets") == assets)
            #expect(
                try await db.count(
                    "SELECT count(*) FROM renditions WHERE source_sha256 = '\(sha256Hex(info.storedBytes))'") == 0)
            #expect(try await db.count("SELECT count(*) FROM stickers") == 9)
        }
    }

    @Test("Two concurrent uploads of the same image both succeed, one image stored, distinct positions")
    func concurrent() async throws {
        try await withApp(demo: true) { client, db in
            async let first = client.execute(
                uri: "/v1/admin/groups/crunchy/stickers?name=A&description=a", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.opaqueSticker))
            async let second = client.execute(
                uri: "/v1/admin/groups/crunchy/stickers?name=B&description=b", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.opaqueSticker))
            let (a, b) = try await (first, second)
            #expect(a.status == .created && b.status == .created)
            #expect(Set([a.json["position"] as? Int, b.json["position"] as? Int]) == [3, 4])
            #expect(try await db.count("SELECT count(DISTINCT asset_sha256) FROM stickers") == 10)
            // One set of renditions, whichever upload stored it.
            #expect(
                try await db.count(
                    """
                    SELECT count(*) FROM renditions WHERE source_sha256 = (SELECT asset_sha256 FROM stickers WHERE name = 'A')
                    """) == Renditions.count(animated: false))
            #expect(try await db.count("SELECT count(*) FROM stickers WHERE group_id = 'crunchy'") == 5)
        }
    }

    @Test("Stickers can be read, changed and deleted")
    func stickerLifecycle() async throws {
        try await withApp(demo: true) { client, _ in
            let group = try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin)
            let id = try #require((group.json["stickers"] as? [[String: Any]])?.first?["id"] as? String)
            let patched = try await client.execute(
                uri: "/v1/admin/stickers/\(id)", method: .patch, headers: admin,
                body: Body.json(["description": "Sweet", "keywords": ["k"]]))
            #expect(patched.json["description"] as? String == "Sweet" && patched.json["keywords"] as? [String] == ["k"])
            let tooLong = try await client.execute(
                uri: "/v1/admin/stickers/\(id)", method: .patch, headers: admin,
                body: Body.json(["description": String(repeating: "x", count: 151)]))
            #expect(tooLong.problemCode == "validation_failed")
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .delete, headers: admin).status
                    == .noContent)
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .get, headers: admin).status
                    == .notFound)
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/not-a-uuid", method: .get, headers: admin).status
                    == .notFound)
        }
    }
}
