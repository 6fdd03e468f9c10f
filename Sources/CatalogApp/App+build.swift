import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Hummingbird
import Logging
import NIOCore
import Prometheus
import StickerImage

/// What `stickerd serve` is configured with.
package struct ServiceOptions: Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    /// Absolute base for asset URLs (a CDN, say); nil serves them as paths on this service.
    package var publicBaseURL: String?
    /// An admin token accepted as is (`STICKER_ADMIN_TOKEN`), to bootstrap a fresh installation.
    package var bootstrapAdminToken: String?
    /// Load the candy demo catalog when the catalog is empty.
    package var demo = false
    package var rules = StickerRules()
    /// Memory for encoded manifests and for image bytes, each an LRU.
    package var manifestCacheBytes = 64 << 20
    /// Memory for encoded search answers, an LRU; 0 answers every search afresh.
    package var searchCacheBytes = 8 << 20
    package var assetCacheBytes = 64 << 20
    /// A connection with no request under way for this long is closed (so is one still sending its request head).
    package var idleTimeout = Duration.seconds(30)
    /// The longest a request body may take to arrive.
    package var bodyTimeout = Duration.seconds(30)
    /// Uploads read, validated and stored at once; more are refused with 503.
    package var maxConcurrentUploads = 8
    /// How each purchase source is verified, and whether sandbox purchases unlock.
    package var purchases = PurchaseConfiguration()
    /// Verifies users' bearer tokens; nil refuses every one.
    package var userTokens: UserTokens?
    /// Signs premium image URLs (`STICKER_ASSET_SIGNING_KEY`); a random key when nil, good for this process only.
    package var assetSigningKey: [UInt8]?
    /// Signed image URLs live between one and two of these.
    package var assetURLLifetime: Int64 = 3600
    /// Memory for the products each signed-in user holds.
    package var entitlementCacheBytes = 16 << 20
    /// How often deliveries left unapplied are swept and applied again (`DeliverySweeper`).
    package var deliverySweepInterval = Duration.seconds(30)
    /// Refused webhook deliveries kept for replay, per source and refusal; the oldest go first.
    package var quarantineLimit = 10_000
    /// Bytes of bodies and signatures kept in each of those quarantines; the oldest go first.
    package var quarantineBytes = 64 << 20
    /// Connections held at once; past it, new ones wait in the listen backlog (`ConnectionLimit`). `stickerd serve`
    /// derives it from its file limit (`DescriptorBudget.connections`); nil holds any number.
    package var maxConnections: Int?
    /// Server-Sent Event streams open at once (`/v1/events`); more are refused with 503 and `Retry-After`.
    package var maxEventStreams = 10_000
    /// Event streams one signed-in user, and one client address (IPv4, or an IPv6 /64: generous, as carrier-grade NAT
    /// puts many users behind one), may hold on this replica; more are refused with 429.
    package var maxEventStreamsPerUser = 8
    package var maxEventStreamsPerAddress = 256
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`); nobody else's is believed.
    package var trustedProxies = TrustedProxies()
    /// How often an idle event stream sends a comment line, so proxies and clients know it is alive.
    package var eventHeartbeat = Duration.seconds(15)
    /// An event stream ends after this; its client reconnects (to any replica) with `Last-Event-ID`.
    package var eventStreamLifetime = Duration.seconds(3600)
    /// Time every request into `http_request_duration_seconds`; false only counts them (to price the histogram).
    package var requestDurations = true
    /// The line per request (stickerd writes it at info, its default level); nil writes none.
    package var accessLog: AccessLog?
    /// `/metrics` answers only with `Authorization: Bearer` this token (`--metrics-token`); nil serves it to anyone.
    package var metricsToken: String?
    /// Wrong admin tokens one source may present in a minute before it is refused with 429 until the minute ends.
    package var adminAuthFailuresPerMinute = 10
    /// How long a starting replica waits for PostgreSQL before it gives up.
    package var startupPatience = Duration.seconds(30)
    /// The time schedules are judged by (a test's own clock in tests).
    package var scheduleClock: any ScheduleClock = SystemScheduleClock()

    package init() {}

    /// The shortest bootstrap token accepted: 16 characters, about 96 bits when random.
    package static let minimumTokenLength = 16
}

/// The composition root: the database, the catalog store, the services and every route.
/// `draining` turns `/readyz` to 503 when shutdown begins (`DrainService`); `standbys` are hot standbys of `pool`'s
/// primary for the big reads (`ReadReplicas`).
package func buildApplication(pool: DatabasePool, options: ServiceOptions, registry: PrometheusCollectorRegistry,
                             logger: Logger, revision: CatalogRevision = CatalogRevision(),
                             draining: Draining = Draining(), standbys: [DatabasePool] = []) -> some ApplicationProtocol {
    let changes = EntitlementChanges()
    let replicas = standbys.isEmpty ? nil : ReadReplicas(pools: standbys, registry: registry)
    let catalog = PostgresCatalog(pool: pool, revision: revision, logger: logger, entitlementChanges: changes,
                                  quarantineLimit: options.quarantineLimit, quarantineBytes: options.quarantineBytes, replicas: replicas)
    let listener = RevisionListener(endpoint: pool.endpoint, revision: revision, logger: logger, entitlementChanges: changes)
    let scheduler = CatalogScheduler(endpoint: pool.endpoint, clock: options.scheduleClock, logger: logger)
    let (_, manifests, responder) = buildRouter(catalog: catalog, listener: listener, options: options, registry: registry, draining: draining,
                                                boundary: scheduler.nextBoundary)
    let sweeper = DeliverySweeper(intake: PurchaseIntake(repository: catalog, configuration: options.purchases), logger: logger,
                                  interval: options.deliverySweepInterval)
    var app = Application(
        responder: responder(),
        server: .http1(configuration: .init(idleTimeout: TimeAmount(options.idleTimeout))),
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "stickerd"),
        services: [pool] + standbys + [listener, sweeper, scheduler],
        onServerRunning: { [failures = AcceptFailures(registry: registry, logger: logger),
                            limit = ConnectionLimit(limit: options.maxConnections, registry: registry, logger: logger)] channel in
            await failures.watch(channel)
            await limit.watch(channel)
        },
        logger: logger)
    app.beforeServerStarts {
        _ = try await Migrator().migrate(pool, logger: logger, patience: options.startupPatience)
        if options.demo {
            try await DemoCatalog.loadIfEmpty(into: catalog, validator: StickerValidator(rules: options.rules), logger: logger)
        }
        scheduler.begin()
        await manifests.warm()
    }
    return app
}

/// Every route of the API, in one place, the manifest service behind them (warmed before the server starts), and what
/// makes the `ServiceResponder` in front of the router (called once, by the application: making the router's responder
/// adds its HEAD routes); `methodNotAllowed` adds 405 answers for the methods a path does not serve; `boundary` is the
/// next schedule boundary as this replica's `CatalogScheduler` knows it.
package func buildRouter(catalog: PostgresCatalog, listener: RevisionListener, options: ServiceOptions, registry: PrometheusCollectorRegistry,
                 draining: Draining = Draining(), methodNotAllowed: Bool = true, boundary: NextBoundary = NextBoundary())
    -> (router: Router<AppRequestContext>, manifests: ManifestService, responder: () -> ServiceResponder) {
    let signer = AssetSigner(key: options.assetSigningKey ?? (0..<32).map { _ in UInt8.random(in: 0...255) }, lifetime: options.assetURLLifetime)
    let linker = AssetLinker(publicBaseURL: options.publicBaseURL, signer: signer)
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    let unknownMethods = UnknownMethods()
    let durations = RequestDurations(timed: options.requestDurations)
    let metrics = CatalogMetrics(registry: registry)
    let problems = ProblemMiddleware<AppRequestContext>(unknownMethods: unknownMethods)
    router.add(middleware: problems)
    // Only the groups that read bodies pay for their deadline: a cached manifest is not a frame deeper for it.
    let deadline = BodyDeadlineMiddleware<AppRequestContext>(timeout: options.bodyTimeout)
    ConsoleController(publicBaseURL: options.publicBaseURL).addRoutes(to: router)
    let manifests = ManifestService(reader: catalog, revision: catalog.revision, linker: linker, capacity: options.manifestCacheBytes,
                                    logger: catalog.logger, counters: CacheCounters(registry: registry, cache: "manifest"))
    let entitlements = EntitlementCache(repository: catalog, changes: catalog.entitlementChanges, sandbox: options.purchases.sandbox,
                                        capacity: options.entitlementCacheBytes)
    let users = UserAuthMiddleware(tokens: options.userTokens)
    let client = router.group("v1").add(middleware: users)
    let manifestController = ManifestController(service: manifests, entitlements: entitlements)
    manifestController.addRoutes(to: client)
    let search = SearchService(manifests: manifests, capacity: options.searchCacheBytes, clock: options.scheduleClock,
                               boundary: boundary, logger: catalog.logger)
    SearchController(service: search, entitlements: entitlements).addRoutes(to: client)
    let feed = ChangeFeed(manifests: manifests, log: catalog)
    ChangeFeedController(feed: feed, entitlements: entitlements).addRoutes(to: client)
    let hub = EventHub(limits: options.streamLimits, revision: catalog.revision, entitlements: catalog.entitlementChanges)
    EventController(hub: hub, feed: feed, entitlements: entitlements, heartbeat: options.eventHeartbeat,
                    lifetime: options.eventStreamLifetime, proxies: options.trustedProxies, metrics: metrics).addRoutes(to: client)
    let assets = AssetStore(reader: catalog, revision: catalog.revision, capacity: options.assetCacheBytes,
                            counters: CacheCounters(registry: registry, cache: "asset"))
    let assetController = AssetController(store: assets, manifests: manifests, signer: signer)
    assetController.addRoutes(to: router.group("v1/assets"), bodies: router.group("v1/assets").add(middleware: deadline))
    let uploads = UploadGate(limit: options.maxConcurrentUploads)
    let gauges = ServiceGauges(registry: registry, revision: catalog.revision, listener: listener, draining: draining,
                               pool: catalog.pool, hub: hub, manifests: manifests, search: search, assets: assets, uploads: uploads, quarantine: catalog,
                               log: options.accessLog?.sink)
    let readiness = Readiness(migrationsApplied: { [pool = catalog.pool] in try await Migrator().isCurrent(pool, logger: $0) },
                              keepsUp: { listener.isCurrent })
    HealthController(readiness: readiness, registry: registry, durations: durations, updateGauges: { await gauges.update() },
                     draining: draining, metricsToken: options.metricsToken).addRoutes(to: router)
    let intake = PurchaseIntake(repository: catalog, configuration: options.purchases)
    MeController(repository: catalog, sandbox: options.purchases.sandbox).addRoutes(to: client.group("me", context: UserRequestContext.self))
    PurchaseController(intake: intake).addRoutes(to: client.group("purchases").add(middleware: deadline).group(context: UserRequestContext.self))
    WebhookController(intake: intake, metrics: metrics).addRoutes(to: router.group("v1/webhooks").add(middleware: deadline))

    let authenticator = AdminAuthenticator(tokens: catalog, bootstrapToken: options.bootstrapAdminToken, proxies: options.trustedProxies,
                                           attempts: FailedAttempts(limit: options.adminAuthFailuresPerMinute))
    let authenticated = router.group("v1/admin")
        .add(middleware: deadline)
        .add(middleware: AdminAuthMiddleware(authenticator: authenticator))
        .group(context: AdminRequestContext.self)
    let idempotency = IdempotencyMiddleware(repository: catalog, maxBodyBytes: options.rules.maxBytes + UploadReader.formOverhead)
    let admin = authenticated.group().add(middleware: idempotency)
    let groups = admin.group("groups")
    GroupController(repository: catalog, linker: linker).addRoutes(to: groups)
    StickerController(repository: catalog, validator: StickerValidator(rules: options.rules), linker: linker,
                      uploads: uploads, metrics: metrics)
        .addRoutes(authenticated: authenticated, idempotency: idempotency, stickers: admin.group("stickers"))
    FilterController(repository: catalog).addRoutes(to: admin.group("filters"))
    AdminEntitlementController(repository: catalog, sandbox: options.purchases.sandbox).addRoutes(to: admin.group("users"))
    AdminPreviewController(service: manifests, entitlements: entitlements).addRoutes(to: admin.group("users"))
    ManifestPreviewController(schedule: catalog, manifests: manifests, entitlements: entitlements, clock: options.scheduleClock)
        .addRoutes(to: admin)
    ReleaseController(repository: catalog, manifests: manifests, entitlements: entitlements).addRoutes(to: admin.group("releases"))
    AdminWebhookController(intake: intake).addRoutes(to: admin.group("webhook-events"))
    ExportController(manifests: manifests, reader: catalog, rules: options.rules).addRoutes(to: admin.group("exports"))
    if methodNotAllowed { router.answerMethodNotAllowed(unknownMethods: unknownMethods, admin: authenticator) }
    let hot = HotRoutes(assets: assetController, manifests: manifestController, users: users)
    let observation = RequestObservation(durations: durations, accessLog: options.accessLog)
    return (router, manifests, { ServiceResponder(router: router.buildResponder(), hot: hot, observation: observation, problems: problems) })
}

extension ServiceOptions {
    /// The bounds the options set on this replica's event streams.
    package var streamLimits: StreamAdmission.Limits {
        .init(total: maxEventStreams, perUser: maxEventStreamsPerUser, perAddress: maxEventStreamsPerAddress)
    }
}
