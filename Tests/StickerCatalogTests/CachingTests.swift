import CCompression
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

@Suite("Caches: LRU by bytes, single flight, normalised keys, compressed bodies")
struct CachingTests {
    @Test("The LRU evicts the least recently used entries, one at a time, to stay within its bytes")
    func lru() {
        var cache = ByteLRU<String, Int>(capacity: 100)
        cache.insert(1, for: "a", cost: 40)
        cache.insert(2, for: "b", cost: 40)
        #expect(cache.value(for: "a") == 1)  // a is now the most recent
        cache.insert(3, for: "c", cost: 40)  // evicts b, not a
        #expect(cache.peek("b") == nil && cache.peek("a") == 1 && cache.peek("c") == 3)
        #expect(cache.totalCost == 80 && cache.count == 2)
        cache.insert(4, for: "big", cost: 101)  // larger than the whole cache: not kept, nothing evicted
        #expect(cache.peek("big") == nil && cache.count == 2)
        cache.insert(5, for: "a", cost: 10)  // replacing a value frees its old cost
        #expect(cache.totalCost == 50 && cache.value(for: "a") == 5)
        // A long run of inserts and reads never goes over the capacity or loses track of its entries.
        var generator = SplitMix(7)
        for step in 0..<5000 {
            let key = "k\(Int.random(in: 0..<60, using: &generator))"
            if step % 3 == 0 {
                _ = cache.value(for: key)
            } else {
                cache.insert(step, for: key, cost: Int.random(in: 1...30, using: &generator))
            }
            #expect(cache.totalCost <= 100)
        }
    }

    @Test(
        "Accept-Encoding picks the best coding by q-value, brotli on ties but only when named, identity when nothing else is acceptable"
    )
    func acceptEncoding() {
        let offered: [ContentCoding] = [.brotli, .gzip]
        #expect(AcceptEncoding.preferred(nil, offered: offered) == .identity)
        #expect(AcceptEncoding.preferred("gzip, deflate, br", offered: offered) == .brotli)
        #expect(AcceptEncoding.preferred("gzip", offered: offered) == .gzip)
        #expect(AcceptEncoding.preferred("br;q=0.5, gzip;q=0.8", offered: offered) == .gzip)
        #expect(AcceptEncoding.preferred("br;q=0, gzip;q=0", offered: offered) == .identity)
        // `*` from a client that cannot undo brotli (schemathesis' HTTP library is one): gzip, which every client can.
        #expect(AcceptEncoding.preferred("*", offered: offered) == .gzip)
        #expect(AcceptEncoding.preferred("*", offered: [.brotli]) == .identity)
        #expect(AcceptEncoding.preferred("br, *", offered: offered) == .brotli)
        #expect(AcceptEncoding.preferred("deflate", offered: offered) == .identity)
        #expect(AcceptEncoding.preferred("gzip;q=garbage, br", offered: offered) == .brotli)
        #expect(AcceptEncoding.preferred("br", offered: [.gzip]) == .identity)
    }

