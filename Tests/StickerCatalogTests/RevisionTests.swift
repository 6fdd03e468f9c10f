import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import Testing

@Suite("Catalog revision and the manifest cache")
struct RevisionTests {
    @Test("A change made through one replica reaches another")
    func acrossReplicas() async throws {
        try await withReplicas { first, second in
            let before = try #require(
                try await second.execute(uri: "/v1/manifest", method: .get).json["revision"] as? Int)
            let patch = try await first.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["name": "Gummies"]))
            #expect(patch.status == .ok)
            let seen = try await eventually {
                let groups =
                    try await second.execute(uri: "/v1/manifest", method: .get).json["groups"] as? [[String: Any]]
                return groups?.first { $0["id"] as? String == "chewy" }?["name"] as? String ?? ""
            } until: {
                $0 == "Gummies"
            }
            #expect(seen == "Gummies")
            let after = try #require(
                try await second.execute(uri: "/v1/manifest", method: .get).json["revision"] as? Int)
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
            #expect(
                first.body.identity.etag == repeated.body.identity.etag
                    && first.body.identity.bytes == repeated.body.identity.bytes)
            _ = try await catalog.updateGroup(
                id: "chewy",
                {
                    var patch = GroupPatch()
                    patch.name = .value("Changed")
                    return patch
                }())
            let changed = try await service.body(for: .manifest(ManifestQuery()))
            #expect(reader.snapshots.value == 2)
            #expect(changed.body.identity.etag != first.body.identity.etag)
        }
    }

    @Test(
        "A catalog revision that goes back (a restore, a failover that lost commits) is noticed and the catalog read again",
        .hangLimit)
    func revisionGoingBack() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: the replica has served revision R.
            let before = try #require(
                try await client.execute(uri: "/v1/manifest", method: .get).json["revision"] as? Int)
            // Action: as a restore from an older backup would leave it: other data, an older revision, no NOTIFY.
            try await db.withConnection { connection in
                try await connection.query("BEGIN", logger: TestDatabase.logger)
                try await connection.query("SET LOCAL session_replication_role = replica", logger: TestDatabase.logger)
                try await connection.query(
                    "UPDATE sticker_groups SET name = 'Restored' WHERE id = 'chewy'", logger: TestDatabase.logger)
                try await connection.query(
                    "UPDATE catalog_revision SET revision = \(before - 3)", logger: TestDatabase.logger)
                try await connection.query("COMMIT", logger: TestDatabase.logger)
            }
            // Check: within a few polls the replica serves the restored catalog at its revision (waiting on the event).
            var (name, revision) = ("", before)
            let deadline = ContinuousClock.now + .seconds(30)
            while name != "Restored", ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                let manifest = try await client.execute(uri: "/v1/manifest", method: .get).json
                name =
                    (manifest["groups"] as? [[String: Any]])?.first { $0["id"] as? String == "chewy" }?["name"]
                    as? String ?? ""
                revision = manifest["revision"] as? Int ?? revision
            }
            #expect(name == "Restored" && revision == before - 3)
        }
    }
}
