import CatalogCore
import Foundation
import TestSupport
import Testing

/// A snapshot read after a change derives its free images and locales again for the changed groups only, and ends up
/// with exactly what a snapshot derived from scratch has.
@Suite struct SnapshotDerivationTests {
    static func stored(
        _ base: CatalogSnapshot, versions: [String: Int64], reusing previous: CatalogSnapshot? = nil
    )
        -> CatalogSnapshot
    {
        CatalogSnapshot(
            revision: base.revision, groups: base.groups, stickers: base.stickers, filters: base.filters,
            contentVersions: versions, reusing: previous)
    }

    static func expectSame(_ reused: CatalogSnapshot, _ fresh: CatalogSnapshot) {
        #expect(reused.freeAssets == fresh.freeAssets && reused.locales == fresh.locales)
        #expect(reused.stickerCount == fresh.stickerCount)
    }

    @Test func aReusedDerivationEqualsOneMadeAfresh() throws {
        let base = SampleCatalog.snapshot(revision: 1, groups: 6, perGroup: 3)
        let versions = Dictionary(uniqueKeysWithValues: base.groups.map { ($0.id, Int64(1)) })
        let first = Self.stored(base, versions: versions)
        // g2's stickers change (a new image, a French description): its content version moves.
        var stickers = base.stickers
        stickers["g2"]?[0].asset.sha256 = String(repeating: "ab", count: 32)
        stickers["g2"]?[1].localizedDescriptions = ["fr": "Un bonbon"]
        var moved = versions
        moved["g2"] = 2
        let changed = CatalogSnapshot(revision: 2, groups: base.groups, stickers: stickers, filters: base.filters)
        let reused = Self.stored(changed, versions: moved, reusing: first)
        Self.expectSame(reused, Self.stored(changed, versions: moved))
        #expect(reused.freeAssets != first.freeAssets && reused.locales.contains("fr"))
        // g1 made premium, its stickers as they were: only its cover stays free, though its content version did not move.
        var groups = base.groups
        groups[1].productId = "com.example.new"
        let locked = CatalogSnapshot(revision: 3, groups: groups, stickers: stickers, filters: base.filters)
        let relocked = Self.stored(locked, versions: moved, reusing: reused)
        Self.expectSame(relocked, Self.stored(locked, versions: moved))
        #expect(relocked.freeAssets.count < reused.freeAssets.count)
    }

    /// Without content versions (a snapshot made in memory) nothing is reused, so a changed sticker is never missed.
    @Test func withoutContentVersionsNothingIsReused() {
        let base = SampleCatalog.snapshot(revision: 1, groups: 3, perGroup: 2)
        var stickers = base.stickers
        stickers["g0"]?[0].asset.sha256 = String(repeating: "cd", count: 32)
        let changed = CatalogSnapshot(
            revision: 2, groups: base.groups, stickers: stickers, filters: base.filters, reusing: base)
        Self.expectSame(changed, CatalogSnapshot(revision: 2, groups: base.groups, stickers: stickers, filters: [:]))
        #expect(changed.freeAssets != base.freeAssets)
    }
}
