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
                let pairs = sources.map { "\($0["format"] as? String ?? "?")@\($0["scale"] as? Int ?? 0)" }
                #expect(pairs == ["webp@1", "webp@2", "webp@3", "png@1", "png@2", "png@3"])
                // The 2x PNG is the view's own asset (the default format, at scale 2).
                let png2 = try #require(sources.first { $0["format"] as? String == "png" && $0["scale"] as? Int == 2 })
                #expect(png2["url"] as? String == asset["url"] as? String)
                let widths = sources.prefix(3).compactMap { $0["width"] as? Int }
                #expect(widths.count == 3 && widths[0] < widths[1] && widths[1] < widths[2])
                #expect(Set(sources.compactMap { $0["url"] as? String }).count == 6)
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
