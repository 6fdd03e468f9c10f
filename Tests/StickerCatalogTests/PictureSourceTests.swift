import CatalogCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `sources=all` (issue 49): each sticker's pictures at 1x to 3x in WebP and PNG, for a web page's `<picture>`, and
/// the group index's versions for that view matching the group route's ETags.
@Suite struct PictureSourceTests {
    @Test func eachStickerListsItsPicturesAtEveryScaleInBothFormats() async throws {
        try await withApp(demo: true) { client, _ in
            let answer = try await client.execute(uri: "/v1/groups/chewy?sources=all&scale=2", method: .get)
            #expect(answer.status == .ok)
            let stickers = try #require(answer.json["stickers"] as? [[String: Any]])
            #expect(!stickers.isEmpty)
            for sticker in stickers {
                let sources = try #require(sticker["sources"] as? [[String: Any]])
                let asset = try #require(sticker["asset"] as? [String: Any])
                // WebP first, then PNG; in each, distinct pictures by scale, larger as the scale grows (a larger
                // picture that takes fewer bytes serves a smaller box too, and is listed once, at the first scale).
                let formats = sources.map { $0["format"] as? String ?? "?" }
                #expect(formats == formats.sorted { $0 == "webp" && $1 == "png" }, "\(formats)")
                #expect(formats.first == "webp" && formats.last == "png")
                for format in ["webp", "png"] {
                    let listed = sources.filter { $0["format"] as? String == format }
                    let scales = listed.compactMap { $0["scale"] as? Int }
                    let widths = listed.compactMap { $0["width"] as? Int }
                    #expect(scales.first == 1 && scales == scales.sorted() && Set(scales).count == scales.count)
                    #expect(widths == widths.sorted() && Set(widths).count == widths.count, "\(widths)")
                }
                // The view's own asset (the default format, at scale 2) is among them.
                #expect(
                    sources.contains {
                        $0["format"] as? String == "png" && $0["url"] as? String == asset["url"] as? String
                    })
                #expect(Set(sources.compactMap { $0["url"] as? String }).count == sources.count)
            }
            // Without it, no sources: the default answer does not grow.
            let plain = try await client.execute(uri: "/v1/groups/chewy?scale=2", method: .get)
            let first = try #require((plain.json["stickers"] as? [[String: Any]])?.first)
            #expect(first["sources"] == nil)
            #expect(plain.headers[.eTag] != answer.headers[.eTag])
            let bad = try await client.execute(uri: "/v1/groups/chewy?sources=some", method: .get)
            #expect(bad.status == .badRequest)
        }
    }

    @Test func theIndexStatesTheVersionTheGroupRouteAnswersForTheSameView() async throws {
        try await withApp(demo: true) { client, _ in
            let index = try await client.execute(uri: "/v1/groups?sources=all&scale=2", method: .get)
            let groups = try #require(index.json["groups"] as? [[String: Any]])
            for summary in groups {
                let id = try #require(summary["id"] as? String)
                let group = try await client.execute(uri: "/v1/groups/\(id)?sources=all&scale=2", method: .get)
                #expect(group.headers[.eTag] == "\"\(summary["version"] as? String ?? "")\"", "\(id)")
            }
        }
    }
}
