import CatalogCore
import CatalogServices
import Foundation
import TestSupport
import Testing

/// A group past 500 stickers answers in pages: every sticker once, in order, each page with its own validator, the
/// first page's validator the index's `version`; a group that fits one page is the manifest's group, byte for byte.
@Suite struct GroupPageTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func service(_ snapshot: CatalogSnapshot) -> ManifestService {
        ManifestService(
            reader: SnapshotReader(snapshot), revision: CatalogRevision(), linker: AssetLinker(publicBaseURL: nil))
    }

    static func json(_ served: ManifestService.Served) throws -> [String: Any] {
        let data = Data(served.body.identity.bytes.readableBytesView)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aLargeGroupIsWalkedInPagesOfEveryStickerOnce() async throws {
        let snapshot = SampleCatalog.snapshot(revision: 2, groups: 2, perGroup: 1_234)
        let service = Self.service(snapshot)
        let index = try await service.body(route: "groups", query: nil, viewer: .anyone) {
            .index(ManifestQuery(), GroupIndexRequest())
        }
        let page = try JSONDecoder().decode(
            GroupIndexPage.self, from: Data(index.body.identity.bytes.readableBytesView))
        #expect(page.groups.first?.stickerCount == 1_234)
        var page_ = StickerPage.first
        var ids: [String] = []
        var etags: [String] = []
        while true {
            let served = try await service.body(for: .group("g1", ManifestQuery(), page_))
            let json = try Self.json(served)
            ids += (json["stickers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            etags.append(served.body.identity.etag)
            guard let next = json["next"] as? String else { break }
            page_.cursor = try GroupCursor(
                encoded: next, kind: GroupCursor.stickers, key: service.linker.cursorKey)
        }
        #expect(ids == snapshot.stickers["g1"]?.map(\.id.apiString))
        #expect(etags.count == 3 && Set(etags).count == 3)
        #expect(etags.first == "\"\(page.groups[1].version)\"")
    }

    /// A locked group lists no sticker, however many it holds: one answer, no next page to follow into empty ones.
    @Test func aLargeLockedGroupIsOnePageWithNoNext() async throws {
        let snapshot = SampleCatalog.snapshot(revision: 2, groups: 6, perGroup: 1_234)
        let json = try Self.json(try await Self.service(snapshot).body(for: .group("g5", ManifestQuery())))
        #expect(json["locked"] as? Bool == true && (json["stickers"] as? [Any])?.isEmpty == true)
        #expect(json["next"] == nil)
    }

    @Test func aGroupThatFitsOnePageIsTheManifestsGroup() async throws {
        let snapshot = SampleCatalog.snapshot(revision: 2, groups: 3, perGroup: 12)
        let service = Self.service(snapshot)
        let group = try Self.json(try await service.body(for: .group("g2", ManifestQuery())))
        let manifest = try Self.json(try await service.body(for: .manifest(ManifestQuery())))
        let listed = try #require((manifest["groups"] as? [[String: Any]])?.last)
        let canonical = { (object: [String: Any]) in
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }
        #expect(try canonical(group) == canonical(listed) && group["next"] == nil)
        // A smaller page: a next cursor, and a page of its own.
        let small = try Self.json(try await service.body(for: .group("g2", ManifestQuery(), StickerPage(limit: 5))))
        #expect((small["stickers"] as? [Any])?.count == 5 && small["next"] is String)
    }
}

/// A whole manifest of a catalog too large for the cache is refused before anything is built, pointing at the index.
@Suite struct ManifestLimitTests {
    @Test func aManifestPastTheLimitIsRefusedAndTheIndexStillAnswers() async throws {
        // 64 KiB of cache: a whole manifest of up to 32 stickers.
        let snapshot = SampleCatalog.snapshot(revision: 2, groups: 4, perGroup: 9)
        let service = ManifestService(
            reader: SnapshotReader(snapshot), revision: CatalogRevision(), linker: AssetLinker(publicBaseURL: nil),
            capacity: 64 << 10)
        #expect(service.manifestStickerLimit == 32 && snapshot.stickerCount == 36)
        await #expect(throws: CatalogError.self) { try await service.body(for: .manifest(ManifestQuery())) }
        #expect(service.cachedBytes == 0)
        let index = try await service.body(for: .index(ManifestQuery(), GroupIndexRequest()))
        #expect(index.body.identity.length > 0)
        let small = ManifestService(
            reader: SnapshotReader(SampleCatalog.snapshot(revision: 2, groups: 4, perGroup: 8)),
            revision: CatalogRevision(), linker: AssetLinker(publicBaseURL: nil), capacity: 64 << 10)
        #expect(try await small.body(for: .manifest(ManifestQuery())).body.identity.length > 0)
    }
}
