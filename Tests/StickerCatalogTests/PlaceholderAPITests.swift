import CatalogCore
import CatalogStore
import Foundation
import HummingbirdTesting
import NIOCore
import StickerImage
import TestSupport
import Testing

/// Placeholder colours through the API: made at upload, in the manifest and the group; filled in for images stored
/// before they were, which clients learn through the change feed like any other change.
@Suite struct PlaceholderAPITests {
    static func stickers(_ client: some TestClientProtocol, _ uri: String) async throws -> [[String: Any]] {
        let groups =
            try await client.execute(uri: uri, method: .get).json["groups"] as? [[String: Any]] ?? []
        return groups.flatMap { $0["stickers"] as? [[String: Any]] ?? [] }
    }

    @Test func anUploadsPlaceholderIsItsStillsColourInTheManifestAndItsGroup() async throws {
        try await withApp(demo: true) { client, _ in
            let png = Samples.gradient(408, 408)
            let uploaded = try await client.execute(
                uri: "/v1/admin/groups/chocolate/stickers?name=Fade&description=d", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: png))
            let id = try #require(uploaded.json["id"] as? String)
            let expected = try Placeholder.colour(ofFile: png)
            let listed = try await Self.stickers(client, "/v1/manifest")
            #expect(listed.first { $0["id"] as? String == id }?["placeholder"] as? String == expected)
            // Every demo sticker has one too, made as it was loaded.
            #expect(listed.allSatisfy { Placeholder.isValid($0["placeholder"] as? String ?? "") })
            let group = try await client.execute(uri: "/v1/groups/chocolate", method: .get).json
            let stickers = group["stickers"] as? [[String: Any]] ?? []
            #expect(stickers.first { $0["id"] as? String == id }?["placeholder"] as? String == expected)
        }
    }

    @Test func storedImagesWithoutOneGetItAndClientsSeeTheChange() async throws {
        try await withApp(demo: true) { client, db in
            let before = try await Self.stickers(client, "/v1/manifest")
            let colours = Dictionary(
                uniqueKeysWithValues: before.map { ($0["id"] as? String ?? "", $0["placeholder"] as? String) })
            let manifest = try await client.execute(uri: "/v1/manifest", method: .get).json
            let cursor = try #require(manifest["cursor"] as? String)
            // As if stored before migration 0020; one image keeps a colour of its own, which a fill must not replace.
            try await db.execute("UPDATE assets SET placeholder = NULL")
            let kept = try #require(
                try await db.strings(
                    "SELECT s.asset_sha256 FROM stickers s WHERE s.group_id = 'crunchy' ORDER BY s.position LIMIT 1"
                ).first)
            try await db.execute("UPDATE assets SET placeholder = '#01020304' WHERE sha256 = '\(kept)'")
            let revision = try await db.count("SELECT revision::int FROM catalog_revision")
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            await PlaceholderFill(
                maintenance: PostgresMaintenance(store: catalog.store), logger: TestDatabase.logger, batch: 4
            )
            .fill()
            #expect(
                try await db.count(
                    "SELECT count(*) FROM assets a WHERE a.placeholder IS NULL AND EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)"
                ) == 0)
            #expect(try await db.count("SELECT count(*) FROM assets WHERE placeholder = '#01020304'") == 1)
            // One release per batch of four images, named for what made it.
            #expect(try await db.count("SELECT revision::int FROM catalog_revision") > revision)
            #expect(try await db.count("SELECT count(*) FROM catalog_releases WHERE author = 'placeholders'") >= 1)
            // The change feed names the groups whose stickers changed; the manifest shows the colours the upload made.
            let changes = try await eventually(
                {
                    try await ChangeFeedTests.changes(client, since: cursor).json["groups"] as? [[String: Any]] ?? []
                }, until: { $0.count >= 3 })
            #expect(Set(changes.compactMap { $0["id"] as? String }).isSuperset(of: ["crunchy", "chocolate"]))
            let after = try await eventually(
                { try await Self.stickers(client, "/v1/manifest") },
                until: {
                    $0.allSatisfy { $0["placeholder"] != nil }
                })
            for sticker in after {
                let id = sticker["id"] as? String ?? ""
                let colour = sticker["placeholder"] as? String
                #expect(colour == (colours[id] ?? nil) || colour == "#01020304", "\(id)")
            }
        }
    }
}
