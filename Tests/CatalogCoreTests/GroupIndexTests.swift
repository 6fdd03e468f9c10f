import CatalogCore
import Foundation
import StickerImage
import TestSupport
import Testing

/// The group index (`GroupIndexPage.build`): pages in catalog order, walks that span catalog changes, the name query
/// and the filter, and the cursor's and parameters' refusals.
@Suite struct GroupIndexTests {
    static let linker = AssetLinker(publicBaseURL: nil)

    /// A catalog of the groups `ids` in that order, each with two stickers, at `revision` (stamped with it too).
    static func snapshot(_ ids: [String], revision: Int64) -> CatalogSnapshot {
        let base = SampleCatalog.snapshot(revision: revision, groups: 1, perGroup: 2)
        var groups: [StickerGroup] = []
        var stickers: [String: [Sticker]] = [:]
        for (place, id) in ids.enumerated() {
            var group = base.groups[0]
            (group.id, group.name, group.position, group.localizedNames) = (id, "Group \(id)", place, [:])
            groups.append(group)
            stickers[id] = base.stickers["g0"]?.map { sticker in
                var sticker = sticker
                sticker.groupId = id
                return sticker
            }
        }
        var snapshot = CatalogSnapshot(revision: revision, groups: groups, stickers: stickers, filters: base.filters)
        snapshot.stamp = revision * 7
        return snapshot
    }

    /// Every page of a walk through `snapshot`, `limit` groups a page.
    static func walk(
        _ snapshot: CatalogSnapshot, limit: Int, query: ManifestQuery = ManifestQuery(), q: String? = nil
    )
        throws -> [[String]]
    {
        var pages: [[String]] = []
        var request = GroupIndexRequest(q: q, limit: limit)
        while true {
            let page = try GroupIndexPage.build(
                from: snapshot, query: query, request: request, pinned: nil, linker: linker)
            pages.append(page.groups.map(\.id))
            guard let next = page.next else { return pages }
            request.cursor = try GroupCursor(encoded: next, kind: GroupCursor.groups, key: linker.cursorKey)
        }
    }

    @Test func pagesListEveryGroupOnceInCatalogOrder() throws {
        let snapshot = SampleCatalog.snapshot(revision: 4, groups: 20, perGroup: 3)
        let pages = try Self.walk(snapshot, limit: 7)
        #expect(pages.map(\.count) == [7, 7, 6])
        #expect(pages.flatMap { $0 } == snapshot.groups.map(\.id))
        // A limit that divides the catalog: the last full page says there is no next one.
        #expect(try Self.walk(snapshot, limit: 10).map(\.count) == [10, 10])
    }

