import CatalogCore
import Foundation
import Testing

/// Audiences in the domain, without a database: the API form checked field by field, what a snapshot admits a caller
/// to, the manifest and change pages of a view, and the images that stop being free.
@Suite struct AudienceViewTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func group(_ id: String, audience: Audience? = nil) -> StickerGroup {
        StickerGroup(
            id: id, name: id, localizedNames: [:], sizeClass: .medium, flags: [], position: 0, published: true,
            createdAt: now, updatedAt: now, audience: audience, audienceSalt: "salt-\(id)")
    }

    static func sticker(_ group: String, _ sha: String) -> Sticker {
        Sticker(
            id: UUID(), groupId: group, name: sha, description: "", localizedDescriptions: [:], flags: [],
            keywords: [], emoji: [], position: 0,
            asset: Asset(
                sha256: sha, width: 408, height: 408, bytes: 1, animated: false, frames: 1, durationMs: 0, loops: 0),
            createdAt: now, updatedAt: now)
    }

    /// `open` for everyone, `us` for the US only.
    static let snapshot = CatalogSnapshot(
        revision: 3, groups: [group("open"), group("us", audience: Audience(countries: ["US"]))],
        stickers: ["open": [sticker("open", hex("a"))], "us": [sticker("us", hex("b"))]], filters: [:])

    static func hex(_ digit: Character) -> String { String(repeating: digit, count: 64) }

    @Test func theFormIsCheckedFieldByFieldAndReadsBackCanonical() throws {
        var errors = FieldErrors()
        let bad = AudienceForm(
            countries: [], platforms: ["ios", "Web"], appVersions: .init(minimum: "2.x"), percentage: -1)
        #expect(Audience(form: bad, errors: &errors) == nil)
        #expect(
            errors.issues.map(\.field) == [
                "audience.countries", "audience.platforms[1]", "audience.appVersions.minimum", "audience.percentage",
            ])
        var none = FieldErrors()
        let form = AudienceForm(
            countries: ["US", "CA"], appVersions: .init(minimum: "2.3", maximum: "2.3"), percentage: 12.5)
        let audience = try #require(Audience(form: form, errors: &none))
        #expect(none.issues.isEmpty && audience.permille == 125)
        #expect(audience.form.countries == ["CA", "US"] && audience.form.appVersions?.maximum == "2.3.0")
        #expect(Audience(stored: audience.form) == audience)
        for tenths in [0.1, 0.3, 33.3, 99.9, 100] {
            var fine = FieldErrors()
            #expect(Audience(form: AudienceForm(percentage: tenths), errors: &fine) != nil, "\(tenths)")
        }
        var hundredths = FieldErrors()
        #expect(Audience(form: AudienceForm(percentage: 0.05), errors: &hundredths) == nil)
    }

    @Test func aViewShowsOnlyTheRestrictedGroupsItsFactsAdmit() throws {
        let linker = AssetLinker(
            publicBaseURL: nil, signer: AssetSigner(key: Array(repeating: 7, count: 32), lifetime: 3600))
        let outside = ManifestQuery().unlocking([], signedUntil: 99, facts: AudienceFacts(country: "FR"))
            .normalized(for: Self.snapshot)
        let inside = ManifestQuery().unlocking([], signedUntil: 99, facts: AudienceFacts(country: "US"))
            .normalized(for: Self.snapshot)
        #expect(outside.admitted.isEmpty && outside.signedUntil == nil && outside.facts == nil)
        #expect(inside.admitted == ["us"] && inside.signedUntil == 99)
        #expect(try Manifest.build(from: Self.snapshot, query: outside, linker: linker).groups.map(\.id) == ["open"])
        let shown = try Manifest.build(from: Self.snapshot, query: inside, linker: linker)
        #expect(shown.groups.map(\.id) == ["open", "us"])
        // A restricted group's images are never free: served with a signature, cover included.
        #expect(Self.snapshot.freeAssets == DigestCounts([try #require(AssetDigest(hex: Substring(Self.hex("a"))))]))
        #expect(shown.groups[1].stickers[0].asset.url.contains("sig="))
        #expect(shown.groups[1].cover?.url.contains("sig=") == true)
        #expect(!shown.groups[0].stickers[0].asset.url.contains("sig="))
    }

    @Test func aChangePageNamesARestrictedGroupOnlyToThoseWhoSeeOrSawIt() throws {
        let linker = AssetLinker(publicBaseURL: nil)
        var changes = CatalogChanges()
        changes.groups = ["us"]
        let before = ChangeCursor(revision: 2, stamp: 0, query: ManifestQuery())
        func page(_ country: String, cursor: ChangeCursor) throws -> ManifestChanges {
            let query = ManifestQuery().unlocking([], signedUntil: nil, facts: AudienceFacts(country: country))
                .normalized(for: Self.snapshot)
            return try ManifestChanges.build(
                from: Self.snapshot, query: query, cursor: cursor, changes: changes, limit: 50, linker: linker)
        }
        let outside = try page("FR", cursor: before)
        #expect(outside.groups.isEmpty && outside.removedGroups.isEmpty && outside.order == ["open"])
        let inside = try page("US", cursor: before)
        #expect(inside.groups.map(\.id) == ["us"] && inside.order == ["open", "us"])
        // A caller who saw it and no longer does is told to remove it, even with nothing logged.
        var saw = before
        saw.groups = ["us"]
        let left = try ManifestChanges.build(
            from: Self.snapshot,
            query: ManifestQuery().unlocking([], signedUntil: nil, facts: AudienceFacts(country: "FR"))
                .normalized(for: Self.snapshot),
            cursor: saw, changes: CatalogChanges(), limit: 50,
            linker: linker)
        #expect(left.removedGroups == ["us"])
    }
}
