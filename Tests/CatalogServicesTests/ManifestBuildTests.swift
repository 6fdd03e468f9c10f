import CatalogCore
import CatalogServices
import Foundation
import TestSupport
import Testing

/// How manifests are built at scale, with no database: from per-group fragments kept across revisions, byte for byte
/// what encoding the whole manifest gives; compressed lazily (fast first, the best level once a body has earned it);
/// warmed before the first client asks.
@Suite struct ManifestBuildTests {
    @Test func fragmentsGiveTheBytesOfTheWholeManifestAcrossRevisions() throws {
        // Setup
        let linker = AssetLinker(
            publicBaseURL: nil, signer: AssetSigner(key: Array(repeating: 7, count: 32), lifetime: 3600))
        let fragments = GroupFragments(capacity: 16 << 20)
        let queries = [
            ManifestQuery(), ManifestQuery(filter: "chocoholic"),
            ManifestQuery(size: .small, scale: 2, format: .png, locale: "fr"),
            ManifestQuery().unlocking(["com.example.premium"], signedUntil: 1_800_003_600, facts: .none),
            ManifestQuery(flags: ["none"]),
        ]
        for (revision, renamed) in [(Int64(1), nil), (2, "g7"), (3, "g7")] {
            let snapshot = SampleCatalog.snapshot(revision: revision, renamed: renamed)
            for query in queries {
                // Action
                let assembled = try fragments.manifest(from: snapshot, query: query, linker: linker)
                // Check
                let whole = Array(
                    try JSONEncoder.catalog.encode(try Manifest.build(from: snapshot, query: query, linker: linker)))
                #expect(assembled == whole, "revision \(revision), \(query)")
            }
        }
        #expect(throws: CatalogError.unknownFilter("nope")) {
            try fragments.manifest(
                from: SampleCatalog.snapshot(revision: 4), query: ManifestQuery(filter: "nope"), linker: linker)
        }
    }

    @Test func largeBodiesAreCompressedFastFirstAndAtTheBestLevelOnceTheyHaveServedEnough() throws {
        // Setup: a 10,000-sticker-like body (hundreds of KiB) and a small one.
        let large = Array(
            try JSONEncoder.catalog.encode(
                try Manifest.build(
                    from: SampleCatalog.snapshot(revision: 1, groups: 40, perGroup: 50),
                    query: ManifestQuery(), linker: AssetLinker(publicBaseURL: nil))))
        let body = CachedBody(json: large)
        let small = CachedBody(json: Array(large.prefix(4096)))
        // Action: the first brotli request finds nothing made yet; it is made at the fast level.
        let first = body.select("gzip, br")
        let fast = body.compress(.brotli)
        // Check
        #expect(large.count > CachedBody.bestAtOnceBelow && first.coding == .brotli && first.representation == nil)
        #expect(fast.etag.hasSuffix("-br-fast\"") && fast.bytes.readableBytes < large.count / 4)
        var upgrades = 0
        for _ in 0..<(CachedBody.upgradeAfterHits * 2) where body.select("br").upgrade { upgrades += 1 }
        #expect(upgrades == 1, "exactly one request asks for the upgrade")
        let best = body.compress(.brotli, .best)
        #expect(best.etag.hasSuffix("-br\"") && best.bytes.readableBytes <= fast.bytes.readableBytes)
        #expect(body.select("br").representation?.etag == best.etag)
        // One copy of the JSON (a buffer, no array beside it), its part and the best representation kept.
        #expect(body.cost == large.count + 16 + 512 + best.bytes.readableBytes)
        // Small bodies get the best level at once; identity is never compressed.
        #expect(small.compress(.gzip).etag.hasSuffix("-gzip\""))
        #expect(
            body.select(nil).coding == .identity && body.select("identity").representation?.etag == body.identity.etag)
    }

    @Test func warmingLeavesTheDefaultManifestMadeInEveryCodingAndSurvivesAnUnreadableCatalog() async throws {
        // Setup
        let reader = SnapshotReader(SampleCatalog.snapshot(revision: 4))
        let service = ManifestService(
            reader: reader, revision: CatalogRevision(), linker: AssetLinker(publicBaseURL: nil))
        let failing = ManifestService(
            reader: SnapshotReader(nil), revision: CatalogRevision(), linker: AssetLinker(publicBaseURL: nil))
        // Action
        await service.warm()
        await failing.warm()
        let served = try await service.body(for: .manifest(ManifestQuery()))
        // Check: one read; the default manifest cached with brotli and gzip ready, so its first client waits for
        // nothing.
        #expect(reader.reads == 1)
        #expect(served.revision == 4 && service.isCached(.manifest(ManifestQuery())))
        for coding in ["br", "gzip"] {
            let (chosen, ready, _) = served.body.select(coding)
            #expect(chosen.rawValue == coding && ready != nil)
        }
        #expect(!failing.isCached(.manifest(ManifestQuery())))
    }
}
