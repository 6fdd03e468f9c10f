import CatalogCore
import CatalogServices
import Foundation
import Synchronization
import Testing

/// The image store's cost per question: a bundle of unknown digests is one read, not one per digest.
@Suite struct AssetStoreTests {
    /// A reader holding `stored` images, counting each kind of read.
    final class Reader: CatalogReader {
        let stored: [String: [UInt8]]
        let byteReads = Atomic(0)
        let existenceReads = Atomic(0)

        init(stored: [String: [UInt8]]) { self.stored = stored }

        func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot {
            throw CancellationError()
        }

        func assetBytes(sha256: String) async throws -> [UInt8]? {
            byteReads.add(1, ordering: .relaxed)
            return stored[sha256]
        }

        func storedAssets(among sha256s: [String]) async throws -> Set<String> {
            existenceReads.add(1, ordering: .relaxed)
            return Set(sha256s.filter { stored[$0] != nil })
        }
    }

    /// `count` digests of no image.
    static func random(_ count: Int) -> [AssetDigest] {
        (0..<count).compactMap { _ in
            AssetDigest(
                hex: Substring((0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()))
        }
    }

    @Test("256 random digests cost one read, then none: each is remembered missing; a stored one is still read")
    func unknownDigestsInOneRead() async throws {
        // Setup
        let image = String(repeating: "ab", count: 32)
        let reader = Reader(stored: [image: [1, 2, 3]])
        let store = AssetStore(reader: reader, revision: CatalogRevision(7))
        let asked = Self.random(256) + [try #require(AssetDigest(hex: Substring(image)))]
        // Action: what a bundle does.
        try await store.learnMissing(asked)
        var found = 0
        for digest in asked where try await store.asset(digest) != nil { found += 1 }
        // Check
        #expect(found == 1)
        #expect(reader.existenceReads.load(ordering: .relaxed) == 1)
        #expect(reader.byteReads.load(ordering: .relaxed) == 1, "only the stored image's bytes are read")
    }
}
