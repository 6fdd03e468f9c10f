import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import Testing
@testable import StickerCatalog

@Suite("Catalog revision and the manifest cache")
struct RevisionTests {
    @Test("A change made through one replica reaches another within a second")
    func acrossReplicas() async throws {
        try await withReplicas { first, second in
            let before = try #require(try await second.execute(uri: "/v1/manifest", method: .get).json["revision"] as? Int)
            let patch = try await first.execute(uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["name": "Gummies"]))
            #expect(patch.status == .ok)
            let deadline = ContinuousClock.now + .seconds(1)
            var seen = ""
            while ContinuousClock.now < deadline {
                let groups = try await second.execute(uri: "/v1/manifest", method: .get).json["groups"] as? [[String: Any]]
                seen = groups?.first { $0["id"] as? String == "chewy" }?["name"] as? String ?? ""
                if seen == "Gummies" { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(seen == "Gummies")
            let after = try #require(try await second.execute(uri: "/v1/manifest", method: .get).json["revision"] as? Int)
            #expect(after > before)
        }
    }

    /// A real PostgresCatalog that counts the snapshots it reads.
    final class CountingReader: CatalogReader, @unchecked Sendable {
        let catalog: PostgresCatalog
        let lock = NSLock()
        var snapshots = 0

        init(_ catalog: PostgresCatalog) { self.catalog = catalog }

        func snapshot() async throws -> CatalogSnapshot {
            lock.withLock { snapshots += 1 }
            return try await catalog.snapshot()
        }

        func assetBytes(sha256: String) async throws -> [UInt8]? { try await catalog.assetBytes(sha256: sha256) }
    }

    @Test("Each revision is read from the database once; repeats are served from memory")
    func cache() async throws {
        try await withApp(demo: true) { _, db in
            let revision = CatalogRevision()
            let catalog = PostgresCatalog(client: db, revision: revision, logger: TestDatabase.logger)
            let reader = CountingReader(catalog)
            let service = ManifestService(reader: reader, revision: revision, linker: AssetLinker(publicBaseURL: nil))
            let first = try await service.body(for: .manifest(ManifestQuery()))
            let repeated = try await service.body(for: .manifest(ManifestQuery()))
            _ = try await service.body(for: .manifest(ManifestQuery(filter: "chocoholic")))
            #expect(reader.snapshots == 1)
            #expect(first.etag == repeated.etag && first.body == repeated.body)
            _ = try await catalog.updateGroup(id: "chewy", { var patch = GroupPatch(); patch.name = "Changed"; return patch }())
            let changed = try await service.body(for: .manifest(ManifestQuery()))
            #expect(reader.snapshots == 2)
            #expect(changed.etag != first.etag)
        }
    }
}
