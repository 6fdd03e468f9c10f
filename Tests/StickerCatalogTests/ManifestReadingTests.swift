import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import StickerImage
import TestSupport
import Testing

/// Manifests over PostgreSQL and HTTP: compressed answers that decode to the same JSON, and snapshots that read again
/// only the groups that changed. (What needs no database is in CatalogServicesTests' `ManifestBuildTests`.)
@Suite struct ManifestReadingTests {
    @Test func aCompressedManifestDecodesToTheSameJSON() async throws {
        try await withApp(demo: true) { client, _ in
            let plain = try await client.execute(uri: "/v1/manifest?locale=fr", method: .get)
            let gzip = try await client.execute(
                uri: "/v1/manifest?locale=fr", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(try Decompress.run("gzip", Array(buffer: gzip.body)) == Array(buffer: plain.body))
        }
    }

    @Test func aSnapshotReadsAgainOnlyTheGroupsWhoseStickersChanged() async throws {
        try await withApp(demo: true) { client, db in
            // Setup
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            let first = try await catalog.snapshot(reusing: nil)
            let sticker = try #require(first.stickers["chewy"]?.first)
            // Action: one sticker changed; then one image's renditions dropped behind the API's back.
            let patched = try await client.execute(
                uri: "/v1/admin/stickers/\(sticker.id.uuidString.lowercased())", method: .patch,
                headers: admin, body: Body.json(["description": "Changed"]))
            #expect(patched.status == .ok)
            let second = try await catalog.snapshot(reusing: first)
            let chocolate = try #require(second.stickers["chocolate"]?.first?.asset.sha256)
            try await db.execute("DELETE FROM renditions WHERE source_sha256 = '\(chocolate)'")
            let third = try await catalog.snapshot(reusing: second)
            let fresh = try await catalog.snapshot(reusing: nil)
            // Check: each incremental read equals a full one; only the changed groups' versions moved.
            #expect(second.stickers["chewy"]?.first?.description == "Changed")
            #expect(
                second.contentVersions.filter { first.contentVersions[$0.key] != $0.value }.keys.sorted() == ["chewy"])
            #expect(
                third.contentVersions.filter { second.contentVersions[$0.key] != $0.value }.keys.sorted() == [
                    "chocolate"
                ])
            #expect(third.stickers["chocolate"]?.first?.renditions.isEmpty == true)
            #expect(
                third.stickers == fresh.stickers && third.groups == fresh.groups && third.revision == fresh.revision)
        }
    }
}
