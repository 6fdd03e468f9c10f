import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation
import Metrics
import Prometheus
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP API (the default command).",
        discussion: """
            Applies pending migrations first. On SIGINT or SIGTERM, /readyz answers 503 at once; stickerd serves \
            for --drain-seconds more, then stops accepting connections, finishes the requests in flight and closes \
            event streams (within --shutdown-grace), stops the embedded PostgreSQL cluster if it owns it, and exits 0.
            Environment: STICKER_ADMIN_TOKEN (an admin token accepted as is, at least 16 characters), \
            STICKER_PUBLIC_BASE_URL (asset URLs become absolute under it, e.g. a CDN), \
            DATABASE_READ_URL (comma-separated hot standbys of DATABASE_URL's primary: catalog snapshots and images are \
            read there when the standby is current, from the primary otherwise).
            Purchases: \(PurchaseOptions.environmentHelp)
            """)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Flag(
        help:
            "Load the candy demo catalog (Chewy, Chocolate, Crunchy and the chocoholic filter) when the catalog is empty."
    )
    var demo = false

    @Option(
        help: """
            Memory for encoded manifests, in MiB (least recently used ones leave first). A whole manifest is made \
            for catalogs of up to 512 stickers per MiB (32,768 at 64); larger ones answer 413 and are served \
            through the group index (GET /v1/groups).
            """)
    var manifestCacheMib = 64

    @Option(help: "Memory for image bytes, in MiB (least recently used ones leave first).")
    var assetCacheMib = 64

    @Option(
        help:
            "Memory for encoded search answers, in MiB (least recently used ones leave first); 0 answers every search afresh."
    )
    var searchCacheMib = 8

    @Option(help: "Seconds before an idle connection, or one still sending its request head, is closed.")
    var idleTimeout = 30

    @Option(help: "Seconds a client may take to send a request body (408 after that).")
    var bodyTimeout = 30

    @Option(
        help:
            "Seconds an answer may make no progress (its client stopped reading) before its connection is closed."
    )
    var writeStallTimeout = 30

    @Option(help: "Uploads handled at once; more are refused with 503 and Retry-After.")
    var maxUploads = 8

    @Option(help: "Asset bundles answered at once to one client address; more are refused with 429 and Retry-After.")
    var maxBundlesPerAddress = ServiceOptions().limits.bundlesPerAddress

    @Option(
        help:
            "Server-Sent Event streams (/v1/events) open at once; more are refused with 503 and Retry-After. Each holds a file descriptor: stickerd raises its soft RLIMIT_NOFILE to the hard limit and refuses to start when this bound, the uploads and the database connections do not fit."
    )
    var maxEventStreams = 10_000

    @Option(help: "Seconds between heartbeat comments on an idle event stream.")
    var eventHeartbeat = 15

    @Option(help: "Seconds an event stream lasts before the client must reconnect (spreads streams over new replicas).")
    var eventStreamLifetime = 3600

    @Flag(
        inversion: .prefixedNo,
        help:
            "Time every request into the http_request_duration_seconds histogram (--no-request-durations only counts them; make bench prices the difference)."
    )
    var requestDurations = true

    @Option(
        help:
            "Seconds to go on serving after SIGTERM with /readyz answering 503, so load balancers stop sending traffic first (match the orchestrator's preStop delay, or leave 0 behind one that has it)."
    )
    var drainSeconds = 0

    @Option(
        help:
            "Serve /metrics only with 'Authorization: Bearer TOKEN' (Prometheus' authorization credentials); at least 16 characters (env STICKER_METRICS_TOKEN). Unset: /metrics only on a loopback --host (beyond it, a 401)."
    )
    var metricsToken: String?

    @Option(
        help:
            "Wrong admin tokens one address may present in a minute; past that, every admin request from it is refused with 429 too_many_attempts until the minute ends, before any token lookup."
    )
    var adminAuthFailuresPerMinute = 10

    @Option(
        help:
            "Seconds after SIGTERM within which requests and event streams in flight must finish (after the drain); then they are cancelled and stickerd exits."
    )
    var shutdownGrace = 25

    @Option(
        help:
            "Seconds a request waits for a database connection before it is answered 503 database_unavailable with Retry-After, and a probe for PostgreSQL to answer (short: while PostgreSQL is away, clients hear so at once)."
    )
    var databaseWait = 1.0

    @Option(
        help:
            "Seconds a request's database work may run once it has its connection; past that the connection is closed and the request answered 503."
    )
    var statementTimeout = 10.0

    @OptionGroup(title: "Event streams per client") var streams: StreamOptions

    @OptionGroup(title: "Usage counting") var usage: UsageOptions

    @OptionGroup(title: "Web pages on other origins") var web: WebOptions

    @OptionGroup(title: "Animated stickers") var limits: LimitOptions

    @OptionGroup(title: "Purchases") var purchases: PurchaseOptions

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard manifestCacheMib >= 1, assetCacheMib >= 1, searchCacheMib >= 0, idleTimeout >= 1, bodyTimeout >= 1,
            writeStallTimeout >= 1, maxBundlesPerAddress >= 1,
            maxUploads >= 1,
            maxEventStreams >= 1, eventHeartbeat >= 1, eventStreamLifetime >= 1, drainSeconds >= 0, shutdownGrace >= 1
        else {
            throw ValidationError(
                "cache sizes, timeouts, --max-uploads, --max-bundles-per-address, --max-event-streams and the event stream times must be at least 1"
            )
        }
        guard (0.001...3600).contains(databaseWait), (0.001...86400).contains(statementTimeout) else {
            throw ValidationError(
                "--database-wait must be 0.001 to 3600 seconds and --statement-timeout 0.001 to 86400")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
    }

    func run() async throws {
        let logger = try database.logger("stickerd")
        let connections = try StreamOptions.reserveDescriptors(
            DescriptorBudget(
                streams: maxEventStreams, uploads: maxUploads,
                pools: 1 + (try database.readEndpoints()).count), logger: logger)
        let environment = ProcessInfo.processInfo.environment
        var options = ServiceOptions()
        (options.server.host, options.server.port, options.demo, options.limits.rules) = (
            host, port, demo, limits.rules
        )
        (options.caches.manifestBytes, options.caches.assetBytes) = (manifestCacheMib << 20, assetCacheMib << 20)
        options.caches.searchBytes = searchCacheMib << 20
        options.server.writeStallTimeout = .seconds(writeStallTimeout)
        options.limits.bundlesPerAddress = maxBundlesPerAddress
        (options.server.idleTimeout, options.server.bodyTimeout, options.limits.concurrentUploads) = (
            .seconds(idleTimeout), .seconds(bodyTimeout), maxUploads
        )
        (options.streams.total, options.streams.heartbeat, options.streams.lifetime) =
            (maxEventStreams, .seconds(eventHeartbeat), .seconds(eventStreamLifetime))
        options.logging.requestDurations = requestDurations
        options.server.maxConnections = connections
        // The flag, else the environment (an empty variable is unset).
        let metricsToken = metricsToken ?? environment["STICKER_METRICS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let token = metricsToken, token.count < ServiceOptions.minimumTokenLength {
            throw ValidationError("--metrics-token must be at least \(ServiceOptions.minimumTokenLength) characters")
        }
        options.access.metricsToken = metricsToken
        guard adminAuthFailuresPerMinute >= 1 else {
            throw ValidationError("--admin-auth-failures-per-minute must be at least 1")
        }
        options.limits.adminAuthFailuresPerMinute = adminAuthFailuresPerMinute
        try streams.configure(&options)
        usage.configure(&options)
        web.configure(&options)
        if try database.level() <= .info { options.logging.accessLog = AccessLog(format: try database.format()) }
        options.server.publicBaseURL = environment["STICKER_PUBLIC_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        options.access.bootstrapAdminToken = environment["STICKER_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let token = options.access.bootstrapAdminToken, token.count < ServiceOptions.minimumTokenLength {
            throw ValidationError(
                "STICKER_ADMIN_TOKEN must be at least \(ServiceOptions.minimumTokenLength) characters; "
                    + "make one with `openssl rand -base64 24` or use `stickerd token create`")
        }
        if options.access.bootstrapAdminToken == nil {
            logger.notice(
                "STICKER_ADMIN_TOKEN is not set: the admin API accepts only tokens made with `stickerd token create`")
        }
        try await purchases.configure(&options, environment: environment, logger: logger)
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let db = try database.open(logger: logger)
        defer { db.embedded?.stop() }
        let draining = Draining()
        let pool = { (endpoint: DatabaseEndpoint) in
            DatabasePool(
                endpoint: endpoint, logger: logger, acquireTimeout: .seconds(databaseWait),
                statementTimeout: .seconds(statementTimeout))
        }
        let standbys = try database.readEndpoints().map(pool)
        if !standbys.isEmpty {
            logger.info("Reading catalog snapshots and images from \(standbys.count) standby(s) when they are current")
        }
        let app = buildApplication(
            pool: pool(db.endpoint), options: options, registry: registry,
            logger: logger, draining: draining, standbys: standbys)
        // The drain service comes last, so that a graceful shutdown reaches it first (see DrainService).
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: app),
                .init(
                    service: DrainService(draining: draining, period: .seconds(drainSeconds), logger: logger),
                    successTerminationBehavior: .gracefullyShutdownGroup),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(drainSeconds + shutdownGrace)
        configuration.maximumCancellationDuration = .seconds(5)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            guard let explained = StartupFailure.explain(error, host: options.server.host, port: options.server.port)
            else { throw error }
            throw CommandFailure(explained)
        }
    }
}
