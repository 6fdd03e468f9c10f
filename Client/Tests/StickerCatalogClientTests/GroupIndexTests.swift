import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// The group index and groups in pages: a group past one page is fetched whole, page after page; a page of another
/// group, a sticker sent twice and a service that never stops paging are refused; the index passes its query.
@Suite struct GroupIndexTests {
    static func sticker(_ id: String) -> [String: Any] {
        let link = MemoryService.link(Data(id.utf8))
        return [
            "id": id, "name": id, "description": "d", "flags": [], "keywords": [], "emoji": [], "animated": false,
            "frames": 1, "durationMs": 0, "loops": 0, "asset": link, "thumbnail": link,
        ]
    }

    /// Group `g` in pages of two stickers (`s0`...): page `n` after cursor `c<n>`; `lie` changes what a page says.
    static func service(
        stickers: Int, lie: @escaping @Sendable (Int, inout [String: Any]) -> Void = { _, _ in }
    )
        -> MemoryService
    {
        let service = MemoryService()
        service.handler = { request, _ in
            let path = request.path ?? ""
            guard path.hasPrefix("/v1/groups/g") else { return nil }
            let page = path.components(separatedBy: "cursor=c").dropFirst().first.flatMap { Int($0) } ?? 0
            let ids = (0..<stickers).map { "s\($0)" }.dropFirst(page * 2).prefix(2)
            var group: [String: Any] = [
                "id": "g", "name": "G", "sizeClass": "small", "flags": [], "position": 0, "locked": false,
                "productId": NSNull(), "stickers": ids.map(Self.sticker),
            ]
            if (page + 1) * 2 < stickers { group["next"] = "c\(page + 1)" }
            lie(page, &group)
            return MemoryService.json(group)
        }
        return service
    }

    @Test func aGroupInPagesIsFetchedWhole() async throws {
        let service = Self.service(stickers: 7)
        let group = try await StickerSync.testing(service).group("g")
        #expect(group.stickers.map(\.id) == (0..<7).map { "s\($0)" } && group.next == nil)
        #expect(service.requests.count == 4)
    }

    @Test func pagesThatLieAreRefused() async throws {
        let other = Self.service(stickers: 7) { page, group in if page == 2 { group["id"] = "h" } }
        let again = Self.service(stickers: 7) { page, group in
            if page == 1 { group["stickers"] = [Self.sticker("s0")] }
        }
        let endless = Self.service(stickers: 7) { page, group in group["next"] = "c\(page + 1)" }
        for service in [other, again, endless] {
            await #expect {
                try await StickerSync.testing(service).group("g")
            } throws: { error in
                guard case StickerClientError.invalidAnswer = error else { return false }
                return true
            }
        }
        #expect(endless.requests.count == CatalogService.maxGroupPages)
    }

    @Test func theIndexAsksInTheSyncsViewAndDecodes() async throws {
        let service = MemoryService()
        service.handler = { request, _ in
            guard request.path?.hasPrefix("/v1/groups?") == true else { return nil }
            let summary: [String: Any] = [
                "id": "g", "name": "G", "sizeClass": "small", "flags": [], "position": 0, "locked": true,
                "productId": "pro", "cover": MemoryService.link(Data("c".utf8)), "stickerCount": 24,
                "animated": false, "version": String(repeating: "a", count: 32),
            ]
            return MemoryService.json(["revision": 4, "groups": [summary], "next": "n1"])
        }
        let sync = StickerSync.testing(service, view: CatalogView(size: .small, scale: .x2))
        let page = try await sync.groupIndex(matching: "choc", limit: 50, after: "n0")
        #expect(page.groups.first?.stickerCount == 24 && page.groups.first?.locked == true && page.next == "n1")
        let asked = try #require(service.requests.first?.path)
        for part in ["q=choc", "limit=50", "cursor=n0", "size=small", "scale=2"] {
            #expect(asked.contains(part), "\(asked)")
        }
    }
}
