import CatalogCore
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import Testing

/// A database that went back (a failover that lost commits, a restore from a backup) and then climbed to the same
/// revision number again: the revision stamps (sql/0017_revision_stamps.sql) tell the two histories apart.
@Suite struct RewindTests {
    @Test(
        "After a rewind that climbs back to its number, search and the change feed forget the lost sticker, its cursor is a 410"
    )
    func aRewoundDatabaseIsANewEpoch() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: a commit the database will lose (a sticker renamed Ghostly), searched and synced to.
            let before = try await ChangeFeedTests.manifest(client)
            let sticker = try #require(before.groups.flatMap(\.stickers).first { $0.name == "Caramel" })
            try await ChangeFeedTests.patch(client, "stickers/\(sticker.id)", ["name": "Ghostly"])
            let lost = try await ChangeFeedTests.manifest(client)
            #expect(lost.revision == before.revision + 1)
            #expect(try await SearchTests.names(client, "ghostly") == ["Ghostly"])
            // The page of changes since before it, built and cached: the lost rename.
            let lostPage = try await ChangeFeedTests.changes(client, since: before.cursor)
            #expect(lostPage.status == .ok && String(buffer: lostPage.body).contains("Ghostly"))
            // Action: the database as a backup taken before that commit restores it (no trigger, no NOTIFY)...
            try await db.withConnection { connection in
                for sql: PostgresQuery
                    in ([
                        "BEGIN", "SET LOCAL session_replication_role = replica",
                        "UPDATE stickers SET name = 'Caramel' WHERE id::text = \(sticker.id)",
                        """
                        UPDATE catalog_revision SET revision = \(before.revision),
                            stamp = (SELECT stamp FROM catalog_revision_stamps WHERE revision = \(before.revision))
                        """,
                        "DELETE FROM catalog_revision_stamps WHERE revision > \(before.revision)",
                        "DELETE FROM catalog_changes WHERE revision > \(before.revision)",
                        "DELETE FROM catalog_releases WHERE revision > \(before.revision)",
                    ] + Self.historyRewound(to: before.revision) + ["COMMIT"])
                {
                    try await connection.query(sql, logger: TestDatabase.logger)
                }
                // ...then one more commit elsewhere brings it to the lost revision's number again.
                try await connection.query(
                    "UPDATE stickers SET description = 'After the restore' WHERE name = 'Lollipop'",
                    logger: TestDatabase.logger)
            }
            // Check: the replica serves the new history, search finds no trace of the lost name, the old cursor is
            // refused, and the new history's cursor is current.
            let now = try await eventually {
                try await ChangeFeedTests.manifest(client)
            } until: {
                $0.groups.flatMap(\.stickers).contains { $0.description == "After the restore" }
            }
            #expect(now.revision == lost.revision)
            #expect(now.groups.flatMap(\.stickers).contains { $0.name == "Caramel" })
            #expect(try await SearchTests.names(client, "ghostly").isEmpty)
            #expect(try await SearchTests.names(client, "caramel").contains("Caramel"))
            // The same cursor asks for the changes since before the lost commit: this history's, not the cached page
            // of the lost one (it was keyed by revision alone).
            let page = String(buffer: try await ChangeFeedTests.changes(client, since: before.cursor).body)
            #expect(!page.contains("Ghostly") && page.contains("After the restore"), "\(page)")
            let old = try await ChangeFeedTests.changes(client, since: lost.cursor)
            #expect(old.status == .gone)
            #expect(try await ChangeFeedTests.changes(client, since: now.cursor).status == .notModified)
        }
    }

    /// The release history as it stood at `revision`: versions recorded later gone, those they closed open again.
    static func historyRewound(to revision: Int64) -> [PostgresQuery] {
        ["stickers_history", "sticker_groups_history", "filters_history"].flatMap { table -> [PostgresQuery] in
            [
                "DELETE FROM \(unescaped: table) WHERE valid_from > \(revision)",
                "UPDATE \(unescaped: table) SET valid_to = NULL WHERE valid_to > \(revision)",
            ]
        }
    }
}
