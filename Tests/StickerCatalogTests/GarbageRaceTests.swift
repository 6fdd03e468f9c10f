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
import StickerImage
import TestSupport
import Testing

/// `stickerd gc` against uploads and rebuilds, each interleaving forced by a second connection holding a transaction
/// open at the worst moment.
@Suite struct GarbageRaceTests {
    /// An image no demo sticker shows.
    static let image = Samples.gradient(500, 350)

    /// Uploads `image` into Chewy; the sticker's id and image digest.
    static func upload(_ client: some TestClientProtocol) async throws -> (id: String, sha256: String) {
        let response = try await client.execute(
            uri: "/v1/admin/groups/chewy/stickers?name=Spare&description=Spare", method: .post,
            headers: Body.pngHeaders, body: ByteBuffer(bytes: Self.image))
        #expect(response.status == .created)
        let asset = try #require(response.json["asset"] as? [String: Any])
        return (try #require(response.json["id"] as? String), try #require(asset["sha256"] as? String))
    }

    @Test func anUploadReusingRenditionsThatGcIsDeletingMakesThemAgain() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: an image uploaded, its sticker deleted, long unused.
            let (id, sha) = try await Self.upload(client)
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .delete, headers: admin).status
                    == .noContent)
            try await db.execute(
                "UPDATE assets SET unreferenced_since = now() - interval '60 days' WHERE unreferenced_since IS NOT NULL"
            )
            let expected = Renditions.count(animated: false)
            try await db.withConnection { gc in
                // gc has deleted the renditions' images (not the original yet) and not committed.
                try await gc.query("BEGIN", logger: TestDatabase.logger)
                try await gc.query(
                    """
                    DELETE FROM assets WHERE sha256 IN (SELECT asset_sha256 FROM renditions WHERE source_sha256 = \(sha)) AND sha256 <> \(sha)
                    """, logger: TestDatabase.logger)
                // Action: the same image uploaded again, which finds its renditions current; then gc commits.
                async let again = Self.upload(client)
                try await Task.sleep(for: .milliseconds(500))
                try await gc.query("COMMIT", logger: TestDatabase.logger)
                _ = try await again
            }
            // Check: the sticker has every rendition, stored.
            #expect(
                try await db.count(
                    """
                    SELECT count(*) FROM renditions r JOIN assets a ON a.sha256 = r.asset_sha256 WHERE r.source_sha256 = '\(sha)'
                    """) == expected)
            #expect(
                try await db.count(
                    "SELECT count(*) FROM assets WHERE renditions_version = \(Renditions.version) AND sha256 = '\(sha)'"
                ) == 1)
        }
    }

    @Test func renditionsRebuiltAsTheLastStickerGoesAwayAreDatedUnused() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: an image and its renditions, made again by a rebuild.
            let (id, sha) = try await Self.upload(client)
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            let other = Samples.gradient(408, 408)
            let rebuilt = try Renditions.make(.png(PNGFile(other, rules: StickerRules())), stored: other)
            try await db.withConnection { deleting in
                // The sticker's deletion is under way (its trigger has run) and not committed.
                try await deleting.query("BEGIN", logger: TestDatabase.logger)
                try await deleting.query(
                    "DELETE FROM stickers WHERE id = \(UUID(uuidString: id)!)", logger: TestDatabase.logger)
                // Action: the rebuild stores its renditions meanwhile; then the deletion commits.
                async let rebuild: Void = PostgresMaintenance(store: catalog.store).replaceRenditions(
                    source: sha, rebuilt)
                try await Task.sleep(for: .milliseconds(500))
                try await deleting.query("COMMIT", logger: TestDatabase.logger)
                try await rebuild
            }
            // Check: the new renditions are dated unused, so gc will collect them.
            #expect(
                try await db.count(
                    """
                    SELECT count(*) FROM renditions r JOIN assets a ON a.sha256 = r.asset_sha256
                    WHERE r.source_sha256 = '\(sha)' AND a.unreferenced_since IS NULL
                    """) == 0)
            #expect(
                try await db.count("SELECT count(*) FROM renditions WHERE source_sha256 = '\(sha)'") == rebuilt.count)
        }
    }
}