    @Test("Asset digests parse 64 lowercase hex digits and print them back")
    func digests() {
        let hex = "00ff10a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"
        #expect(AssetDigest(hex: Substring(hex))?.hex == hex)
        for bad in [String(hex.dropLast()), hex + "0", hex.uppercased(), "g" + hex.dropFirst(), ""] {
            #expect(AssetDigest(hex: Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test("Concurrent callers of one key share one computation")
    func singleFlight() async throws {
        let flight = SingleFlight<String, Int>()
        let (runs, arrived) = (CountingReader.Counter(), CountingReader.Counter())
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    arrived.increment()
                    return try await flight.run("key") {
                        runs.increment()
                        // Runs until every caller has come (a busy machine may start one late), and a moment more.
                        while arrived.value < 50 { try await Task.sleep(for: .milliseconds(10)) }
                        try await Task.sleep(for: .milliseconds(500))
                        return 42
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: 42, count: 50))
        #expect(runs.value == 1)
    }

    @Test("64 concurrent requests after a change read one snapshot; one asset is read once; an unknown one once")
    func herd() async throws {
        try await withApp(demo: true) { _, db in
            let revision = CatalogRevision()
            let catalog = PostgresCatalog(pool: db, revision: revision, logger: TestDatabase.logger)
            let reader = CountingReader(catalog)
            let service = ManifestService(reader: reader, revision: revision, linker: AssetLinker(publicBaseURL: nil))
            _ = try await service.body(for: .manifest(ManifestQuery()))
            var patch = GroupPatch()
            patch.name = .value("Changed")
            _ = try await catalog.updateGroup(id: "chewy", patch)
            let etags = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        try await service.body(for: .manifest(ManifestQuery(locale: index % 2 == 0 ? "fr" : nil))).body
                            .identity.etag
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(reader.snapshots.value == 2)
            #expect(etags.count == 2)

            let assets = AssetStore(reader: reader, revision: revision)
            let sha = try #require(
                try await catalog.snapshot(reusing: nil).stickers["chewy"]?.first.flatMap {
                    AssetDigest(hex: Substring($0.asset.sha256))
                })
            let unknown = try #require(AssetDigest(hex: Substring(String(repeating: "0", count: 64))))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<64 {
                    group.addTask { _ = try await assets.asset(index % 2 == 0 ? sha : unknown) }
                }
                try await group.waitForAll()
            }
            for _ in 0..<10 { _ = try await assets.asset(unknown) }
            #expect(reader.assetReads.value == 2)
            // An upload raises the revision, so a digest remembered as missing is looked up again.
            revision.advance(to: revision.current + 1)
            _ = try await assets.asset(unknown)
            #expect(reader.assetReads.value == 3)
        }
    }

    @Test("Made-up locales share the cache entry of the locale they resolve to, and never evict the popular one")
    func localeKeys() async throws {
        try await withApp(demo: true) { _, db in
            let revision = CatalogRevision()
            let catalog = PostgresCatalog(pool: db, revision: revision, logger: TestDatabase.logger)
            let service = ManifestService(reader: catalog, revision: revision, linker: AssetLinker(publicBaseURL: nil))
            let popular = try await service.body(for: .manifest(ManifestQuery(locale: "fr"))).body
            let afterOne = service.cachedBytes
            for index in 0..<300 {
                // Unknown languages resolve to the default texts; unknown regions of French to French.
                let tag =
                    index % 2 == 0
                    ? "x\(Character(UnicodeScalar(97 + index % 26)!))\(Character(UnicodeScalar(97 + index / 26 % 26)!))"
                    : "fr-\(["CA", "BE", "CH", "LU", "MC"][index % 5])"
                _ = try await service.body(for: .manifest(ManifestQuery(locale: tag)))
            }
            let defaults = try await service.body(for: .manifest(ManifestQuery())).body
            #expect(service.cachedBytes == afterOne + defaults.cost)
            let french = try await service.body(for: .manifest(ManifestQuery(locale: "fr-CA"))).body
            #expect(french.identity.etag == popular.identity.etag)
            let manifest = try JSONSerialization.jsonObject(with: Data(buffer: french.identity.bytes)) as? [String: Any]
            #expect(manifest?["locale"] as? String == "fr")
        }
    }

    @Test("A single group is built alone, and an unknown id is refused from the snapshot without building anything")
    func singleGroup() async throws {
        try await withApp(demo: true) { client, db in
            let revision = CatalogRevision()
            let catalog = PostgresCatalog(pool: db, revision: revision, logger: TestDatabase.logger)
            let service = ManifestService(reader: catalog, revision: revision, linker: AssetLinker(publicBaseURL: nil))
            let group = try await service.body(for: .group("chocolate", ManifestQuery(locale: "fr"))).body
            let manifest = try await service.body(for: .manifest(ManifestQuery(locale: "fr"))).body
            let whole = try JSONSerialization.jsonObject(with: Data(buffer: manifest.identity.bytes)) as? [String: Any]
            let fromManifest = (whole?["groups"] as? [[String: Any]])?.first { $0["id"] as? String == "chocolate" }
            let inManifest = try JSONSerialization.data(
                withJSONObject: try #require(fromManifest), options: [.sortedKeys, .withoutEscapingSlashes])
            // The group's own body is the manifest's group, byte for byte (both are encoded with sorted keys).
            #expect(Data(buffer: group.identity.bytes) == inManifest)
            let bytes = service.cachedBytes
            for _ in 0..<100 {
                await #expect(throws: CatalogError.notFound("Group 'nope'")) {
                    _ = try await service.body(for: .group("nope", ManifestQuery()))
                }
            }
            #expect(service.cachedBytes == bytes)
            #expect(try await client.execute(uri: "/v1/groups/nope", method: .get).problemCode == "not_found")
        }
    }

    @Test("A cache smaller than the bodies it is asked for stays within its bytes, evicting one at a time")
    func boundedBytes() async throws {
        try await withApp(demo: true) { _, db in
            let revision = CatalogRevision()
            let catalog = PostgresCatalog(pool: db, revision: revision, logger: TestDatabase.logger)
            let one = try await ManifestService(
                reader: catalog, revision: revision, linker: AssetLinker(publicBaseURL: nil)
            )
            .body(for: .manifest(ManifestQuery())).body.cost
            let service = ManifestService(
                reader: catalog, revision: revision, linker: AssetLinker(publicBaseURL: nil), capacity: one * 3)
            let popular = ManifestService.Key.manifest(ManifestQuery())
            for flag in 0..<50 {
                _ = try await service.body(for: popular)
                _ = try await service.body(for: .manifest(ManifestQuery(flags: ["made-up-\(flag)"])))
                #expect(service.cachedBytes <= one * 3)
            }
            // The popular manifest, used between every made-up one, is still there.
            #expect(service.isCached(popular))
            #expect(!service.isCached(.manifest(ManifestQuery(flags: ["made-up-0"]))))
        }
    }

    @Test("Manifests come compressed when the client accepts it, with Vary and an ETag per representation")
    func compressed() async throws {
        try await withApp(demo: true) { client, _ in
            let plain = try await client.execute(uri: "/v1/manifest", method: .get)
            let plainTag = try #require(plain.headers[.eTag])
            #expect(plain.headers[.contentEncoding] == nil && plain.headers[.vary] == "Accept-Encoding, Authorization")
            for (accept, coding) in [("gzip", "gzip"), ("gzip, deflate, br", "br")] {
                let response = try await client.execute(
                    uri: "/v1/manifest", method: .get, headers: [.acceptEncoding: accept])
                #expect(
                    response.status == .ok && response.headers[.contentEncoding] == coding
                        && response.headers[.vary] == "Accept-Encoding, Authorization")
                let tag = try #require(response.headers[.eTag])
                #expect(tag != plainTag && tag.hasSuffix("-\(coding)\""))
                #expect(response.body.readableBytes < plain.body.readableBytes / 2)
                #expect(try Decompress.run(coding, Array(buffer: response.body)) == Array(buffer: plain.body))
                let again = try await client.execute(
                    uri: "/v1/manifest", method: .get, headers: [.acceptEncoding: accept, .ifNoneMatch: tag])
                #expect(again.status == .notModified && again.headers[.eTag] == tag)
                // The identity ETag does not validate a compressed representation.
                let other = try await client.execute(
                    uri: "/v1/manifest", method: .get, headers: [.acceptEncoding: accept, .ifNoneMatch: plainTag])
                #expect(other.status == .ok)
            }
        }
    }
}

