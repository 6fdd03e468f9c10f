import CatalogCore
import Foundation
import StickerImage
import TestSupport
import Testing

/// A group's `version`: the same for the same inputs, another whenever the group's JSON could differ, one group's
/// change leaving every other group's version as it was.
@Suite struct GroupVersionTests {
    static let linker = AssetLinker(publicBaseURL: nil)

    static func version(
        _ snapshot: CatalogSnapshot, _ id: String, query: ManifestQuery = ManifestQuery(), linker: AssetLinker = linker
    ) throws -> String {
        let group = try #require(snapshot.group(id: id))
        return GroupVersion.of(
            group, position: group.position, stickers: snapshot.stickers[id] ?? [],
            contentVersion: snapshot.contentVersions[id], query: query, linker: linker)
    }

    @Test func aOneStickerChangeChangesThatGroupsVersionOnly() throws {
        let before = SampleCatalog.snapshot(revision: 1, groups: 8, perGroup: 4)
        let after = SampleCatalog.snapshot(revision: 2, groups: 8, perGroup: 4, renamed: "g3")
        for id in before.groups.map(\.id) {
            #expect((try Self.version(before, id) == Self.version(after, id)) == (id != "g3"), "\(id)")
        }
        // With the database's content versions, the same: only the group whose number moved.
        let stored = CatalogSnapshot(
            revision: 2, groups: after.groups, stickers: after.stickers, filters: after.filters,
            contentVersions: Dictionary(uniqueKeysWithValues: after.groups.map { ($0.id, 10) }))
        var raised = stored.contentVersions
        raised["g6"] = 11
        let bumped = CatalogSnapshot(
            revision: 3, groups: after.groups, stickers: after.stickers, filters: after.filters,
            contentVersions: raised)
        for id in before.groups.map(\.id) {
            #expect((try Self.version(stored, id) == Self.version(bumped, id)) == (id != "g6"), "\(id)")
        }
    }

    @Test func everyPartOfTheViewChangesTheVersion() throws {
        let snapshot = SampleCatalog.snapshot(revision: 1, groups: 6, perGroup: 2)
        let views: [ManifestQuery] = [
            ManifestQuery(), ManifestQuery(size: .small), ManifestQuery(scale: 2), ManifestQuery(format: .webp),
            ManifestQuery(format: .png), ManifestQuery(locale: "fr"),
        ]
        let versions = try views.map { try Self.version(snapshot, "g5", query: $0) }
        #expect(Set(versions).count == views.count)
        var unlocked = ManifestQuery()
        (unlocked.unlocked, unlocked.signedUntil) = (["com.example.premium"], 1_900_000_000)
        #expect(try Self.version(snapshot, "g5", query: unlocked) != versions[0])
        // A free group's JSON does not depend on what the caller holds: neither does its version.
        #expect(try Self.version(snapshot, "g1", query: unlocked) == Self.version(snapshot, "g1"))
        let cdn = AssetLinker(publicBaseURL: "https://cdn.example.com")
        #expect(try Self.version(snapshot, "g1", linker: cdn) != Self.version(snapshot, "g1"))
    }

    /// Without a content version every stored field of a sticker and of its group counts: these counts fail when a
    /// field is added, until `DigestInput` writes it too.
    @Test func everyStoredFieldIsDigested() throws {
        let snapshot = SampleCatalog.snapshot(revision: 1, groups: 1, perGroup: 1)
        let group = try #require(snapshot.groups.first)
        let sticker = try #require(snapshot.stickers["g0"]?.first)
        #expect(Mirror(reflecting: group).children.count == 17)
        #expect(Mirror(reflecting: sticker).children.count == 16)
        #expect(Mirror(reflecting: sticker.asset).children.count == 9)
        #expect(Mirror(reflecting: StickerRendition(edge: 1, still: true, asset: sticker.asset)).children.count == 4)
        let edits: [(inout Sticker) -> Void] = [
            { $0.keywords.append("new") }, { $0.emoji = [] }, { $0.localizedDescriptions["de"] = "x" },
            { $0.asset.bytes += 1 }, { $0.publishAt = SampleCatalog.now }, { $0.placeholder = "#11223344" },
            { $0.renditions.append(StickerRendition(edge: 96, still: true, asset: $0.asset)) },
        ]
        let original = GroupVersion.of(
            group, position: 0, stickers: [sticker], contentVersion: nil, query: ManifestQuery(), linker: Self.linker)
        for edit in edits {
            var changed = sticker
            edit(&changed)
            #expect(
                GroupVersion.of(
                    group, position: 0, stickers: [changed], contentVersion: nil, query: ManifestQuery(),
                    linker: Self.linker) != original)
        }
    }
}
