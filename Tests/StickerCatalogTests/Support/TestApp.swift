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
import PostgresNIO
import Prometheus
import StickerImage
import Synchronization
import TestSupport
import Testing

/// The bootstrap admin token every test app accepts.
let adminToken = "test-admin-token"
let admin: HTTPFields = [.authorization: "Bearer \(adminToken)"]

/// Runs `body` against a full app (router, services, migrations) on a fresh clone of the test database,
/// in memory or, `live`, over real HTTP on a loopback port.
/// `db` is the app's own pool, for checks straight in SQL.
func withApp(
    demo: Bool = false,
    live: Bool = false,
    options configure: @Sendable (inout ServiceOptions) -> Void = { _ in },
    _ body: @escaping @Sendable (_ client: any TestClientProtocol, _ db: DatabasePool) async throws -> Void
) async throws {
    let (endpoint, drop) = try await TestDatabase.shared.clone(demo: demo)
    var options = ServiceOptions()
    options.access.bootstrapAdminToken = adminToken
    // Over real HTTP the test client keeps one connection and does not reconnect: in a busy suite a test paused past
    // the default 30 s between two requests and its next one found the connection closed. Tests of the idle timeout
    // set their own.
    if live { options.server.idleTimeout = .seconds(600) }
    configure(&options)
    let trail = ServiceTrail()
    let logger = trail.logger("test-app")
    var quiet = Logger(label: "test-app")
    quiet.logLevel = .warning
    // Generous: the whole suite runs at once on two cores, so a connection, or a transaction, can take seconds under
    // load.
    let db = DatabasePool(
        endpoint: endpoint, logger: quiet, acquireTimeout: .seconds(60), statementTimeout: .seconds(120))
    let app = buildApplication(pool: db, options: options, registry: PrometheusCollectorRegistry(), logger: logger)
    do {
        try await AppPhase.watched(trail: trail) { phase in
            try await app.test(live ? .live : .router) { client in
                phase.enter(.body)
                do { try await body(client, db) } catch {
                    phase.enter(.shutdown)
                    throw error
                }
                phase.enter(.shutdown)
            }
        }
    } catch {
        await drop()
        throw error
    }
    await drop()
}

/// Where a test app is, for a watchdog that keeps a hang from stopping the whole run: full suites have waited for good
/// after the body of a router-mode app (every connection of its database closed, no query under way; not reproduced in
/// 40 runs of those tests alone under load). Starting or in the test's body, a hang fails the test. Past the body (its
/// checks done), it is HummingbirdTesting's service group waiting on a shutdown it does not bound, unlike stickerd's
/// (`--shutdown-grace`, then 5 s of cancellation): reported with what ServiceLifecycle last said, and the app left
/// behind.
final class AppPhase: Sendable {
    enum Phase: String, Sendable { case starting, body, shutdown }
    private let current = Mutex((phase: Phase.starting, since: ContinuousClock.now))

    func enter(_ phase: Phase) { current.withLock { $0 = (phase, .now) } }

    /// Runs `work`; past `limit` (far beyond the slowest test in a busy full suite), or `shutdownLimit` after the body
    /// ended, stops waiting for it.
    static func watched(
        limit: Duration = .seconds(420), shutdownLimit: Duration = .seconds(90), trail: ServiceTrail,
        _ work: @escaping @Sendable (AppPhase) async throws -> Void
    ) async throws {
        let phase = AppPhase()
        let started = ContinuousClock.now
        do {
            try await race(
                { try await work(phase) },
                watchdog: {
                    while true {
                        try await Task.sleep(for: .seconds(1))
                        let (current, since) = phase.current.withLock { $0 }
                        if current == .shutdown
                            ? ContinuousClock.now - since > shutdownLimit : ContinuousClock.now - started > limit
                        {
                            throw Hung(phase: current)
                        }
                    }
                })
        } catch let hung as Hung where hung.phase == .shutdown {
            print(
                "AppPhase: a test app's services had not stopped \(shutdownLimit) after its test ended; left behind. "
                    + "ServiceLifecycle's last lines:\n\(trail.text)")
        } catch let hung as Hung {
            Issue.record(
                "The test app was still \(hung.phase.rawValue) after \(limit); left behind. ServiceLifecycle's last lines:\n\(trail.text)"
            )
        }
    }

    private struct Hung: Error { let phase: Phase }
}

