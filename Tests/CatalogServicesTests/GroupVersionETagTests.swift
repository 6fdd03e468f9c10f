import CatalogCore
import CatalogServices
import Foundation
import StickerImage
import TestSupport
import Testing

/// The index's `version` of a group is the ETag its own route answers, for every view: sizes, scales, formats,
/// languages, a holder of its product and not, inside its audience and out, with signed URLs.
@Suite struct GroupVersionETagTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The sample catalog with g2 for the US only; g5 is premium.
    static let snapshot: CatalogSnapshot = {
        let base = SampleCatalog.snapshot(revision: 3, groups: 8, perGroup: 3)
        var groups = base.groups
        (groups[2].audience, groups[2].audienceSalt) = (Audience(countries: ["US"]), "salt")
        return CatalogSnapshot(revision: 3, groups: groups, stickers: base.stickers, filters: base.filters)
    }()

    static func service() -> ManifestService {
        let signer = AssetSigner(key: Array(repeating: 9, count: 32), lifetime: 3600)
        return ManifestService(
            reader: SnapshotReader(snapshot), revision: CatalogRevision(),
            linker: AssetLinker(publicBaseURL: nil, signer: signer))
    }

    static let views: [[String: String]] = [
        [:], ["size": "small"], ["size": "large", "scale": "1"], ["scale": "2", "format": "webp"],
        ["format": "png", "locale": "fr"], ["locale": "fr-CA", "size": "medium"],
    ]
    static let viewers = [
        Viewer.anyone, Viewer(held: ["com.example.premium"], facts: .none),
        Viewer(held: [], facts: AudienceFacts(country: "US")),
        Viewer(held: ["com.example.premium", "other"], facts: AudienceFacts(country: "US")),
    ]

    @Test(arguments: views) func versionIsTheGroupsETagForEveryViewer(view: [String: String]) async throws {
        let service = Self.service()
        for viewer in Self.viewers {
            let index = try await service.body(route: "groups", query: nil, viewer: viewer, now: Self.now) {
                .index(try ManifestQuery(parameters: view), GroupIndexRequest())
            }
            let page = try JSONDecoder().decode(
                GroupIndexPage.self, from: Data(index.body.identity.bytes.readableBytesView))
            #expect(page.groups.contains { $0.id == "g2" } == (viewer.facts.country == "US"))
            for summary in page.groups {
                let group = try await service.body(
                    route: "group/" + summary.id, query: nil, viewer: viewer, now: Self.now
                ) { .group(summary.id, try ManifestQuery(parameters: view)) }
                #expect(group.body.identity.etag == "\"\(summary.version)\"", "\(summary.id) \(view) \(viewer)")
                let json = try JSONDecoder().decode(
                    ManifestGroup.self, from: Data(group.body.identity.bytes.readableBytesView))
                #expect(json.locked == summary.locked && json.cover == summary.cover && json.name == summary.name)
                #expect(
                    json.position == summary.position && (json.locked || json.stickers.count == summary.stickerCount))
            }
        }
    }
}
