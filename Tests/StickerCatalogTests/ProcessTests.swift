import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import TestSupport
import Testing

/// stickerd as operators run it: whole processes, their embedded cluster, their environment.
@Suite(
    "stickerd processes",
    .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle (swift build)"))
struct ProcessTests {
    static let token = "a-bootstrap-token-long-enough"

    @Test(
        "After kill -9, the next serve owns the cluster it finds and stops it on exit; PostgreSQL never sees stickerd's secrets",
        .hangLimit)
    func adoptedCluster() async throws {
        let folder = NSTemporaryDirectory() + "sc-adopt-\(getpid())"
        defer {
            EmbeddedPostgres(directory: folder, logger: TestDatabase.logger).stopAbandoned()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let lock = ClusterLock(cluster: URL(fileURLWithPath: folder).appending(path: "postgres"))
        let first = try StickerdProcess(
            serve: ["--data-dir", folder], environment: ["STICKER_ADMIN_TOKEN": Self.token])
        #expect(try await first.waitHealthy(timeout: .seconds(300)))  // initdb and a first start, in a busy suite
        guard case .running(let postmaster) = lock.state else {
            Issue.record("the cluster does not run")
            return
        }
        let environment = try String(
            decoding: Data(contentsOf: URL(fileURLWithPath: "/proc/\(postmaster)/environ")), as: UTF8.self)
        #expect(!environment.contains("STICKER_ADMIN_TOKEN") && !environment.contains(Self.token))
        await first.stop(SIGKILL)
        #expect(lock.state == .running(pid: postmaster), "a killed stickerd leaves its cluster running")

        let second = try StickerdProcess(
            serve: ["--data-dir", folder], environment: ["STICKER_ADMIN_TOKEN": Self.token])
        #expect(try await second.waitHealthy(timeout: .seconds(300)))
        let log = await second.stop(SIGTERM)
        #expect(log.contains("Adopted the embedded PostgreSQL cluster"))
        #expect(lock.state == .stopped, "the adopting stickerd stops the cluster on exit: \(log.suffix(1500))")
        #expect(!Self.isRunning(postmaster))
    }

    @Test(
        "serve and token create started at once on an empty folder take turns: both work, the last out stops the cluster",
        .hangLimit)
    func firstStartsAtOnce() async throws {
        let folder = NSTemporaryDirectory() + "sc-race-\(getpid())"
        defer {
            EmbeddedPostgres(directory: folder, logger: TestDatabase.logger).stopAbandoned()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let lock = ClusterLock(cluster: URL(fileURLWithPath: folder).appending(path: "postgres"))
        // Action: as the tour had it, `stickerd serve &` then `stickerd token create` at once.
        let server = try StickerdProcess(
            serve: ["--data-dir", folder], environment: ["STICKER_ADMIN_TOKEN": Self.token])
        let (status, output) = try await StickerdProcess.run(["token", "create", "--name", "ops", "--data-dir", folder])
        // Check: the token was made, the server came up, and the cluster runs for it after token create left.
        #expect(status == 0, "\(output.suffix(1500))")
        #expect(try await server.waitHealthy(timeout: .seconds(300)))
        guard case .running(let postmaster) = lock.state else {
            Issue.record("token create stopped the cluster serve uses")
            return
        }
        let log = await server.stop(SIGTERM)
        #expect(lock.state == .stopped, "\(log.suffix(1500))")
        #expect(!Self.isRunning(postmaster))
    }

    /// A process that exists and is not a zombie (in a container, nobody may reap an orphan that exited).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z" && state != "X"
    }

    @Test("A postmaster.pid naming a live process that is not the cluster's is stale: the cluster starts anyway")
    func stalePidFile() async throws {
        try await blocking { try Self.stalePidFileBlocking() }
    }

    static func stalePidFileBlocking() throws {
        let folder = NSTemporaryDirectory() + "sc-stale-\(getpid())"
        let cluster = EmbeddedPostgres(directory: folder, durable: false, logger: TestDatabase.logger)
        defer {
            cluster.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        _ = try cluster.start()
        let pidFile = cluster.cluster.appending(path: "postmaster.pid")
        let lines = try String(contentsOf: pidFile, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        cluster.stop()
        // As after a crash and a reboot: the file survives, and its pid now belongs to someone else (this test).
        try ([String(getpid())] + lines.dropFirst().map(String.init)).joined(separator: "\n").write(
            to: pidFile, atomically: true, encoding: .utf8)
        #expect(ClusterLock(cluster: cluster.cluster).state == .stale(pid: getpid()))
        _ = try cluster.start()
        guard case .running = ClusterLock(cluster: cluster.cluster).state else {
            Issue.record("the cluster did not start")
            return
        }
    }

    @Test("Two processes serve the same texts and ETag for a language with several regions", .hangLimit)
    func localeAcrossProcesses() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let regions = ["pt-AO", "pt-BR", "pt-CV", "pt-MZ", "pt-PT", "pt-ST", "pt-TL", "pt-GW"]
        try await TestDatabase.withPool(endpoint) { pool in
            for (index, group) in ["chewy", "chocolate", "crunchy"].enumerated() {
                let names = Dictionary(uniqueKeysWithValues: regions.map { ($0, "\(group) \($0) \(index)") })
                let json = String(decoding: try JSONSerialization.data(withJSONObject: names), as: UTF8.self)
                try await pool.execute(
                    "UPDATE sticker_groups SET localized_names = '\(json)'::jsonb WHERE id = '\(group)'")
            }
        }
        var answers: [String] = []
        // Replicas share their signing key (premium URLs and change cursors signed by one verify at another), so they
        // put the same cursor in the same manifest.
        let key = String(repeating: "ab", count: 32)
        for _ in 0..<2 {
            let process = try StickerdProcess(
                serve: [], environment: ["DATABASE_URL": endpoint.url, "STICKER_ASSET_SIGNING_KEY": key])
            #expect(try await process.waitHealthy())
            answers.append(try await process.get("/v1/manifest?locale=pt"))
            await process.stop()
        }
        let bodies = answers.map { $0.components(separatedBy: "\r\n\r\n").last ?? "" }
        let etags = answers.map { $0.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") } }
        #expect(bodies[0] == bodies[1] && etags[0] == etags[1] && etags[0] != nil)
        #expect(bodies[0].contains("chewy pt-AO 0"))
    }

    @Test(
        "token create prints a token that then works; serve refuses a bootstrap token under 16 characters", .hangLimit)
    func tokens() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let (status, output) = try await StickerdProcess.run(
            ["token", "create", "--name", "ci-robot"], environment: ["DATABASE_URL": endpoint.url])
        #expect(status == 0)
        let token = try #require(output.split(separator: "\n").last.map(String.init))
        #expect(token.hasPrefix("stk_"))
        let server = try StickerdProcess(serve: [], environment: ["DATABASE_URL": endpoint.url])
        #expect(try await server.waitHealthy())
        let answer = try await RawHTTP.exchange(
            port: server.port,
            Array("GET /v1/admin/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n".utf8))
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        await server.stop()
        let refused = try await StickerdProcess.run(
            ["serve", "--port", "\(try StickerdProcess.freePort())"],
            environment: ["DATABASE_URL": endpoint.url, "STICKER_ADMIN_TOKEN": "short"])
        #expect(refused.0 != 0 && refused.1.contains("at least 16 characters"))
        for (flag, value) in [("--database-wait", "0"), ("--statement-timeout", "0"), ("--database-wait", "soon")] {
            let wrong = try await StickerdProcess.run(
                ["serve", "--port", "\(try StickerdProcess.freePort())", flag, value],
                environment: ["DATABASE_URL": endpoint.url])
            #expect(wrong.0 != 0 && wrong.1.contains(flag), "\(flag) \(value): \(wrong.1)")
        }
    }

    @Test(
        "renditions rebuild works in batches with a line of progress each, and says what it did; gc says what it removed",
        .hangLimit)
    func maintenanceCommands() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        try await TestDatabase.withPool(endpoint) { try await $0.execute("UPDATE assets SET renditions_version = 0") }
        let (status, output) = try await StickerdProcess.run(
            ["renditions", "rebuild", "--batch", "4", "--log-level", "warning"],
            environment: ["DATABASE_URL": endpoint.url])
        #expect(status == 0)
        #expect(
            output.contains("4 of 9 images") && output.contains("8 of 9 images") && output.contains("9 of 9 images"),
            "\(output)")
        #expect(output.contains("Rebuilt the renditions of 9 images."))
        let again = try await StickerdProcess.run(
            ["renditions", "rebuild", "--log-level", "warning"], environment: ["DATABASE_URL": endpoint.url])
        #expect(again.1.contains("Rebuilt the renditions of 0 images."))
        // Caramel's upload and its distinct renditions (a larger picture that takes fewer bytes serves several boxes).
        let caramel = try await TestDatabase.withPool(endpoint) { pool in
            try await pool.strings(
                """
                SELECT count(*)::text FROM (SELECT asset_sha256 FROM stickers WHERE name = 'Caramel'
                UNION SELECT r.asset_sha256 FROM renditions r JOIN stickers s ON r.source_sha256 = s.asset_sha256
                WHERE s.name = 'Caramel') AS images
                """)
        }
        let images = try #require(caramel.first.flatMap { Int($0) })
        #expect(images > 2)
        try await TestDatabase.withPool(endpoint) { pool in
            try await pool.execute("DELETE FROM stickers WHERE name = 'Caramel'")
            try await pool.execute(
                "UPDATE assets SET unreferenced_since = now() - interval '40 days' WHERE unreferenced_since IS NOT NULL"
            )
        }
        // Kept releases still show Caramel: its images stay until they are forgotten (--release-history-days).
        let kept = try await StickerdProcess.run(
            ["gc", "--log-level", "warning"], environment: ["DATABASE_URL": endpoint.url])
        #expect(kept.0 == 0 && kept.1.contains("Removed 0 images"), "\(kept.1)")
        try await TestDatabase.withPool(endpoint) {
            try await $0.execute("UPDATE catalog_releases SET released_at = now() - interval '91 days'")
        }
        let gc = try await StickerdProcess.run(
            ["gc", "--log-level", "warning"], environment: ["DATABASE_URL": endpoint.url])
        #expect(gc.0 == 0 && gc.1.contains("Removed \(images) images") && gc.1.contains("Forgot "), "\(gc.1)")
    }

    @Test("export xcstickers writes the view's free stickers as a sticker pack, stamped with the revision", .hangLimit)
    func exportXCStickers() async throws {
        // Setup
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let out = URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "xcstickers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        // Action
        let (status, output) = try await StickerdProcess.run(
            ["export", "xcstickers", "--filter", "chocoholic", "--size", "large", "--out", out.path],
            environment: ["DATABASE_URL": endpoint.url])
        // Check: the chocolate stickers only, in a large-grid pack, with the revision the database is at.
        #expect(status == 0, "\(output)")
        let catalog = out.appending(path: "Stickers.xcstickers")
        let root =
            try JSONSerialization.jsonObject(with: Data(contentsOf: catalog.appending(path: "Contents.json")))
            as? [String: Any]
        let pack =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: catalog.appending(path: "Sticker Pack.stickerpack/Contents.json")))
            as? [String: Any]
        let revision = try await TestDatabase.withPool(endpoint) {
            try await $0.count("SELECT revision FROM catalog_revision")
        }
        #expect((root?["stickercatalog"] as? [String: Any])?["revision"] as? Int == revision)
        #expect((pack?["properties"] as? [String: Any])?["grid-size"] as? String == "large")
        #expect((pack?["stickers"] as? [[String: Any]])?.count == 3)
    }
}