/// Two replicas serving one database (with the demo catalog, and what `setup` writes before they start), for checks
/// across replicas.
func withReplicas(
    live: Bool = false, options configure: @Sendable (inout ServiceOptions) -> Void = { _ in },
    setup: @escaping @Sendable (DatabasePool) async throws -> Void = { _ in },
    _ body: @escaping @Sendable (_ first: any TestClientProtocol, _ second: any TestClientProtocol) async throws -> Void
) async throws {
    let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
    do { try await TestDatabase.withPool(endpoint, setup) } catch {
        await drop()
        throw error
    }
    let trail = ServiceTrail()
    func replica(_ name: String) -> some ApplicationProtocol {
        var options = ServiceOptions()
        options.access.bootstrapAdminToken = adminToken
        // As `withApp`: over real HTTP the test client does not reconnect, and a busy suite paused a test past the
        // default 30 s idle timeout ("I/O on closed channel" in a bare clone's make test).
        if live { options.server.idleTimeout = .seconds(600) }
        configure(&options)
        let logger = trail.logger(name)
        var quiet = Logger(label: name)
        quiet.logLevel = .warning
        // As generous as withApp's: on a busy machine the default second to get a connection is not enough.
        return buildApplication(
            pool: DatabasePool(
                endpoint: endpoint, logger: quiet, acquireTimeout: .seconds(60), statementTimeout: .seconds(120)),
            options: options,
            registry: PrometheusCollectorRegistry(), logger: logger)
    }
    let (first, second) = (replica("replica-1"), replica("replica-2"))
    do {
        try await AppPhase.watched(trail: trail) { phase in
            try await first.test(live ? .live : .router) { a in
                try await second.test(live ? .live : .router) { b in
                    phase.enter(.body)
                    do { try await body(a, b) } catch {
                        phase.enter(.shutdown)
                        throw error
                    }
                    phase.enter(.shutdown)
                }
            }
        }
    } catch {
        await drop()
        throw error
    }
    await drop()
}

extension TestResponse {
    /// The body parsed as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }

    /// The body parsed as a JSON array.
    var jsonArray: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [[String: Any]] ?? []
    }

    /// The `code` of a problem answer, after checking it is one.
    var problemCode: String? {
        headers[.contentType] == "application/problem+json" ? json["code"] as? String : nil
    }
}

/// Request bodies used across tests.
enum Body {
    static func json(_ object: Any) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
    }

    static let boundary = "sticker-test-boundary"

    /// A multipart/form-data body with text `fields` and image `files` (each a part with a filename).
    static func form(_ fields: [(String, String)], files: [(name: String, bytes: [UInt8])] = []) -> ByteBuffer {
        var body = ByteBuffer()
        for (name, value) in fields {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        for file in files {
            body.writeString(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"s.png\"\r\n")
            body.writeString("Content-Type: image/png\r\n\r\n")
            body.writeBytes(file.bytes)
            body.writeString("\r\n")
        }
        body.writeString("--\(boundary)--\r\n")
        return body
    }

    static let formHeaders: HTTPFields = {
        var headers = admin
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return headers
    }()

    static let pngHeaders: HTTPFields = {
        var headers = admin
        headers[.contentType] = "image/png"
        return headers
    }()
}

extension DatabasePool {
    /// A single integer from `sql`, for checks straight in the database.
    func count(_ sql: String) async throws -> Int {
        try await withConnection { connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            for try await value in rows.decode(Int.self) { return value }
            return 0
        }
    }

    /// The text column of every row of `sql`, in order.
    func strings(_ sql: String) async throws -> [String] {
        try await withConnection { connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            var values: [String] = []
            for try await value in rows.decode(String.self) { values.append(value) }
            return values
        }
    }

    /// Runs `sql` (one statement) for its effect.
    func execute(_ sql: String) async throws {
        try await withConnection { _ = try await $0.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger) }
    }
}

/// The app's router over ports that fail any test calling them (`CatalogPorts.unimplemented`, or `ports`): for checks
/// of the routes themselves.
func offlineRouter(
    methodNotAllowed: Bool = true, options: ServiceOptions = ServiceOptions(), ports: CatalogPorts = .unimplemented
) -> Router<AppRequestContext> {
    buildRouter(
        ports: ports, options: options, registry: PrometheusCollectorRegistry(), logger: Logger(label: "offline"),
        methodNotAllowed: methodNotAllowed
    ).router
}

/// Polls `/readyz` until it answers 200 (the revision listener reads the revision once connected), for up to 60 s: on a
/// busy machine the listener's first connection took over 10 s.
func waitUntilReady(_ client: any TestClientProtocol) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if try await client.execute(uri: "/readyz", method: .get).status == .ok { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return false
}