/// A real PostgresCatalog that counts what it reads.
final class CountingReader: CatalogReader, Sendable {
    final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func increment() { count.add(1, ordering: .relaxed) }
    }

    let catalog: PostgresCatalog
    let snapshots = Counter()
    let assetReads = Counter()

    init(_ catalog: PostgresCatalog) { self.catalog = catalog }

    func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot {
        snapshots.increment()
        // Slow enough that every concurrent request arrives while the read is under way.
        try await Task.sleep(for: .milliseconds(100))
        return try await catalog.snapshot(reusing: previous)
    }

    func assetBytes(sha256: String) async throws -> [UInt8]? {
        assetReads.increment()
        try await Task.sleep(for: .milliseconds(100))
        return try await catalog.assetBytes(sha256: sha256)
    }
}

/// gzip (zlib) and brotli (libbrotlidec) decoding, to check what the service compressed.
enum Decompress {
    struct Failed: Error {}

    static func run(_ coding: String, _ bytes: [UInt8]) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 1 << 22)
        var size = output.count
        if coding == "br" {
            let result = bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer {
                    BrotliDecoderDecompress(input.count, input.baseAddress, &size, $0.baseAddress)
                }
            }
            guard result == BROTLI_DECODER_RESULT_SUCCESS else { throw Failed() }
            return Array(output.prefix(size))
        }
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failed()
        }
        defer { inflateEnd(&stream) }
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failed() }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
