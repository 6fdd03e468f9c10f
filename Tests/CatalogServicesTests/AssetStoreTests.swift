import CatalogCore
import CatalogServices
import Foundation
import Synchronization
import Testing

/// The image store's cost per question: a bundle of unknown digests is one read, not one per digest.
@Suite struct AssetStoreTests {
    /// A reader holding `stored` images, counting each kind of read.
    final class Reader: CatalogReader {
        let stored: Mutex<[String: [UInt8]]>
        let byteReads = Atomic(0)
        let existenceReads = Atomic(0)

        init(stored: [String: [UInt8]]) { self.stored = Mutex(stored) }

        func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot {
            throw CancellationError()
        }

        func assetBytes(sha256: String) async throws -> [UInt8]? {
            byteReads.add(1, ordering: .relaxed)
            return stored.withLock { $0[sha256] }
        }

        func storedAssets(among sha256s: [String]) async throws -> Set<String> {
            existenceReads.add(1, ordering: .relaxed)
            let stored = stored.withLock { $0 }
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

    @Test("A digest missing at a revision of a lost history is looked up again at that number in the new one")
    func theMissingMemoForgetsALostHistory() async throws {
        let image = String(repeating: "cd", count: 32)
        let digest = try #require(AssetDigest(hex: Substring(image)))
        let (reader, revision) = (Reader(stored: [:]), CatalogRevision(8))
        revision.advance(to: 8, stamp: 1)
        let store = AssetStore(reader: reader, revision: revision)
        #expect(try await store.asset(digest) == nil)  // remembered missing at revision 8
        // The database goes back to 7, then climbs to 8 again in another history, where the image was uploaded.
        revision.rewind(to: 7, stamp: 2)
        reader.stored.withLock { $0[image] = [9] }
        revision.advance(to: 8, stamp: 3)
        #expect(try await store.asset(digest)?.bytes.readableBytes == 1)
    }
}

/// A bundle's answer is made as it is sent.
@Suite struct BundleFramesTests {
    @Test("The first frame is made before the last image is read: one image's bytes read, not all")
    func framesAreMadeAsTheyAreTaken() async throws {
        // Setup: 200 stored images and 56 digests of none.
        let images = (0..<200).map { String(format: "%064x", $0 + 1) }
        let reader = AssetStoreTests.Reader(stored: Dictionary(uniqueKeysWithValues: images.map { ($0, [1, 2, 3]) }))
        let store = AssetStore(reader: reader, revision: CatalogRevision(7))
        let items = try JSONDecoder().decode(
            [AssetBundle.Request.Item].self,
            from: JSONEncoder().encode((images + AssetStoreTests.random(56).map(\.hex)).map { ["sha256": $0] }))
        // Action
        var frames = try await BundleFrames(items, store: store, signer: AssetSigner(key: [1], lifetime: 60)) { _ in
            true
        }
        let first = try #require(try await frames.next())
        // Check: one existence read for all, the first image's bytes only; then every frame, in order.
        #expect(reader.existenceReads.load(ordering: .relaxed) == 1)
        #expect(reader.byteReads.load(ordering: .relaxed) == 1)
        #expect(first.count == 2 && first[1].readableBytes == 3)
        var statuses = [first[0].getInteger(at: 0, as: UInt8.self)]
        while let frame = try await frames.next() { statuses.append(frame[0].getInteger(at: 0, as: UInt8.self)) }
        #expect(
            statuses.count == 256 && statuses.prefix(200).allSatisfy { $0 == 0 }
                && statuses.suffix(56).allSatisfy { $0 == 1 })
        #expect(reader.existenceReads.load(ordering: .relaxed) == 1 && reader.byteReads.load(ordering: .relaxed) == 200)
    }
}
