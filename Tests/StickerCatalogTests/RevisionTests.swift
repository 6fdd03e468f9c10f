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

    @Test("Each revision is read from the database once; repeats are served from memory")
    func cache() async throws {
        try await withApp(demo: true) { _, db in
            let revision = CatalogRevision()
            let catalog = PostgresCatalog(pool: db, revision: revision, logger: TestDatabase.logger)
            let reader = CountingReader(catalog)
            let service = ManifestService(reader: reader, revision: revision, linker: AssetLinker(publicBaseURL: nil))
            let first = try await service.body(for: .manifest(ManifestQuery()))
            let repeated = try await service.body(for: .manifest(ManifestQuery()))
            _ = try await service.body(for: .manifest(ManifestQuery(filter: "chocoholic")))
            #expect(reader.snapshots.value == 1)
            #expect(first.body.identity.etag == repeated.body.identity.etag && first.body.identity.bytes == repeated.body.identity.bytes)
            _ = try await catalog.updateGroup(id: "chewy", { var patch = GroupPatch(); patch.name = .value("Changed"); return patch }())
            let changed = try await service.body(for: .manifest(ManifestQuery()))
            #expect(reader.snapshots.value == 2)
            #expect(changed.body.identity.etag != first.body.identity.etag)
        }
    }
}