    @Test func theNameQueryAndTheFilterNarrowTheIndex() throws {
        let snapshot = SampleCatalog.snapshot(revision: 4, groups: 20, perGroup: 3)
        #expect(try Self.walk(snapshot, limit: 3, q: "GROUP 1").flatMap { $0 } == ["g1"] + (10...19).map { "g\($0)" })
        // In French, by the French name; accents and case aside.
        let french = ManifestQuery(locale: "fr")
        #expect(try Self.walk(snapshot, limit: 50, query: french, q: "gröupe 2").flatMap { $0 } == ["g2"])
        #expect(try Self.walk(snapshot, limit: 50, q: "nothing").flatMap { $0 }.isEmpty)
        // Every third group is flagged chocolate, so the chocoholic filter lists those only.
        let chocoholic = ManifestQuery(filter: "chocoholic")
        #expect(
            try Self.walk(snapshot, limit: 4, query: chocoholic).flatMap { $0 }
                == stride(from: 0, to: 20, by: 3).map { "g\($0)" })
        #expect(throws: CatalogError.unknownFilter("nope")) {
            try Self.walk(snapshot, limit: 4, query: ManifestQuery(filter: "nope"))
        }
    }

    @Test func aSummaryIsWhatABrowseGridNeeds() throws {
        let snapshot = SampleCatalog.snapshot(revision: 4, groups: 6, perGroup: 3)
        let page = try GroupIndexPage.build(
            from: snapshot, query: ManifestQuery(scale: 2), request: GroupIndexRequest(), pinned: nil,
            linker: Self.linker)
        let premium = try #require(page.groups.first { $0.id == "g5" })
        #expect(premium.locked && premium.productId == "com.example.premium" && premium.stickerCount == 3)
        #expect(premium.cover?.url.hasPrefix("/v1/assets/") == true && premium.version.count == 32)
        #expect(page.groups.map(\.position) == Array(0..<6) && page.next == nil && page.revision == 4)
    }

    /// Groups added, moved and removed between every two pages, at random: a walk following the order it began in
    /// sends no group twice and skips none that was there throughout.
    @Test(arguments: 0..<20) func aWalkAcrossChangesSendsNoGroupTwiceAndSkipsNone(seed: Int) throws {
        var random = SplitMix(seed)
        var ids = (0..<60).map { "g\($0)" }
        var revision: Int64 = 1
        var orders: [Int64: [String]] = [revision: ids]
        var snapshot = Self.snapshot(ids, revision: revision)
        var everPresent = Set(ids)
        var sent: [String] = []
        var request = GroupIndexRequest(limit: Int.random(in: 1...9, using: &random))
        var made = 60
        while true {
            let pinned = request.cursor.flatMap { orders[$0.revision] }
            let page = try GroupIndexPage.build(
                from: snapshot, query: ManifestQuery(), request: request, pinned: pinned, linker: Self.linker)
            sent += page.groups.map(\.id)
            guard let next = page.next else { break }
            request.cursor = try GroupCursor(encoded: next, kind: GroupCursor.groups, key: Self.linker.cursorKey)
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    ids.insert("n\(made)", at: Int.random(in: 0...ids.count, using: &random))
                    made += 1
                case 1 where !ids.isEmpty:
                    let moved = ids.remove(at: Int.random(in: 0..<ids.count, using: &random))
                    ids.insert(moved, at: Int.random(in: 0...ids.count, using: &random))
                default:
                    if !ids.isEmpty { ids.remove(at: Int.random(in: 0..<ids.count, using: &random)) }
                }
            }
            everPresent.formIntersection(ids)
            revision += 1
            orders[revision] = ids
            snapshot = Self.snapshot(ids, revision: revision)
        }
        #expect(Set(sent).count == sent.count, "a group sent twice")
        #expect(everPresent.isSubset(of: Set(sent)), "groups skipped: \(everPresent.subtracting(sent).sorted())")
    }

    /// A replica that holds no order of the walk's start goes on after the last group sent, in the order of now.
    @Test func withoutTheWalksOrderTheNextPageStartsAfterTheLastGroupSent() throws {
        let before = Self.snapshot(["a", "b", "c", "d", "e"], revision: 1)
        let first = try GroupIndexPage.build(
            from: before, query: ManifestQuery(), request: GroupIndexRequest(limit: 2), pinned: nil,
            linker: Self.linker)
        #expect(first.groups.map(\.id) == ["a", "b"])
        let cursor = try GroupCursor(
            encoded: try #require(first.next), kind: GroupCursor.groups, key: Self.linker.cursorKey)
        let after = Self.snapshot(["x", "a", "b", "c", "d", "e"], revision: 2)
        let second = try GroupIndexPage.build(
            from: after, query: ManifestQuery(), request: GroupIndexRequest(limit: 2, cursor: cursor), pinned: nil,
            linker: Self.linker)
        #expect(second.groups.map(\.id) == ["c", "d"])
        // "b" gone: the walk goes on at the place it had.
        let removed = Self.snapshot(["a", "c", "d", "e"], revision: 3)
        let third = try GroupIndexPage.build(
            from: removed, query: ManifestQuery(), request: GroupIndexRequest(limit: 2, cursor: cursor), pinned: nil,
            linker: Self.linker)
        #expect(third.groups.map(\.id) == ["d", "e"])
    }

    @Test func cursorsAndParametersThatCannotBeAreRefused() throws {
        let key = Self.linker.cursorKey
        let good = GroupCursor(revision: 3, stamp: 21, index: 4, after: "g4").encoded(with: key)
        #expect(try GroupCursor(encoded: good, kind: GroupCursor.groups, key: key).after == "g4")
        var tampered = Array(good)
        tampered[10] = tampered[10] == "A" ? "B" : "A"
        #expect(throws: CatalogError.self) {
            try GroupCursor(encoded: String(tampered), kind: GroupCursor.groups, key: key)
        }
        // Another replica's key, another kind of cursor, and a change cursor are all expired, not trusted.
        let foreign = GroupCursor(revision: 3, stamp: 21, index: 4, after: "g4").encoded(
            with: CursorKey(signer: AssetSigner(key: Array(repeating: 1, count: 32), lifetime: 60)))
        let stickers = GroupCursor(kind: GroupCursor.stickers, revision: 3, stamp: 21, index: 4, after: "g4")
        let change = ChangeCursor(revision: 3, stamp: 21, query: ManifestQuery()).encoded(with: key)
        for other in [foreign, stickers.encoded(with: key), change] {
            #expect(throws: CatalogError.self) { try GroupCursor(encoded: other, kind: GroupCursor.groups, key: key) }
        }
        for (name, value) in [
            ("limit", "0"), ("limit", "501"), ("limit", "ten"), ("cursor", "not a cursor!"),
            ("q", String(repeating: "x", count: 101)), ("q", "a\u{7}b"), ("ids", ""), ("ids", "a,,b"),
            ("ids", "Upper"), ("ids", (0...100).map { "g\($0)" }.joined(separator: ",")), ("ids", "-a"),
        ] {
            #expect(throws: CatalogError.self, "\(name)=\(value)") {
                try GroupIndexRequest(parameters: [name: value], key: key)
            }
        }
        #expect(try GroupIndexRequest(parameters: ["limit": "500", "q": " Chocolat "], key: key).q == "chocolat")
    }

    @Test func idsListThoseGroupsOnlyInCatalogOrder() throws {
        let snapshot = SampleCatalog.snapshot(revision: 4, groups: 20, perGroup: 3)
        let request = try GroupIndexRequest(parameters: ["ids": "g17,g3,nope,g3"], key: Self.linker.cursorKey)
        let page = try GroupIndexPage.build(
            from: snapshot, query: ManifestQuery(), request: request, pinned: nil, linker: Self.linker)
        #expect(page.groups.map(\.id) == ["g3", "g17"] && page.next == nil)
        let all = try GroupIndexRequest(
            parameters: ["ids": (0..<100).map { "g\($0)" }.joined(separator: ",")], key: Self.linker.cursorKey)
        #expect(all.ids?.count == 100)
    }
}
