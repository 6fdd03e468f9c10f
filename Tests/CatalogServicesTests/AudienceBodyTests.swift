import CatalogCore
import CatalogServices
import Foundation
import NIOCore
import Testing

/// A manifest of a catalog with audiences is made of the group fragments every audience's manifest shares: the same
/// bytes and ETag as one buffer, at a fraction of the memory per audience.
@Suite struct AudienceBodyTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func snapshot() -> CatalogSnapshot {
        let ids = ["a", "b", "c", "d"]
        let groups = ids.enumerated().map { index, id in
            StickerGroup(
                id: id, name: "Group \(id)", localizedNames: [:], sizeClass: .medium, flags: [], position: index,
                published: true, createdAt: now, updatedAt: now,
                audience: id == "c" ? Audience(countries: ["US"]) : nil, audienceSalt: id)
        }
        let stickers = Dictionary(
            uniqueKeysWithValues: ids.map { id in
                (
                    id,
                    (0..<20).map { n in
                        Sticker(
                            id: UUID(), groupId: id, name: "\(id)\(n)", description: "Sticker \(n) of \(id)",
                            localizedDescriptions: [:], flags: [], keywords: ["k\(n)"], emoji: [], position: n,
                            asset: Asset(
                                sha256: String(repeating: "0", count: 62) + String(format: "%02d", n), width: 408,
                                height: 408, bytes: 1, animated: false, frames: 1, durationMs: 0, loops: 0),
                            createdAt: now, updatedAt: now)
                    }
                )
            })
        return CatalogSnapshot(revision: 4, groups: groups, stickers: stickers, filters: [:])
    }

    @Test func partsMakeTheSameBytesAndETagAndCostLessThanACopy() throws {
        let (snapshot, fragments) = (Self.snapshot(), GroupFragments(capacity: 1 << 20))
        let linker = AssetLinker(publicBaseURL: nil)
        for country in ["US", "FR"] {
            let query = ManifestQuery().unlocking([], signedUntil: 99, facts: AudienceFacts(country: country))
                .normalized(for: snapshot)
            let whole = try fragments.manifest(from: snapshot, query: query, linker: linker)
            let (parts, shared) = try fragments.manifestParts(from: snapshot, query: query, linker: linker)
            #expect(parts.flatMap { Array($0.readableBytesView) } == whole)
            let built = try JSONEncoder.catalog.encode(Manifest.build(from: snapshot, query: query, linker: linker))
            #expect(whole == Array(built))
            let (one, many) = (CachedBody(json: whole), CachedBody(parts: parts, shared: shared))
            #expect(one.identity.etag == many.identity.etag && many.identity.length == whole.count)
            #expect(many.identity.ok[.contentLength] == String(whole.count))
            // Each audience's body costs its own head and list: under a tenth of a copy here.
            #expect(many.cost * 10 < one.cost, "\(many.cost) of \(one.cost)")
            // Compressing joins the parts: the same representation as from one buffer.
            #expect(many.compress(.gzip, .best).etag == one.compress(.gzip, .best).etag)
        }
    }
}
