import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import StickerImage
import Testing

/// Reads from a real hot standby (`pg_basebackup -R` of a primary on this machine): a standby that lags, its replay
/// paused, never makes a manifest go back nor names an image it lacks; once it catches up, reads return to it.
@Suite(
    "Read replicas", .enabled(if: (try? PostgresTools.find()) != nil, "needs PostgreSQL's programs to make a standby"))
struct ReadReplicaTests {
    /// A primary and its hot standby, each a throwaway cluster; stopped and removed by `close()`.
    struct Pair {
        let root: String
        let primary: EmbeddedPostgres
        let standby: EmbeddedPostgres
        let primaryEndpoint: DatabaseEndpoint
        let standbyEndpoint: DatabaseEndpoint

        static func make() async throws -> (Pair, basebackup: Duration) {
            let root = "/tmp/sc-replica-\(getpid())"
            try? FileManager.default.removeItem(atPath: root)
            // The clusters' owner (postgres, when the tests run as root) must reach both folders.
            try FileManager.default.createDirectory(
                atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            let primary = EmbeddedPostgres(directory: root + "/p", durable: false, logger: TestDatabase.logger)
            let primaryEndpoint = try primary.start()
            try await TestDatabase.withPool(primaryEndpoint) { pool in
                try await Migrator().migrate(pool, logger: TestDatabase.logger)
                try await DemoCatalog.loadIfEmpty(
                    into: PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: TestDatabase.logger),
                    validator: StickerValidator(), logger: TestDatabase.logger)
            }
            let tools = try PostgresTools.find()
            let standbyFolder = URL(fileURLWithPath: root + "/s")
            try FileManager.default.createDirectory(
                at: standbyFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let started = ContinuousClock.now
            try tools.run(
                "pg_basebackup", as: try tools.clusterOwner(for: standbyFolder),
                [
                    "-D", standbyFolder.appending(path: "postgres").path, "-R", "-X", "stream", "-c", "fast",
                    "-h", root + "/p", "-U", EmbeddedPostgres.user,
                ])
            let basebackup = ContinuousClock.now - started
            let standby = EmbeddedPostgres(directory: root + "/s", durable: false, logger: TestDatabase.logger)
            let standbyEndpoint = try standby.start()
            return (
                Pair(
                    root: root, primary: primary, standby: standby, primaryEndpoint: primaryEndpoint,
                    standbyEndpoint: standbyEndpoint),
                basebackup
            )
        }

        func close() {
            standby.stop()
            primary.stop()
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    static func revision(_ pool: DatabasePool) async throws -> Int {
        try await pool.count("SELECT revision FROM catalog_revision")
    }

    /// Waits until the standby has the primary's revision; how long that took.
    static func caughtUp(_ primary: DatabasePool, _ standby: DatabasePool) async throws -> Duration {
        let started = ContinuousClock.now
        let wanted = try await revision(primary)
        while try await revision(standby) < wanted {
            guard ContinuousClock.now - started < .seconds(120) else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
        return ContinuousClock.now - started
    }

    static func reads(_ client: some TestClientProtocol, _ read: String, _ result: String) async throws -> Double {
        ObservabilityTests.value(
            try await ObservabilityTests.metrics(client),
            "standby_reads_total{read=\"\(read)\",result=\"\(result)\"}") ?? 0
    }

    @Test(.hangLimit)
    func aPausedStandbyNeverMakesTheManifestGoBackAndReadsReturnWhenItCatchesUp() async throws {
        // Setup: the pair, and a service reading from the standby.
        let (pair, basebackup) = try await Pair.make()
        defer { pair.close() }
        var logger = Logger(label: "replica-test")
        logger.logLevel = .warning
        // As generous as withApp's: in a busy suite an upload's transaction once took over the default 10 s.
        let primary = DatabasePool(
            endpoint: pair.primaryEndpoint, logger: logger, acquireTimeout: .seconds(60),
            statementTimeout: .seconds(120))
        let standby = DatabasePool(
            endpoint: pair.standbyEndpoint, logger: logger, acquireTimeout: .seconds(60),
            statementTimeout: .seconds(120))
        var options = ServiceOptions()
        options.access.bootstrapAdminToken = adminToken
        let app = buildApplication(
            pool: primary, options: options, registry: PrometheusCollectorRegistry(), logger: logger,
            standbys: [standby])
        try await app.test(.router) { client in
            let firstCatchUp = try await Self.caughtUp(primary, standby)
            let before = try await client.execute(uri: "/v1/manifest", method: .get)
            #expect(before.status == .ok && String(buffer: before.body).contains("Chewy"))

            // Action: replay paused, a rename and a new image committed on the primary.
            try await TestDatabase.execute(pair.standbyEndpoint, "SELECT pg_wal_replay_pause()")
            let renamed = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["name": "Chewy, renamed while the standby sleeps"]))
            #expect(renamed.status == .ok)
            let picture = PNGCodec.encode(
                RGBAImage(width: 320, height: 320, pixels: [UInt8](repeating: 123, count: 320 * 320 * 4)))
            let uploaded = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(UploadTests.fields, files: [("file", picture)]))
            #expect(uploaded.status == .created)

            // Check: the manifest has both, read from the primary; the new image comes from the primary too.
            #expect(try await Self.revision(standby) < Self.revision(primary))
            let during = try await client.execute(uri: "/v1/manifest", method: .get)
            let text = String(buffer: during.body)
            #expect(text.contains("Chewy, renamed while the standby sleeps") && text.contains("Toffee"))
            #expect(try await Self.reads(client, "snapshot", "behind") >= 1)
            let url = try #require((uploaded.json["asset"] as? [String: Any])?["url"] as? String)
            let image = try await client.execute(uri: url, method: .get)
            #expect(image.status == .ok && image.body.readableBytes > 0)
            #expect(try await Self.reads(client, "asset", "missing") == 1)

            // Replay resumed: once the standby has caught up, the next catalog read is the standby's.
            try await TestDatabase.execute(pair.standbyEndpoint, "SELECT pg_wal_replay_resume()")
            let resumed = try await Self.caughtUp(primary, standby)
            let usedBefore = try await Self.reads(client, "snapshot", "used")
            let committed = ContinuousClock.now
            #expect(
                try await client.execute(
                    uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                    body: Body.json(["name": "Chewy"])
                ).status == .ok)
            let lag = try await Self.caughtUp(primary, standby)
            let after = try await client.execute(uri: "/v1/manifest", method: .get)
            #expect(String(buffer: after.body).contains("\"Chewy\""))
            #expect(try await Self.reads(client, "snapshot", "used") == usedBefore + 1)
            let again = try await client.execute(uri: url, method: .get)
            #expect(again.status == .ok)
            print(
                "read replicas: pg_basebackup \(basebackup), first catch-up \(firstCatchUp), catch-up after resume \(resumed), "
                    + "a commit reaches the standby in \(lag) (\(ContinuousClock.now - committed) to a manifest read from it)"
            )
        }
    }
}
