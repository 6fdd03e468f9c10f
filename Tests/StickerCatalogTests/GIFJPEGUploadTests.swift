import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StickerImage
import TestSupport
import Testing

/// GIF and JPEG through the API (issue 50): uploaded as raw bodies, served as APNG and WebP renditions, exported to
/// every platform. The files come from the generated conformance corpus.
@Suite(
    "GIF and JPEG uploads through the API",
    .enabled(if: Pillow.available, "needs Pillow (make test installs it), which also makes the corpus"))
struct GIFJPEGUploadTests {
    func corpusCase(_ name: String) throws -> GeneratedCorpus.Case {
        let corpus = try GeneratedCorpus.shared.get()
        return try #require(corpus.cases.first { $0.name == name }, "no \(name) in the corpus")
    }

    func upload(
        _ client: some TestClientProtocol, _ item: GeneratedCorpus.Case, type: String, name: String
    ) async throws -> [String: Any] {
        var headers = admin
        headers[.contentType] = type
        let response = try await client.execute(
            uri: "/v1/admin/groups/moving/stickers?name=\(name)&description=\(name)&emoji=%F0%9F%98%80", method: .post,
            headers: headers,
            body: ByteBuffer(bytes: try item.bytes))
        #expect(response.status == .created, "\(item.name): \(response.json)")
        return response.json
    }

    @Test("An animated GIF and a JPEG are taken, served as APNG and WebP, and exported to every platform")
    func uploadServeExport() async throws {
        let gif = try corpusCase("anim-dispose2")
        let still = try corpusCase("still-89a-transparent")
        let jpeg = try corpusCase("jpeg-orientation-6")
        try await withApp(demo: true) { client, db in
            _ = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json(["id": "moving", "name": "Moving"]))
            // Action
            let animated = try await upload(client, gif, type: "image/gif", name: "Dance")
            let photo = try await upload(client, jpeg, type: "image/jpeg", name: "Photo")
            _ = try await upload(client, still, type: "image/gif", name: "Still")
            // Check: the answers say what was taken; the JPEG is opaque, and upright.
            #expect(animated["animated"] as? Bool == true && animated["frames"] as? Int == gif.frames)
            let warnings = (photo["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            #expect(warnings.contains("no_alpha_channel"))
            let asset = try #require(photo["asset"] as? [String: Any])
            #expect(asset["width"] as? Int == jpeg.width && asset["height"] as? Int == jpeg.height)
            // Served: the group's animated sticker is an APNG and an animated WebP of the GIF's frames and timing.
            // (The default view is PNG, animated where it moves; format=png would ask for still PNGs.)
            for (query, format) in [("", "png"), ("?format=webp", "webp")] {
                let group = try await client.execute(uri: "/v1/groups/moving\(query)", method: .get)
                let stickers = try #require(group.json["stickers"] as? [[String: Any]])
                let dance = try #require(stickers.first { $0["name"] as? String == "Dance" })
                let url = try #require((dance["asset"] as? [String: Any])?["url"] as? String)
                let file = try await client.execute(uri: url, method: .get)
                #expect(file.headers[.contentType] == "image/\(format)")
                let source = try StickerSource(Array(buffer: file.body), rules: StickerRules())
                #expect(source.frameCount == gif.frames, "\(format): \(dance)")
                #expect(source.animation?.durationMs == gif.delaysMs.reduce(0, +))
            }
            // Exported: every platform takes both.
            for platform in ["whatsapp", "telegram", "signal", "xcstickers"] {
                let export = try await client.execute(
                    uri: "/v1/admin/exports/\(platform)?group=moving&bot=CandyBot", method: .get, headers: admin)
                #expect(export.status == .ok, "\(platform): \(export.json)")
                guard export.status == .ok else { continue }
                let files = try ZipReader.entries(Array(buffer: export.body))
                let pictures = files.keys.filter { $0.hasSuffix(".webp") || $0.hasSuffix(".png") }
                    .filter { !$0.contains("tray") && !$0.contains("cover") }
                #expect(pictures.count >= 2, "\(platform): \(files.keys.sorted())")
                if let report = files["report.json"] {
                    let refused = ExportAPITests.json(report)["refused"] as? [Any]
                    #expect(refused?.isEmpty == true, "\(platform): \(String(decoding: report, as: UTF8.self))")
                }
            }
            #expect(try await db.count("SELECT count(*) FROM stickers WHERE group_id = 'moving'") == 3)
        }
    }
}
