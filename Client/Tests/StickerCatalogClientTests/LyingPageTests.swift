import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// A change page or manifest that lies about ids or counts is refused, and nothing is written.
@Suite struct LyingPageTests {
    /// A change page at revision 2 (last unless `more`).
    static func page(
        groups: [[String: Any]] = [], removed: [String] = [], order: [String], more: Bool = false, cursor: String = "c2"
    ) -> [String: Any] {
        [
            "revision": 2, "cursor": cursor, "moreComing": more, "groups": groups, "removedGroups": removed,
            "removedStickers": [], "order": order,
        ]
    }

    /// The demo group of `service`, renamed `id`.
    static func group(_ service: MemoryService, id: String = "g") -> [String: Any] {
        var group = (service.manifest["groups"] as! [[String: Any]])[0]
        group["id"] = id
        return group
    }

    /// Syncs `service` into a folder synced once before, with `pages` answered in turn by the change feed; checks the
    /// sync is refused as `invalidAnswer` and that `catalog.json` and `cursor.json` are the bytes they were.
    static func refused(_ service: MemoryService, pages: [[String: Any]], _ why: Comment) async throws {
        let folder = StickerSync.temporaryFolder()
        service.handler = { _, _ in nil }
        _ = try await StickerSync.testing(service, folder: folder).sync()
        let before = try ["catalog.json", "cursor.json"].map { try Data(contentsOf: folder.appending(path: $0)) }
        let answers = pages.map { MemoryService.json($0) }
        let asked = Counter()
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/manifest/changes") == true
                ? answers[min(asked.next(), answers.count) - 1] : nil
        }
        // Action
        let failure = await #expect(throws: StickerClientError.self, why) {
            try await StickerSync.testing(service, folder: folder).sync()
        }
        // Check
        guard case .invalidAnswer = failure else {
            Issue.record("\(why): \(String(describing: failure))")
            return
        }
        let after = try ["catalog.json", "cursor.json"].map { try Data(contentsOf: folder.appending(path: $0)) }
        #expect(after == before, why)
    }

    @Test("An order naming one group 10,000 times is refused, not 10,000 groups")
    func repeatedOrder() async throws {
        let service = MemoryService()
        try await Self.refused(
            service, pages: [Self.page(order: Array(repeating: "g", count: 10_000))], "a repeated order")
    }

    @Test("A group twice in a page, a sticker twice in a group, a group sent on two pages are refused")
    func duplicates() async throws {
        let service = MemoryService()
        let group = Self.group(service)
        var doubled = group
        doubled["stickers"] = (group["stickers"] as! [[String: Any]]) + [(group["stickers"] as! [[String: Any]])[0]]
        try await Self.refused(service, pages: [Self.page(groups: [group, group], order: ["g"])], "a group twice")
        try await Self.refused(service, pages: [Self.page(groups: [doubled], order: ["g"])], "a sticker twice")
        try await Self.refused(
            service, pages: [Self.page(groups: [group], removed: ["g"], order: ["g"])], "a group sent and removed")
        try await Self.refused(
            service,
            pages: [
                Self.page(groups: [group], order: ["g"], more: true, cursor: "p1"),
                Self.page(groups: [group], order: ["g"]),
            ], "a group on two pages")
        var other = Self.group(service, id: "h")
        other["stickers"] = group["stickers"]
        try await Self.refused(
            service, pages: [Self.page(groups: [other], order: ["g", "h"])], "a sticker in two groups")
    }

    @Test("An order naming a group neither kept nor sent, and a page past 200 groups, are refused")
    func unknownAndTooMany() async throws {
        let service = MemoryService()
        try await Self.refused(service, pages: [Self.page(order: ["g", "ghost"])], "a ghost group")
        let many = (0...200).map { Self.group(service, id: "g\($0)") }.map { group -> [String: Any] in
            var group = group
            group["stickers"] = []
            return group
        }
        try await Self.refused(
            service, pages: [Self.page(groups: many, order: many.map { $0["id"] as! String })], "201 groups")
    }

    @Test("A manifest naming a group twice is refused, and nothing is written")
    func manifestDuplicates() async throws {
        // Setup
        let service = MemoryService()
        service.manifest["groups"] = [Self.group(service), Self.group(service)]
        let sync = StickerSync.testing(service)
        // Action
        let failure = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check
        guard case .invalidAnswer = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: sync.folder.directory.appending(path: "catalog.json").path))
    }

    @Test("After a 410, a manifest older than the catalog held is refused: nothing written, no purge countdown")
    func neverBackwards() async throws {
        // Setup: a catalog at revision 5; then the cursor expires and a replica behind answers revision 3, whose
        // sticker 0 has another picture.
        let service = MemoryService()
        service.manifest["revision"] = 5
        let folder = StickerSync.temporaryFolder()
        _ = try await StickerSync.testing(service, folder: folder).sync()
        let before = try ["catalog.json", "cursor.json"].map { try Data(contentsOf: folder.appending(path: $0)) }
        service.replace(sticker: 0, with: Data("older picture".utf8))
        service.manifest["revision"] = 3
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/manifest/changes") == true
                ? MemoryService.refusal(.gone, code: "cursor_expired") : nil
        }
        // Action
        let failure = await #expect(throws: StickerClientError.self) {
            try await StickerSync.testing(service, folder: folder).sync()
        }
        // Check: refused; the state as it was; the older picture not fetched.
        guard case .invalidAnswer = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        let after = try ["catalog.json", "cursor.json"].map { try Data(contentsOf: folder.appending(path: $0)) }
        #expect(after == before)
        #expect(service.count("/v1/assets/\(MemoryService.hex(Data("older picture".utf8))).png") == 0)
    }
}
