import CatalogCore
import Foundation
import Testing

/// The one rule for what a caller sees (`Viewer`): products that unlock something, restricted groups its facts admit,
/// URLs signed only when either shows anything.
@Suite struct ViewerTests {
    typealias View = AudienceViewTests

    /// `open` for everyone, `paid` behind `pro`, `us` for the US only.
    static let snapshot: CatalogSnapshot = {
        var paid = View.group("paid")
        paid.productId = "pro"
        return CatalogSnapshot(
            revision: 2, groups: [View.group("open"), paid, View.group("us", audience: Audience(countries: ["US"]))],
            stickers: [:], filters: [:])
    }()
    static let signer = AssetSigner(key: Array(repeating: 7, count: 32), lifetime: 3600)

    @Test func heldProductsAreSortedAndOnlyThoseThatUnlockSomethingCount() {
        let viewer = Viewer(held: ["zzz", "pro", "aaa"], facts: .none)
        #expect(viewer.held == ["aaa", "pro", "zzz"])
        let access = viewer.access(in: Self.snapshot, signer: Self.signer, now: View.now)
        #expect(access.products == ["pro"] && access.admitted.isEmpty)
        #expect(access.signedUntil == Self.signer.expiry(at: View.now))
    }

    @Test func factsAdmitToRestrictedGroupsAndNothingSeenSignsNothing() {
        let anyone = Viewer.anyone.access(in: Self.snapshot, signer: Self.signer, now: View.now)
        #expect(anyone.products.isEmpty && anyone.admitted.isEmpty && anyone.signedUntil == nil)
        let french = Viewer(held: ["aaa"], facts: AudienceFacts(country: "FR"))
        #expect(french.access(in: Self.snapshot, signer: Self.signer, now: View.now).signedUntil == nil)
        let american = Viewer(held: [], facts: AudienceFacts(country: "US"))
        let access = american.access(in: Self.snapshot, signer: Self.signer, now: View.now)
        #expect(access.admitted == ["us"] && access.signedUntil != nil)
        // Before a snapshot is read, what the facts admit is unknown: the expiry is kept for the normalised view.
        #expect(american.access(in: nil, signer: Self.signer, now: View.now).signedUntil != nil)
    }

    @Test func aViewIsTheQueryAsTheViewerSeesIt() {
        let view = Viewer(held: ["pro"], facts: AudienceFacts(country: "US"))
            .view(ManifestQuery(locale: "fr"), in: Self.snapshot, signer: Self.signer, now: View.now)
        #expect(view.unlocked == ["pro"] && view.admitted == ["us"] && view.facts == nil)
        #expect(view.locale == nil)  // no text of this catalog is in French
        #expect(view.shows(Self.snapshot.groups[2]))
        let outsider = Viewer.anyone.view(ManifestQuery(), in: Self.snapshot, signer: Self.signer, now: View.now)
        #expect(!outsider.shows(Self.snapshot.groups[2]) && outsider.signedUntil == nil)
    }
}
