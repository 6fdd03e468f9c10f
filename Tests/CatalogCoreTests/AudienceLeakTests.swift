import CatalogCore
import Foundation
import Testing

/// What a restricted group must not give away, as plain functions (issue 46): its place among the groups, and in a
/// change page anything about it, unless the caller sees it now or could see it at its cursor's point.
@Suite struct AudienceLeakTests {
    typealias View = AudienceViewTests

    static func group(_ id: String, _ position: Int, audience: Audience? = nil) -> StickerGroup {
        var group = View.group(id, audience: audience)
        group.position = position
        return group
    }

    /// chewy, chocolate (US only), crunchy.
    static let snapshot = CatalogSnapshot(
        revision: 5,
        groups: [group("chewy", 0), group("chocolate", 1, audience: Audience(countries: ["US"])), group("crunchy", 2)],
        stickers: [
            "chewy": [View.sticker("chewy", View.hex("a"))], "chocolate": [View.sticker("chocolate", View.hex("b"))],
            "crunchy": [View.sticker("crunchy", View.hex("c"))],
        ],
        filters: [:])

    static func query(_ country: String) -> ManifestQuery {
        ManifestQuery().unlocking([], signedUntil: nil, facts: AudienceFacts(country: country))
            .normalized(for: snapshot)
    }

    @Test func positionsCountOnlyTheGroupsTheCallerSees() throws {
        let linker = AssetLinker(publicBaseURL: nil)
        let outside = try Manifest.build(from: Self.snapshot, query: Self.query("FR"), linker: linker)
        let inside = try Manifest.build(from: Self.snapshot, query: Self.query("US"), linker: linker)
        #expect(outside.groups.map(\.id) == ["chewy", "crunchy"] && outside.groups.map(\.position) == [0, 1])
        #expect(inside.groups.map(\.position) == [0, 1, 2])
        let crunchy = try #require(Self.snapshot.group(id: "crunchy"))
        #expect(Self.query("FR").position(of: crunchy, in: Self.snapshot) == 1)
        var changes = CatalogChanges()
        (changes.groups, changes.openBefore) = (["crunchy"], ["crunchy"])
        let cursor = ChangeCursor(revision: 4, stamp: 0, query: Self.query("FR"))
        let page = try ManifestChanges.build(
            from: Self.snapshot, query: Self.query("FR"), cursor: cursor, changes: changes, limit: 50, linker: linker)
        #expect(page.groups.map(\.position) == [1])
    }

    /// The page for a caller in `country` whose cursor admitted it to `admitted` then.
    static func page(_ country: String, admitted: [String], _ changes: CatalogChanges) throws -> ManifestChanges {
        var cursor = ChangeCursor(revision: 4, stamp: 0, query: query(country))
        cursor.groups = admitted.isEmpty ? nil : admitted
        return try ManifestChanges.build(
            from: snapshot, query: query(country), cursor: cursor, changes: changes, limit: 50,
            linker: AssetLinker(publicBaseURL: nil))
    }

    @Test func aGroupSeenWhenPublicIsRemovedOnceRestricted() throws {
        var changes = CatalogChanges()
        (changes.groups, changes.openBefore) = (["chocolate"], ["chocolate"])  // public at the cursor, restricted now
        #expect(try Self.page("FR", admitted: [], changes).removedGroups == ["chocolate"])
        #expect(try Self.page("US", admitted: [], changes).groups.map(\.id) == ["chocolate"])
    }

    @Test func aGroupNeverSeenIsNeverNamed() throws {
        var changes = CatalogChanges()
        changes.groups = ["secret", "chocolate"]  // restricted at the cursor; secret unpublished since
        let outside = try Self.page("FR", admitted: [], changes)
        #expect(outside.removedGroups.isEmpty && outside.groups.isEmpty)
        #expect(try Self.page("US", admitted: ["secret", "chocolate"], changes).removedGroups == ["secret"])
        // A public group unpublished since is removed for everyone who saw it.
        changes.openBefore = ["secret"]
        #expect(try Self.page("FR", admitted: [], changes).removedGroups == ["secret"])
    }

    @Test func stickersDeletedFromAGroupNeverSeenAreNotNamed() throws {
        var changes = CatalogChanges()
        changes.groups = ["chewy", "chocolate"]
        changes.openBefore = ["chewy"]
        changes.deletedStickers = ["s-open": "chewy", "s-us": "chocolate"]
        #expect(try Self.page("FR", admitted: [], changes).removedStickers == ["s-open"])
        #expect(try Self.page("US", admitted: ["chocolate"], changes).removedStickers == ["s-open", "s-us"])
    }
}
