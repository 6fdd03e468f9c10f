import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore

struct Garbage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Delete stored images that no sticker has shown for a while.",
        discussion: """
            Asset URLs are immutable and clients cache them, so deleting a sticker (or rebuilding renditions) leaves its \
            images stored and served. An image becomes garbage when the last sticker showing it, itself or as a \
            rendition, goes away; after the grace period `gc` deletes it, a batch per transaction. Replicas may go on \
            serving a deleted image from memory until they evict it or restart.

            It also forgets the change feed's history older than --change-history-days: a client whose cursor is older \
            gets 410 cursor_expired and fetches the whole manifest again. And it forgets releases older than \
            --release-history-days (never the current one): they can no longer be previewed or restored, and images \
            only they showed become garbage. Images a kept release shows are never deleted. And it deletes usage counts \
            (hourly, per sticker and action) of hours that ended more than --usage-retention-days ago.
            """)

    @Option(help: "Days an image must have been unused before it is deleted.")
    var graceDays = 30

    @Option(help: "Days of change history kept for the change feed (GET /v1/manifest/changes).")
    var changeHistoryDays = 30

    @Option(help: "Days of releases kept for GET /v1/admin/releases and restore, with every image they show.")
    var releaseHistoryDays = 90

    @Option(help: "Days of hourly usage counts kept for trending and GET /v1/admin/stats.")
    var usageRetentionDays = 400

    @Option(help: "Images deleted per transaction.")
    var batch = 500

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        let days = 0...36_500
        guard days.contains(graceDays), batch >= 1, days.contains(changeHistoryDays), days.contains(releaseHistoryDays),
            days.contains(usageRetentionDays)
        else {
            throw ValidationError(
                "--grace-days, --change-history-days, --release-history-days and --usage-retention-days must be 0 to 36500, --batch at least 1"
            )
        }
    }

    func run() async throws {
        let logger = try database.logger("stickerd.gc")
        let (grace, batch) = (Duration.seconds(graceDays * 86_400), batch)
        let (images, bytes) = try await database.withPool(logger: logger) { pool in
            try await Migrator().migrate(pool, logger: logger)
            let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger)
            let releases = try await PostgresReleases(store: catalog.store).pruneReleases(
                olderThan: .seconds(releaseHistoryDays * 86_400))
            if releases > 0 { print("Forgot \(releases) releases older than \(releaseHistoryDays) days") }
            var (images, bytes) = (0, 0)
            while true {
                let removed = try await PostgresMaintenance(store: catalog.store).collectGarbage(
                    unusedFor: grace, limit: batch)
                guard removed.images > 0 else { break }
                (images, bytes) = (images + removed.images, bytes + removed.bytes)
                print("Removed \(removed.images) images (\(removed.bytes) bytes)")
            }
            let changes = try await PostgresChanges(store: catalog.store).pruneChanges(
                olderThan: .seconds(changeHistoryDays * 86_400))
            if changes > 0 { print("Forgot \(changes) change-feed entries older than \(changeHistoryDays) days") }
            let usage = try await PostgresUsage(store: catalog.store).pruneUsage(
                olderThan: .seconds(usageRetentionDays * 86_400))
            if usage > 0 { print("Forgot \(usage) hourly usage counts older than \(usageRetentionDays) days") }
            let keys = try await PostgresIdempotency(store: catalog.store).forgetIdempotencyKeys()
            if keys > 0 { print("Forgot \(keys) idempotency keys older than a day") }
            return (images, bytes)
        }
        print("Removed \(images) images, \(bytes) bytes, unused for \(graceDays) days or more.")
    }
}
