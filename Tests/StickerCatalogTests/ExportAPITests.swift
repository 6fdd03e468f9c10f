import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// `GET /v1/admin/exports/{platform}` and `stickerd export`: the catalog's view as platform packs; zips read back by
/// Python's zipfile, pictures by Pillow.
@Suite(
    "Platform exports through the admin API and the command",
    .enabled(if: Pillow.available, "needs Pillow (make test installs it)"))
struct ExportAPITests {
    static func json(_ bytes: [UInt8]?) -> [String: Any] {
        bytes.flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] } ?? [:]
    }

    @Test(
        "The demo as WhatsApp packs: a zip of contents.json, a folder per group with its tray and WebPs, and report.json"
    )
    func whatsapp() async throws {
        try await withApp(demo: true) { client, _ in
            // Action
            let response = try await client.execute(
                uri: "/v1/admin/exports/whatsapp?publisher=Candy%20Co", method: .get, headers: admin)
            // Check
            #expect(response.status == .ok && response.headers[.contentType] == "application/zip")
            #expect(
                response.headers[HTTPField.Name("Content-Disposition")!]
                    == "attachment; filename=\"stickers-whatsapp.zip\"")
            let files = try ZipReader.entries(Array(buffer: response.body))
            let packs = Self.json(files["contents.json"])["sticker_packs"] as? [[String: Any]] ?? []
            #expect(packs.compactMap { $0["identifier"] as? String } == ["chewy", "chocolate", "crunchy"])
            #expect(packs.allSatisfy { $0["publisher"] as? String == "Candy Co" })
            let webps = files.keys.filter { $0.hasSuffix(".webp") }.sorted()
            #expect(webps.count == 9 && files.keys.filter { $0.hasSuffix("tray.png") }.count == 3)
            let read = try Pillow.read(webps.map { files[$0]! })
            #expect(read.allSatisfy { $0.format == "WEBP" && $0.width == 512 && $0.height == 512 })
            let report = Self.json(files["report.json"])
            #expect((report["packs"] as? [[String: Any]])?.count == 3 && (report["refused"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("filter, group and locale choose what goes; a premium group stays out; bad parameters are 4xx problems")
    func selection() async throws {
        try await withApp(demo: true) { client, _ in
            let chocoholic = try await client.execute(
                uri: "/v1/admin/exports/signal?filter=chocoholic&author=Me", method: .get, headers: admin)
            let chocolate = try ZipReader.entries(Array(buffer: chocoholic.body))
            #expect(Set(chocolate.keys.map { $0.split(separator: "/")[0] }) == ["chocolate", "report.json"])
            #expect(Self.json(chocolate["chocolate/manifest.json"])["author"] as? String == "Me")
            let one = try await client.execute(
                uri: "/v1/admin/exports/telegram?group=chewy&bot=CandyBot", method: .get, headers: admin)
            #expect(
                Set(try ZipReader.entries(Array(buffer: one.body)).keys.map { $0.split(separator: "/")[0] }) == [
                    "chewy_by_CandyBot", "report.json",
                ])
            // A premium group: left out of a whole export with a note, refused by name.
            _ = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["productId": "com.example.chewy"]))
            let all = try ZipReader.entries(
                Array(
                    buffer: try await client.execute(uri: "/v1/admin/exports/signal", method: .get, headers: admin).body
                ))
            #expect(!all.keys.contains { $0.hasPrefix("chewy/") })
            #expect(
                (Self.json(all["report.json"])["notes"] as? [String])?.contains {
                    $0.hasPrefix("chewy: left out, premium")
                } == true)
            for (uri, status, code) in [
                ("/v1/admin/exports/signal?group=chewy", HTTPResponse.Status.unprocessableContent, "validation_failed"),
                ("/v1/admin/exports/myspace", .notFound, "not_found"),
                ("/v1/admin/exports/telegram", .unprocessableContent, "validation_failed"),
                ("/v1/admin/exports/telegram?bot=no", .badRequest, "invalid_parameter"),
                ("/v1/admin/exports/whatsapp?bot=", .badRequest, "invalid_parameter"),
                ("/v1/admin/exports/signal?bot=@CandyBot", .badRequest, "invalid_parameter"),
                ("/v1/admin/exports/signal?group=nope", .notFound, "not_found"),
                ("/v1/admin/exports/signal?group=Bad_Id", .badRequest, "invalid_parameter"),
                ("/v1/admin/exports/signal?filter=nope", .notFound, "unknown_filter"),
                ("/v1/admin/exports/signal?locale=%01", .badRequest, "invalid_parameter"),
                ("/v1/admin/exports/whatsapp?publisher=%00", .badRequest, "invalid_parameter"),
            ] {
                let answer = try await client.execute(uri: uri, method: .get, headers: admin)
                #expect(
                    answer.status == status && answer.problemCode == code, "\(uri): \(answer.status) \(answer.json)")
            }
            #expect(try await client.execute(uri: "/v1/admin/exports/signal", method: .get).status == .unauthorized)
        }
    }

    @Test("A group none of whose stickers a platform takes is 422 nothing_to_export, saying why")
    func nothing() async throws {
        try await withApp(demo: true) { client, db in
            let before = try await ChangeFeedTests.manifest(client).revision
            try await db.execute("UPDATE stickers SET emoji = '{}' WHERE group_id = 'chewy'")
            // A change made in SQL reaches the app by NOTIFY, not by a request of its own: wait for it (an export
            // asked at once could read the snapshot from before, as it did on a busy machine).
            _ = try await eventually {
                try await ChangeFeedTests.manifest(client).revision
            } until: {
                $0 != before
            }
            let answer = try await client.execute(
                uri: "/v1/admin/exports/whatsapp?group=chewy", method: .get, headers: admin)
            #expect(answer.status == .unprocessableContent && answer.problemCode == "nothing_to_export")
            #expect((answer.json["detail"] as? String)?.contains("no emoji") == true)
            // A view that shows nothing: the same for Xcode's catalog (schemathesis found it a 500).
            _ = try await client.execute(
                uri: "/v1/admin/filters/nothing", method: .put, headers: admin, body: Body.json(["flags": ["nowhere"]]))
            for platform in ["xcstickers", "signal"] {
                let empty = try await client.execute(
                    uri: "/v1/admin/exports/\(platform)?filter=nothing", method: .get, headers: admin)
                #expect(
                    empty.status == .unprocessableContent && empty.problemCode == "nothing_to_export",
                    "\(platform): \(empty.json)")
            }
        }
    }

    @Test("Xcode's Stickers.xcstickers as a zip, from the same selection")
    func xcstickers() async throws {
        try await withApp(demo: true) { client, _ in
            let answer = try await client.execute(
                uri: "/v1/admin/exports/xcstickers?group=crunchy", method: .get, headers: admin)
            let files = try ZipReader.entries(Array(buffer: answer.body))
            #expect(files.keys.contains("Stickers.xcstickers/Contents.json"))
            #expect(files.keys.filter { $0.hasSuffix(".png") }.count == 3)
        }
    }

    @Test("A catalog past the old 2,000-sticker cap exports whole; HEAD answers GET's head and makes nothing")
    func large() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: 2,100 more stickers (42 groups of 50), each with one of the demo's images.
            try await db.execute(
                """
                INSERT INTO sticker_groups (id, name, position) SELECT 'big-' || g, 'Big ' || g, 100 + g
                FROM generate_series(1, 42) g
                """)
            try await db.execute(
                """
                INSERT INTO stickers (group_id, name, description, emoji, position, asset_sha256)
                SELECT 'big-' || g, 'Big ' || g || '-' || s, 'Big sticker', ARRAY['🍬'], s,
                       (SELECT asset_sha256 FROM stickers WHERE group_id = 'chewy' ORDER BY position LIMIT 1)
                FROM generate_series(1, 42) g, generate_series(1, 50) s
                """)
            _ = try await eventually {
                try await ChangeFeedTests.manifest(client).groups.count
            } until: {
                $0 >= 45
            }
            // Action: the whole catalog, and while it is made, HEAD, then another export.
            async let whole = client.execute(uri: "/v1/admin/exports/xcstickers", method: .get, headers: admin)
            try await Task.sleep(for: .milliseconds(500))
            let head = try await client.execute(uri: "/v1/admin/exports/xcstickers", method: .head, headers: admin)
            let another = try await client.execute(
                uri: "/v1/admin/exports/xcstickers?group=chewy", method: .get, headers: admin)
            // Check: the export held the replica's one slot after HEAD answered, so HEAD made nothing: it is GET's head
            // without a body (it used to make a whole export, and 503 while another ran).
            #expect(another.status == .serviceUnavailable, "the first export finished too soon for this test")
            #expect(
                head.status == .ok && head.headers[.contentType] == "application/zip" && head.body.readableBytes == 0)
            let refused = try await client.execute(
                uri: "/v1/admin/exports/xcstickers?group=nope", method: .head, headers: admin)
            #expect(refused.status == .notFound)
            let answer = try await whole
            // Check: every sticker is in it (it was 422 export_too_large).
            #expect(answer.status == .ok, "\(answer.json)")
            let files = try ZipReader.entries(Array(buffer: answer.body))
            #expect(files.keys.filter { $0.hasSuffix(".png") }.count == 2_109)
        }
    }

    @Test(
        "stickerd export whatsapp|telegram|signal writes the same folders and prints each sticker's bytes and PSNR",
        .hangLimit)
    func command() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let out = URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        for (platform, options, marker) in [
            ("whatsapp", ["--publisher", "Me"], "contents.json"),
            ("telegram", ["--bot", "CandyBot"], "chewy_by_CandyBot/set.json"),
            ("signal", [], "chewy/manifest.json"),
        ] {
            let folder = out.appending(path: platform)
            let (status, output) = try await StickerdProcess.run(
                ["export", platform] + options + ["--out", folder.path],
                environment: ["DATABASE_URL": endpoint.url])
            #expect(status == 0 && output.contains("Wrote 3 \(platform) pack(s) of 9 stickers"), "\(output)")
            #expect(
                output.contains("bytes") && FileManager.default.fileExists(atPath: folder.appending(path: marker).path),
                "\(output)")
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "report.json").path))
        }
        let (status, output) = try await StickerdProcess.run(
            ["export", "telegram", "--out", out.path], environment: ["DATABASE_URL": endpoint.url])
        #expect(status != 0 && output.contains("--bot"), "\(output)")
        // A refusal in words (it printed `Error: notFound("Group 'nope'")`).
        let (refused, words) = try await StickerdProcess.run(
            ["export", "signal", "--group", "nope", "--out", out.path], environment: ["DATABASE_URL": endpoint.url])
        #expect(refused != 0 && words.contains("Error: Group 'nope' was not found."), "\(words)")
    }
}
